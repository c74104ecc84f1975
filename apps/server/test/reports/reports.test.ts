import { createHash } from 'node:crypto';
import { PHONE_SOURCES } from '@footprint/domain';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents, lookups, reports } from '../../src/db/schema.ts';
import { createTestApp, createUser, signIn, type TestApp } from '../support/app.ts';
import { pdfText } from '../support/pdf.ts';
import { sendJson, startFakeUpstream } from '../support/upstream.ts';

let t: TestApp;
let llm: Awaited<ReturnType<typeof startFakeUpstream>>;

beforeAll(async () => {
  llm = await startFakeUpstream((_req, res) =>
    sendJson(res, 200, {
      id: 'chatcmpl-1',
      object: 'chat.completion',
      model: 'fake-analyst-1',
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            content: 'The subject appears to be a synthetic persona. Narrative from the fake model.',
          },
        },
      ],
    }),
  );
  t = await createTestApp({ env: { RATE_LIMIT_ENABLED: 'false', REPORT_THREADS: '1' } });
});
afterAll(async () => {
  await t.close();
  await llm.close();
});

async function investigator(credits = 20) {
  const user = await createUser(t.db, { credits, appMode: 'live' });
  const { token } = await signIn(t, user.email, user.password);
  return { user, headers: { authorization: `Bearer ${token}` } };
}

const post = (url: string, body: unknown, headers: Record<string, string>) =>
  t.app.inject({ method: 'POST', url, payload: body as object, headers });

