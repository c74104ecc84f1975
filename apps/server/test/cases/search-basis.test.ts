// The legal basis a search states itself (`legal_basis`), from the same kinds and checked facts as a
// case's: with the deployment's `legal_basis_required` on, it lets a search run outside a case, or
// under a case that has no basis yet; it is kept on the lookups row and the audit rows, answered by
// history, and printed on the search's report before its case's.
import { LEGAL_BASIS_LABELS, legalBasisMessages } from '@footprint/domain';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents, lookups, users } from '../../src/db/schema.ts';
import { INTEL_DEMO } from '../../src/sandbox/index.ts';
import { createTestApp, createUser, json, newDeviceId, signIn, type TestApp } from '../support/app.ts';
import { addLeakRecords } from '../support/leaks.ts';
import { pdfText } from '../support/pdf.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ env: { RATE_LIMIT_ENABLED: 'false', LOOKUP_PURGE_INTERVAL_MINUTES: '0' } });
  await addLeakRecords(t.db, { name: 'Fixture Breach' }, [{ name: 'Fixture Person' }]);
  await setSettings({ legal_basis_required: true });
});
afterAll(() => t.close());

async function signedIn(options: Parameters<typeof createUser>[1] = {}) {
  const deviceId = newDeviceId();
  const user = await createUser(t.db, { appMode: 'live', trustedDevice: deviceId, credits: 10, ...options });
  const { token } = await signIn(t, user.email, user.password, deviceId);
  const headers = { authorization: `Bearer ${token}`, 'x-device-id': deviceId };
  const send = (method: 'POST' | 'PATCH', url: string, body: unknown) =>
    t.app.inject({ method, url, ...json(body, deviceId, token) });
  return {
    user,
    get: (url: string) => t.app.inject({ method: 'GET', url, headers }),
    post: (url: string, body: unknown) => send('POST', url, body),
    patch: (url: string, body: unknown) => send('PATCH', url, body),
  };
}

async function setSettings(patch: Record<string, unknown>) {
  const admin = await signedIn({ role: 'admin' });
  const res = await admin.patch('/api/admin/settings', patch);
  expect(res.statusCode, res.body).toBe(200);
}

async function balanceOf(userId: string) {
  const [row] = await t.db.select({ credits: users.credits }).from(users).where(eq(users.id, userId));
  return row!.credits;
}

const ncrp = {
  kind: 'ncrp_complaint',
  acknowledgement_number: '31201260012345',
  purpose: 'Tracing the caller named in a sextortion complaint',
};
const ncrpLine = `${LEGAL_BASIS_LABELS.ncrp_complaint} acknowledgement 31201260012345: Tracing the caller named in a sextortion complaint`;
const telWith = (basis: unknown, extra = '') =>
  `/api/tel?number=919876543210${extra}&legal_basis=${encodeURIComponent(JSON.stringify(basis))}`;

