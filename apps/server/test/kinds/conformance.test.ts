// Every declared search kind, walked through every surface a search reaches: its route (with the
// declaration's example request), history's reopening, its report, the export, filing under a case by
// its reference, and the case's timeline. A kind added to the declarations is walked too, so a surface
// that forgets it fails here rather than in front of a user.
import {
  declarationOf,
  detailFacts,
  SEARCH_KIND_DECLARATIONS,
  SEARCH_KINDS,
  type SearchKind,
  searchLabel,
} from '@footprint/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createUser, json, newDeviceId, signIn, type TestApp } from '../support/app.ts';
import { pdfText } from '../support/pdf.ts';

let t: TestApp;
let client: Awaited<ReturnType<typeof signedIn>>;
const REFERENCE = 'CONFORMANCE 1/2026';

beforeAll(async () => {
  t = await createTestApp({ env: { RATE_LIMIT_ENABLED: 'false', SANDBOX_LEAK_RECORDS: '2000' } });
  client = await signedIn();
});
afterAll(() => t.close());

async function signedIn() {
  const deviceId = newDeviceId();
  const user = await createUser(t.db, { appMode: 'live', credits: 1000, trustedDevice: deviceId });
  const { token } = await signIn(t, user.email, user.password, deviceId);
  const headers = { authorization: `Bearer ${token}`, 'x-device-id': deviceId };
  return {
    user,
    get: (url: string) => t.app.inject({ method: 'GET', url, headers }),
    post: (url: string, body: unknown) =>
      t.app.inject({ method: 'POST', url, ...json(body, deviceId, token) }),
  };
}

/** Sends a kind's example request under the case reference; answers the lookup id and the answer. */
async function runExample(kind: SearchKind) {
  const { example } = SEARCH_KIND_DECLARATIONS[kind];
  const res =
    example.method === 'GET'
      ? await client.get(
          `${example.path}?${new URLSearchParams({ ...example.query, case_reference: REFERENCE })}`,
        )
      : await client.post(example.path, { ...example.body, case_reference: REFERENCE });
  expect(res.statusCode, `${kind}: ${res.body.slice(0, 300)}`).toBe(200);
  const pdf = res.headers['content-type']?.toString().startsWith('application/pdf');
  const lookupId = pdf ? String(res.headers['x-lookup-id']) : (res.json() as { lookup_id: string }).lookup_id;
  expect(lookupId, kind).toMatch(/^[0-9a-f-]{36}$/);
  return { lookupId, answer: pdf ? null : (res.json() as Record<string, unknown>) };
}

describe.each(SEARCH_KINDS.map((kind) => [kind]))('the %s kind', (kind) => {
  const declaration = SEARCH_KIND_DECLARATIONS[kind];

  it('is declared once, under its own name, with an example on its own endpoint', () => {
    expect(declarationOf(kind)).toBe(declaration);
    expect(declaration.kind).toBe(kind);
    expect(declaration.example.path).toBe(declaration.request.path);
    expect(declaration.example.method).toBe(declaration.request.method);
  });

  it('runs, reopens, reports, exports, files under its case and shows on the timeline', async () => {
    const { lookupId, answer } = await runExample(kind);

    // History lists it under the kind, and reopens it in the shape its endpoint answered.
    const list = await client.get(`/api/history?kind=${encodeURIComponent(kind)}`);
    expect(list.statusCode, list.body).toBe(200);
    const entry = (list.json() as { data: { id: string; kind: string }[] }).data.find(
      (e) => e.id === lookupId,
    );
    expect(entry?.kind).toBe(kind);
    const reopened = await client.get(`/api/history/${lookupId}`);
    expect(reopened.statusCode, reopened.body).toBe(200);
    const result = (reopened.json() as { result: Record<string, unknown> }).result;
    if (answer && (declaration.shape === 'phone' || declaration.shape === 'detail')) {
      // The same keys as the live answer, less what only a live answer carries.
      const live = Object.keys(answer).filter(
        (key) => !['credits', 'lookup_id', 'cached', 'sandbox'].includes(key),
      );
      expect(Object.keys(result).sort()).toEqual(live.sort());
      if (declaration.shape === 'detail') expect(result.data).toEqual(answer.data);
    } else if (answer && declaration.shape === 'email') {
      expect(result.data).toEqual(answer.data);
    } else {
      expect(result).toBeTypeOf('object');
    }

    // Its report, where its declaration names one.
    if (declaration.report === 'lookup') {
      const res = await client.post('/api/generate-report', {
        type: kind,
        userInput:
          declaration.example.query?.number ??
          declaration.example.query?.email ??
          declaration.example.query?.username,
        results: { lookup_id: lookupId },
      });
      expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
      expect(res.headers['content-type']).toBe('application/pdf');
    } else if (declaration.report === 'detail') {
      const facts = detailFacts(kind as Parameters<typeof detailFacts>[0]);
      const record = (answer?.data as { data?: Record<string, unknown> } | undefined)?.data ?? {};
      const res = await client.post(`/api/generate-${kind}-report`, {
        data: { ...record, [facts.recordKeys[0]!]: facts.example },
      });
      expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
      expect(await pdfText(res.rawPayload)).toContain(facts.title);
    }

    // Both exports.
    for (const format of ['csv', 'json'] as const) {
      const res = await client.get(`/api/history/${lookupId}/export?format=${format}`);
      expect(res.statusCode, `${format}: ${res.body.slice(0, 300)}`).toBe(200);
      expect(String(res.headers['content-disposition'])).toContain(`.${format}`);
      if (format === 'json') expect((res.json() as { kind: string }).kind).toBe(kind);
      else expect(res.body.split('\r\n').length).toBeGreaterThan(1);
    }

    // Filed under the case its reference names, and said on the case's timeline in the kind's words.
    const cases = await client.get('/api/cases');
    const filed = (cases.json() as { data: { id: string; reference: string }[] }).data.find(
      (c) => c.reference === REFERENCE,
    );
    expect(filed, 'the case of the reference').toBeDefined();
    const detail = await client.get(`/api/cases/${filed!.id}`);
    expect(detail.statusCode, detail.body).toBe(200);
    const body = detail.json() as {
      items: { lookup_id: string; kind: string; query: string; query_typed: string }[];
      timeline: { label: string; lookup_id: string; source: string }[];
    };
    const item = body.items.find((i) => i.lookup_id === lookupId);
    expect(item?.kind).toBe(kind);
    const said = body.timeline.find((e) => e.lookup_id === lookupId && e.source === 'Footprint');
    expect(said?.label).toBe(
      searchLabel({ ...item!, user: { name: client.user.name, email: client.user.email } }),
    );
    expect(said?.label).toContain(declaration.describe(item!));
  });
});