describe('phone and e-mail reports', () => {
  it('renders the stored lookup of the requesting user, with its ids, and stores its hash', async () => {
    const { user, headers } = await investigator();
    const lookup = await t.app.inject({ method: 'GET', url: '/api/tel?number=919876543210', headers });
    expect(lookup.statusCode).toBe(200);
    const results = lookup.json();
    // What the browser sends is never trusted: this injected name must not reach the PDF.
    const tampered = { ...results, wpData: { pushname: 'Injected Browser Name' } };

    const res = await post(
      '/api/generate-report',
      { userInput: '9876543210', type: 'tel', results: tampered },
      headers,
    );
    expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toBe('attachment; filename="report-9876543210.pdf"');
    const pdf = res.rawPayload;
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    const sha = createHash('sha256').update(pdf).digest('hex');
    expect(res.headers['x-report-sha256']).toBe(sha);
    const reportId = String(res.headers['x-report-id']);

    const text = await pdfText(pdf);
    expect(text).toContain(reportId);
    expect(text).toContain(results.lookup_id);
    expect(text).toContain('9876543210');
    expect(text).toContain(user.email);
    expect(text).not.toContain('Injected Browser Name');
    expect(text).toContain('Sandbox data — synthetic');

    const [row] = await t.db.select().from(reports).where(eq(reports.id, reportId));
    expect(row).toMatchObject({
      userId: user.id,
      lookupId: results.lookup_id,
      kind: 'lookup',
      sha256: sha,
      bytes: pdf.byteLength,
    });
    const audit = await t.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.userId, user.id), eq(auditEvents.action, 'report.lookup')));
    expect(audit).toEqual([expect.objectContaining({ outcome: 'success', target: reportId })]);

    // A holder of the file can check it.
    const ok = await t.app.inject({
      method: 'GET',
      url: `/api/reports/${reportId}/verify?sha256=${sha}`,
      headers,
    });
    expect(ok.json()).toMatchObject({
      report_id: reportId,
      valid: true,
      kind: 'lookup',
      generated_by: { email: user.email },
    });
    const altered = createHash('sha256')
      .update(Buffer.concat([pdf, Buffer.from(' ')]))
      .digest('hex');
    const bad = await t.app.inject({
      method: 'GET',
      url: `/api/reports/${reportId}/verify?sha256=${altered}`,
      headers,
    });
    expect(bad.json().valid).toBe(false);
    expect(
      (await t.app.inject({ method: 'GET', url: `/api/reports/${reportId}/verify?sha256=xyz`, headers }))
        .statusCode,
    ).toBe(422);
    expect(
      (
        await t.app.inject({
          method: 'GET',
          url: `/api/reports/00000000-0000-4000-8000-000000000000/verify?sha256=${sha}`,
          headers,
        })
      ).statusCode,
    ).toBe(404);
  });

  it('renders an e-mail report with its breaches from a cached lookup too', async () => {
    const { headers } = await investigator();
    await t.app.inject({ method: 'GET', url: '/api/email?email=rich.demo%40example.test', headers });
    const cached = (
      await t.app.inject({ method: 'GET', url: '/api/email?email=rich.demo%40example.test', headers })
    ).json();
    expect(cached.cached).toBe(true);
    const res = await post(
      '/api/generate-report',
      { userInput: 'rich.demo@example.test', type: 'email', results: cached },
      headers,
    );
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toBe(
      'attachment; filename="report-rich.demo@example.test.pdf"',
    );
    const text = await pdfText(res.rawPayload);
    const breach = cached.data.hibpData[0];
    expect(text).toContain(breach.Title ?? breach.Name);
    expect(text).toContain('rich.demo@example.test');
  });

  it('prints the stored source statuses, and marks the report sandbox only for synthetic values', async () => {
    const { headers } = await investigator();
    const lookup = (
      await t.app.inject({ method: 'GET', url: '/api/tel?number=919876543210', headers })
    ).json();
    const [row] = await t.db.select().from(lookups).where(eq(lookups.id, lookup.lookup_id));
    const stored = row!.result as { payloads: Record<string, unknown>; status: Record<string, unknown> };
    expect(Object.keys(stored.status).sort()).toEqual([...PHONE_SOURCES].sort());
    // As a deployment with live vendors would have stored it: one source without a vendor, one failed.
    const { telData: _, tcData: __, ...payloads } = stored.payloads;
    const status = {
      ...Object.fromEntries(PHONE_SOURCES.map((source) => [source, { status: 'ok', mode: 'live' }])),
      wpData: { status: 'ok', mode: 'live', vendor: 'Example Vendor' },
      tcData: { status: 'failed', mode: 'live', vendor: 'Twilio', message: 'Source failed to answer.' },
      telData: {
        status: 'not_configured',
        mode: 'not_configured',
        message: 'Not configured in this deployment.',
      },
    };
    await t.db
      .update(lookups)
      .set({ result: { payloads, errors: { tcData: 'Source failed to answer.' }, status } })
      .where(eq(lookups.id, lookup.lookup_id));

    const report = (hint: string) =>
      post(
        '/api/generate-report',
        { userInput: '9876543210', type: 'tel', results: { lookup_id: hint } },
        headers,
      );
    const text = await pdfText((await report(lookup.lookup_id)).rawPayload);
    const summary = '9 of 11 sources answered · 1 failed · 1 not configured';
    expect(text).toContain(summary);
    const lines = text.split('\n');
    const line = (...parts: string[]) => lines.find((l) => parts.every((part) => l.includes(part)));
    expect(line('Caller ID', 'Failed', 'Live: Twilio')).toBeDefined();
    expect(line('Telegram', 'Not configured', 'No vendor configured')).toBeDefined();
    expect(line('WhatsApp', 'Answered', 'Live: Example Vendor')).toBeDefined();
    // Every value shown came from a live source: no sandbox marking, though the row says sandbox.
    expect(row!.sandbox).toBe(true);
    expect(text).not.toContain('Sandbox data — synthetic');

    // A lookup stored before statuses were kept: rebuilt from its payloads and errors, and said so.
    await t.db
      .update(lookups)
      .set({ result: { payloads, errors: { tcData: 'Source failed to answer.' } } })
      .where(eq(lookups.id, lookup.lookup_id));
    const old = await pdfText((await report(lookup.lookup_id)).rawPayload);
    expect(old).toContain('9 of 10 sources answered · 1 failed');
    expect(old).toContain('This lookup was stored before per-source status was recorded');
    expect(
      old.split('\n').find((l) => l.includes('Caller ID') && l.includes('Sandbox (synthetic data)')),
    ).toBeDefined();
    expect(old).toContain('Sandbox data — synthetic');
  });

  it('prints a highlight whose source never answered as not known, never as "No"', async () => {
    const { headers } = await investigator();
    const lookup = (
      await t.app.inject({ method: 'GET', url: '/api/tel?number=919876543210', headers })
    ).json();
    const [row] = await t.db.select().from(lookups).where(eq(lookups.id, lookup.lookup_id));
    const stored = row!.result as { payloads: Record<string, unknown> };
    // No social, messaging or ISP vendor in this deployment: only the government sources answered.
    const { smData: _s, wpData: _w, hlrData: _h, ...payloads } = stored.payloads;
    await t.db
      .update(lookups)
      .set({ result: { payloads, errors: {} } })
      .where(eq(lookups.id, lookup.lookup_id));
    const res = await post(
      '/api/generate-report',
      { userInput: '9876543210', type: 'tel', results: { lookup_id: lookup.lookup_id } },
      headers,
    );
    const text = await pdfText(res.rawPayload);
    const highlights = text.slice(text.indexOf('Phone highlights'), text.indexOf('Profile summary'));
    expect(highlights).toContain('Not known');
    expect(highlights).toContain('Its source did not answer');
    expect(highlights).toContain('The ISP source did not');
    expect(highlights).toContain('Facebook: Not known');
    expect(highlights).not.toMatch(/\bNo\b(?! ISP| profile)/);
    expect(highlights).not.toContain('Inactive');
  });

  it('refuses another user’s lookup, a type that does not match and bad input, writing only the audit row', async () => {
    const owner = await investigator();
    const results = (
      await t.app.inject({ method: 'GET', url: '/api/tel?number=919123456780', headers: owner.headers })
    ).json();
    const intruder = await investigator();
    const before = (await t.db.select().from(reports)).length;

    const foreign = await post(
      '/api/generate-report',
      { userInput: '9123456780', type: 'tel', results },
      intruder.headers,
    );
    expect(foreign.statusCode).toBe(404);
    expect(foreign.headers['content-type']).toMatch(/application\/json/);
    expect(foreign.json().message).toMatch(/No stored lookup/);
    const mismatch = await post(
      '/api/generate-report',
      { userInput: '9123456780', type: 'email', results },
      owner.headers,
    );
    expect(mismatch.statusCode).toBe(404);
    for (const body of [
      { userInput: 'x'.repeat(101), type: 'tel' },
      { userInput: '9123456780', type: 'fax' },
      { userInput: '', type: 'tel' },
      { userInput: '9123456780', type: 'tel', extra: true },
    ]) {
      const res = await post('/api/generate-ai-report', body, owner.headers);
      expect(res.statusCode, JSON.stringify(body).slice(0, 60)).toBe(422);
      expect(typeof res.json().message).toBe('string');
    }
    expect((await t.db.select().from(reports)).length).toBe(before);
    const failures = await t.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.userId, intruder.user.id), eq(auditEvents.outcome, 'failure')));
    expect(failures).toHaveLength(1);
    expect(
      (await post('/api/generate-report', { userInput: '9123456780', type: 'tel' }, {})).statusCode,
    ).toBe(401);
  });
});