describe('a search that states its own legal basis', () => {
  it('tells the forms the basis is required', async () => {
    const me = await signedIn();
    const policy = await me.get('/api/case-reference-policy');
    expect(policy.json()).toEqual({ required: false, legal_basis_required: true });
  });

  it('runs outside a case, keeps the basis on its row and audit rows, and prints it on its report', async () => {
    const me = await signedIn();
    const refused = await me.get('/api/tel?number=919876543210');
    expect(refused.statusCode).toBe(422);
    expect(refused.json().errors.case_reference[0]).toMatch(/state the legal basis of this search itself/);

    const ok = await me.get(telWith(ncrp));
    expect(ok.statusCode, ok.body).toBe(200);
    const lookupId = ok.json().lookup_id as string;
    const [row] = await t.db.select().from(lookups).where(eq(lookups.id, lookupId));
    expect(row!.caseReference).toBeNull();
    expect(row!.legalBasis).toEqual({
      kind: 'ncrp_complaint',
      number: 'acknowledgement 31201260012345',
      purpose: ncrp.purpose,
      fields: { acknowledgement_number: '31201260012345' },
    });
    const [audit] = await t.db
      .select({ details: auditEvents.details })
      .from(auditEvents)
      .where(and(eq(auditEvents.userId, me.user.id), eq(auditEvents.action, 'lookup.tel')));
    expect(audit!.details).toMatchObject({
      legal_basis: ncrpLine,
      legal_basis_kind: 'ncrp_complaint',
      legal_basis_stated: true,
    });

    const history = await me.get(`/api/history/${lookupId}`);
    expect(history.json().legal_basis).toMatchObject({ kind: 'ncrp_complaint', purpose: ncrp.purpose });

    const report = await me.post('/api/generate-report', {
      userInput: '9876543210',
      type: 'tel',
      results: ok.json(),
    });
    expect(report.statusCode, report.body.slice(0, 200)).toBe(200);
    const text = (await pdfText(report.rawPayload)).replace(/\s+/g, ' ');
    expect(text).toContain('Legal basis');
    expect(text).toContain('acknowledgement 31201260012345');
  });

  it('runs under a case that has no basis yet, filed under it', async () => {
    const me = await signedIn();
    const created = await me.post('/api/cases', { title: 'No basis yet', reference: 'BARE-2' });
    expect(created.statusCode).toBe(201);
    const without = await me.get('/api/tel?number=919876543210&case_reference=BARE-2');
    expect(without.statusCode).toBe(422);
    const withBasis = await me.get(telWith(ncrp, '&case_reference=BARE-2'));
    expect(withBasis.statusCode, withBasis.body).toBe(200);
    const one = (await me.get(`/api/cases/${created.json().id}`)).json();
    expect(one.items.map((i: { lookup_id: string }) => i.lookup_id)).toEqual([withBasis.json().lookup_id]);
  });

  it('refuses a basis that is not JSON, or whose facts do not check, before anything is charged', async () => {
    const me = await signedIn();
    const notJson = await me.get('/api/tel?number=919876543210&legal_basis=FIR%20214');
    expect(notJson.statusCode).toBe(422);
    expect(notJson.json().message).toBe(legalBasisMessages.json);
    const badFacts = await me.get(telWith({ ...ncrp, acknowledgement_number: '12' }));
    expect(badFacts.statusCode).toBe(422);
    expect(JSON.stringify(badFacts.json())).toContain(legalBasisMessages.acknowledgement);
    const badKind = await me.post('/api/leak-data-finder', {
      fields: [{ type: 'name', value: 'Fixture Person' }],
      legal_basis: { kind: 'warrant', number: '1', purpose: 'old kinds are kept, not given' },
    });
    expect(badKind.statusCode).toBe(422);
    expect(JSON.stringify(badKind.json())).toContain(legalBasisMessages.kind);
    expect(await balanceOf(me.user.id)).toBe(10);
    expect(await t.db.select().from(lookups).where(eq(lookups.userId, me.user.id))).toEqual([]);
  });

  it('is taken in the body of the detail, leak and intel searches', async () => {
    const me = await signedIn();
    const fir = {
      kind: 'fir',
      police_station: 'Kothrud',
      fir_number: '214',
      year: 2026,
      sections: ['BNS 318(4)'],
      purpose: 'Tracing a vehicle used in a cheating case',
    };
    const rc = await me.post('/api/rcfull-details', { id_number: 'MH12TM0001', legal_basis: fir });
    expect(rc.statusCode, rc.body).toBe(200);
    const leak = await me.post('/api/leak-data-finder', {
      fields: [{ type: 'name', value: 'Fixture Person' }],
      legal_basis: fir,
    });
    expect(leak.statusCode, leak.body).toBe(200);
    const intel = await me.post('/api/corporate-intelligence', {
      type: 'corporate_cin',
      data: { id_number: INTEL_DEMO.cin },
      legal_basis: fir,
    });
    expect(intel.statusCode, intel.body).toBe(200);
    const rows = await t.db
      .select({ kind: lookups.kind, basis: lookups.legalBasis })
      .from(lookups)
      .where(eq(lookups.userId, me.user.id));
    expect(rows.map((r) => r.kind).sort()).toEqual(['corporate:corporate_cin', 'leak', 'rc'].sort());
    for (const r of rows)
      expect(r.basis).toMatchObject({ kind: 'fir', number: '214/2026, Kothrud police station, BNS 318(4)' });
  });
});