describe('AI report', () => {
  it('says the deterministic writer wrote it when no LLM is configured', async () => {
    const { headers } = await investigator();
    const results = (
      await t.app.inject({ method: 'GET', url: '/api/tel?number=919876543210', headers })
    ).json();
    const res = await post(
      '/api/generate-ai-report',
      { userInput: '9876543210', type: 'tel', results },
      headers,
    );
    expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
    expect(res.headers['content-disposition']).toBe(
      'attachment; filename="ai-generated-report-9876543210.pdf"',
    );
    const text = await pdfText(res.rawPayload);
    expect(text).toMatch(/deterministic writer/i);
    expect(text).toMatch(/next steps/i);
  });

  it('uses the configured OpenAI-compatible endpoint and names the model', async () => {
    const withLlm = await createTestApp({
      env: {
        RATE_LIMIT_ENABLED: 'false',
        REPORT_THREADS: '1',
        LLM_BASE_URL: `${llm.url}/v1`,
        LLM_API_KEY: 'llm-key',
        LLM_MODEL: 'fake-analyst-1',
      },
    });
    try {
      const user = await createUser(withLlm.db, { credits: 5 });
      const { token } = await signIn(withLlm, user.email, user.password);
      const headers = { authorization: `Bearer ${token}` };
      const results = (
        await withLlm.app.inject({ method: 'GET', url: '/api/email?email=rich.demo%40example.test', headers })
      ).json();
      const before = llm.requests.length;
      const res = await withLlm.app.inject({
        method: 'POST',
        url: '/api/generate-ai-report',
        payload: { userInput: 'rich.demo@example.test', type: 'email', results },
        headers,
      });
      expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
      const call = llm.requests[before]!;
      expect(call.url).toBe('/v1/chat/completions');
      expect(call.headers.authorization).toBe('Bearer llm-key');
      const text = await pdfText(res.rawPayload);
      expect(text).toContain('Narrative from the fake model.');
      expect(text).toContain('fake-analyst-1');
    } finally {
      await withLlm.close();
    }
    // A second server of its own is started inside the test: give it the hook's time, not a test's.
  }, 60_000);
});

describe('detail reports', () => {
  it('renders the stored RC lookup, hiding empty values and the vendor client id', async () => {
    const { headers } = await investigator();
    const rc = (await post('/api/rcfull-details', { id_number: 'MH12FP1234' }, headers)).json();
    const res = await post('/api/generate-rc-report', { data: rc.data.data }, headers);
    expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
    expect(res.headers['content-disposition']).toBe('attachment; filename="rc-details-MH12FP1234.pdf"');
    const text = await pdfText(res.rawPayload);
    expect(text).toContain('MH12FP1234');
    expect(text).toContain(rc.data.data.owner_name);
    expect(text.toLowerCase()).not.toContain('client id');
    expect(text).not.toContain(rc.data.data.client_id);

    const unknown = await post(
      '/api/generate-upi-report',
      { data: { upi_id: 'never-looked-up@ybl' } },
      headers,
    );
    expect(unknown.statusCode).toBe(404);
    const nameless = await post('/api/generate-challan-report', { data: {} }, headers);
    expect(nameless.statusCode).toBe(422);
  });
});

describe('a full report queue', () => {
  it('answers 503 with Retry-After, draws and stores nothing for the refused request, and audits it', async () => {
    // One render thread and no waiting room: a report asked for while another is drawn is refused.
    const busy = await createTestApp({
      env: { RATE_LIMIT_ENABLED: 'false', REPORT_THREADS: '1', REPORT_QUEUE: '0' },
    });
    try {
      const user = await createUser(busy.db, { credits: 5, appMode: 'live' });
      const { token } = await signIn(busy, user.email, user.password);
      const headers = { authorization: `Bearer ${token}` };
      const lookup = await busy.app.inject({ method: 'GET', url: '/api/tel?number=919876543210', headers });
      expect(lookup.statusCode).toBe(200);
      const answers = await Promise.all(
        Array.from({ length: 4 }, () =>
          busy.app.inject({
            method: 'POST',
            url: '/api/generate-report',
            payload: { userInput: '9876543210', type: 'tel', results: lookup.json() },
            headers,
          }),
        ),
      );
      const drawn = answers.filter((res) => res.statusCode === 200);
      const refused = answers.filter((res) => res.statusCode === 503);
      expect(drawn.length + refused.length, answers.map((res) => res.statusCode).join()).toBe(4);
      expect(drawn.length).toBeGreaterThanOrEqual(1);
      expect(refused.length).toBeGreaterThanOrEqual(1);
      for (const res of refused) {
        expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
        expect(res.json()).toMatchObject({ message: expect.stringMatching(/^Reports are busy right now/) });
      }
      const stored = await busy.db.select().from(reports).where(eq(reports.userId, user.id));
      expect(stored).toHaveLength(drawn.length);
      const failures = await busy.db
        .select()
        .from(auditEvents)
        .where(and(eq(auditEvents.userId, user.id), eq(auditEvents.action, 'report.lookup')));
      expect(failures.filter((row) => row.outcome === 'failure')).toHaveLength(refused.length);
    } finally {
      await busy.close();
    }
  });
});
