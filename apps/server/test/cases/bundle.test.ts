// A case's timeline and its evidence bundle: the ZIP unzipped here, every file checked against its
// manifest, the PDFs read back with pdftotext, the audit extract, and the ZIP's own hash verified like
// a report. Streaming: the first bytes come before the last report is drawn, and a client that goes
// away leaves nothing registered.
import { createHash } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CAPTURE_KEY_FILE, CASE_EXPORT_FORMATS } from '@footprint/domain';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lookups, reports } from '../../src/db/schema.ts';
import { caseExportFileName } from '../../src/modules/cases/exports/service.ts';
import { purgeExpiredResults } from '../../src/modules/lookup/retention.ts';
import { createTestApp, createUser, json, newDeviceId, signIn, type TestApp } from '../support/app.ts';
import { addLeakRecords } from '../support/leaks.ts';
import { pdfText } from '../support/pdf.ts';
import { fileRichCase } from '../support/rich-case.ts';
import { unzip } from '../support/zip.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ env: { RATE_LIMIT_ENABLED: 'false', LOOKUP_PURGE_INTERVAL_MINUTES: '0' } });
  await addLeakRecords(t.db, { name: 'Orbitly 2019', breachDate: '2019-03-14' }, [
    { name: 'Rohan Deshmukh', email: 'rich.demo@example.test', phone: '9876543210' },
  ]);
});
afterAll(() => t.close());

async function signedIn(options: Parameters<typeof createUser>[1] = {}) {
  const deviceId = newDeviceId();
  const user = await createUser(t.db, { appMode: 'live', trustedDevice: deviceId, credits: 50, ...options });
  const { token } = await signIn(t, user.email, user.password, deviceId);
  const headers = { authorization: `Bearer ${token}`, 'x-device-id': deviceId };
  return {
    user,
    headers,
    get: (url: string) => t.app.inject({ method: 'GET', url, headers }),
    post: (url: string, body: unknown) =>
      t.app.inject({ method: 'POST', url, ...json(body, deviceId, token) }),
  };
}
type Client = Awaited<ReturnType<typeof signedIn>>;

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

interface Manifest {
  format: number;
  generator: string;
  case: { id: string; reference: string };
  files: Array<{ path: string; sha256: string; bytes: number; generated_at: string; report_id?: string }>;
  items: Array<{
    lookup_id: string;
    kind: string;
    status: string;
    result: string | null;
    report: string | null;
    report_note?: string;
  }>;
}

/** The rich case without its username search (phone, e-mail, leak and a note). */
async function richCase(me: Client, reference: string) {
  return { id: await fileRichCase(me, reference, { username: false }), reference };
}

/** The files of the three-search case (phone, e-mail, leak), in the case's order, ids left out. */
const CASE_ORDER = [
  'case-summary.pdf',
  'reports/001-tel.pdf',
  'results/001-tel.json',
  'reports/002-email.pdf',
  'results/002-email.json',
  'results/003-leak.json',
  'audit.csv',
];
/**
 * The files of the three-search case filed as `reference`: CASE_ORDER, the case in every export format,
 * then the capture key (in every bundle, with or without captures; test/cases/captures.test.ts has some).
 */
const caseOrder = (reference: string) => [
  ...CASE_ORDER,
  ...CASE_EXPORT_FORMATS.map((format) => `exports/${caseExportFileName({ reference }, format)}`),
  CAPTURE_KEY_FILE,
];

describe('the timeline of GET /api/cases/{id}', () => {
  it('holds the searches and the dated facts of their results, oldest first', async () => {
    const me = await signedIn({ name: 'Asha Rao' });
    const c = await richCase(me, 'TL-1');
    const detail = (await me.get(`/api/cases/${c.id}`)).json();
    const timeline = detail.timeline as Array<{
      at: string;
      label: string;
      source: string;
      lookup_id: string;
    }>;
    const [tel, email, leak] = detail.items as Array<{ lookup_id: string; created_at: string }>;
    expect(timeline).toEqual(
      expect.arrayContaining([
        {
          at: new Date(tel!.created_at).toISOString(),
          label: 'Phone lookup of +91 98765 43210 by Asha Rao',
          source: 'Footprint',
          lookup_id: tel!.lookup_id,
        },
        {
          at: new Date(email!.created_at).toISOString(),
          label: 'E-mail lookup of rich.demo@example.test by Asha Rao',
          source: 'Footprint',
          lookup_id: email!.lookup_id,
        },
        {
          at: '2024-04-18',
          label: 'Breach of Cricket Khel',
          source: 'Breach Data',
          lookup_id: email!.lookup_id,
        },
        {
          at: '2019-03-14',
          label: 'Breach of Orbitly 2019',
          source: 'Orbitly 2019',
          lookup_id: leak!.lookup_id,
        },
        {
          at: '2019-06-11',
          label: 'Reported date — HOUSE NO 42 LANE 7 KOTHRUD PUNE',
          source: 'Gov identity records',
          lookup_id: tel!.lookup_id,
        },
      ]),
    );
    expect(timeline.find((e) => e.label === 'Last updated' && e.source === 'ISP Response')).toBeDefined();
    // Oldest first; no date of birth (not an event).
    const dates = timeline.map((e) => e.at);
    expect(dates).toEqual([...dates].sort());
    expect(timeline.some((e) => e.at.startsWith('1990-04-17'))).toBe(false);
    expect(timeline.filter((e) => e.source === 'Footprint')).toHaveLength(3);
  });
});

describe('GET /api/cases/{id}/bundle', () => {
  it('streams a ZIP whose manifest matches its files, with the reports, results, audit rows and summary', async () => {
    const me = await signedIn({ name: 'Asha Rao' });
    const c = await richCase(me, 'FIR 214/2026');
    const res = await me.get(`/api/cases/${c.id}/bundle`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('application/zip');
    expect(res.headers['content-disposition']).toMatch(
      /^attachment; filename="case-fir-214-2026-\d{4}-\d{2}-\d{2}\.zip"$/,
    );
    const zip = res.rawPayload;
    const entries = await unzip(zip);
    const manifest = JSON.parse(entries.get('manifest.json')!.toString('utf8')) as Manifest;
    expect(manifest).toMatchObject({ format: 1, case: { id: c.id, reference: 'FIR 214/2026' } });
    expect(manifest.generator).toMatch(/^Footprint \d+\.\d+\.\d+/);

    // Every file listed is there with its hash and size, and nothing else is.
    expect([...entries.keys()].sort()).toEqual(
      [...manifest.files.map((f) => f.path), 'manifest.json'].sort(),
    );
    for (const file of manifest.files) {
      const data = entries.get(file.path)!;
      expect({ path: file.path, sha256: sha256(data), bytes: data.byteLength }).toEqual({
        path: file.path,
        sha256: file.sha256,
        bytes: file.bytes,
      });
      expect(Number.isNaN(Date.parse(file.generated_at))).toBe(false);
    }

    // In the case's order, though the summary and the reports are drawn ahead concurrently: the ZIP's
    // entries as the manifest lists them, each search's report before its result, the manifest last.
    expect([...entries.keys()]).toEqual([...manifest.files.map((f) => f.path), 'manifest.json']);
    expect(manifest.files.map((f) => f.path.replace(/-[0-9a-f-]{36}/, ''))).toEqual(caseOrder(c.reference));

    // The searches: reports for the phone and e-mail lookups, JSON only for the leak search.
    expect(manifest.items.map((i) => [i.kind, i.status])).toEqual([
      ['tel', 'included'],
      ['email', 'included'],
      ['leak', 'included'],
    ]);
    const [tel, email, leak] = manifest.items;
    expect(tel!.report).toMatch(/^reports\/001-tel-[0-9a-f-]{36}\.pdf$/);
    expect(email!.report).toMatch(/^reports\/002-email-[0-9a-f-]{36}\.pdf$/);
    expect(leak).toMatchObject({ report: null, result: expect.stringMatching(/^results\/003-leak-/) });
    expect(leak!.report_note).toMatch(/No PDF report exists for this kind of search/);
    const leakResult = JSON.parse(entries.get(leak!.result!)!.toString('utf8'));
    expect(leakResult.data[0].source).toMatchObject({ name: 'Orbitly 2019', breach_date: '2019-03-14' });
    const [stored] = await t.db
      .select({ result: lookups.result })
      .from(lookups)
      .where(eq(lookups.id, tel!.lookup_id));
    expect(JSON.parse(entries.get(tel!.result!)!.toString('utf8'))).toEqual(stored!.result);

    // The PDFs have text: the summary with the legal basis line and the notes, the lookup reports.
    const summary = await pdfText(entries.get('case-summary.pdf')!);
    expect(summary).toContain(
      'Legal basis: FIR 214/2026, Kothrud police station, BNS 308(2): tracing the caller',
    );
    expect(summary).toContain('Caller used the number twice on 3 March.');
    expect(summary).toContain('Asked the operator for the CDR.');
    expect(summary).toMatch(/Breach of Cricket Khel/);
    expect(summary).toMatch(/Phone lookup of \+91 98765 43210 by Asha Rao/);
    expect(summary).toContain('rich.demo@example.test');
    const telReport = await pdfText(entries.get(tel!.report!)!);
    expect(telReport).toContain('+91 9876543210');
    expect(telReport).toContain(tel!.lookup_id);
    expect(await pdfText(entries.get(email!.report!)!)).toContain('rich.demo@example.test');

    // Each PDF is a registered report: its id verifies with its hash.
    for (const file of manifest.files.filter((f) => f.report_id)) {
      const check = await me.get(`/api/reports/${file.report_id}/verify?sha256=${file.sha256}`);
      expect(check.json(), file.path).toMatchObject({ valid: true });
    }

    // The audit extract: the case's searches and actions, with the case id.
    const csv = entries.get('audit.csv')!.toString('utf8');
    const lines = csv.trim().split('\r\n');
    expect(lines[0]).toMatch(/^id,at,user_id,actor_email,/);
    for (const action of ['lookup.tel', 'lookup.email', 'case.create', 'case.note.add']) {
      expect(
        lines.some((line) => line.includes(`,${action},`)),
        action,
      ).toBe(true);
    }
    expect(lines.some((line) => line.includes('lookup.leak') || line.includes('leak.search'))).toBe(true);
    expect(lines.slice(1).every((line) => line.includes(c.id))).toBe(true);

    // The ZIP's own hash verifies like a report's, and its download is audited with it.
    const verified = await t.app.inject({
      method: 'POST',
      url: '/api/verify',
      payload: { sha256: sha256(zip) },
    });
    expect(verified.json()).toMatchObject({ valid: true });
    const [row] = await t.db
      .select()
      .from(reports)
      .where(eq(reports.sha256, sha256(zip)));
    expect(row).toMatchObject({ kind: 'case_bundle', userId: me.user.id, bytes: zip.byteLength });
    const audit = await t.db.execute(
      sql`select details from audit_events where action = 'case.bundle' and target = ${c.id}`,
    );
    const auditRows = (audit as unknown as { rows: Array<{ details: Record<string, unknown> }> }).rows;
    expect(auditRows).toHaveLength(1);
    expect(auditRows[0]!.details).toMatchObject({
      case_id: c.id,
      sha256: sha256(zip),
      legal_basis:
        'FIR 214/2026, Kothrud police station, BNS 308(2): tracing the caller of the extortion complaint',
      report_ids: manifest.files.flatMap((f) => (f.report_id ? [f.report_id] : [])),
    });
    expect(auditRows[0]!.details.report_ids).toHaveLength(3);
  });

  it("answers another user's case 404, as if it did not exist, and registers nothing", async () => {
    const owner = await signedIn();
    const c = await richCase(owner, 'PRIV-1');
    const stranger = await signedIn();
    const before = await t.db
      .select({ id: reports.id })
      .from(reports)
      .where(eq(reports.userId, stranger.user.id));
    for (const url of [
      `/api/cases/${c.id}/bundle`,
      '/api/cases/not-a-uuid/bundle',
      `/api/cases/${crypto.randomUUID()}/bundle`,
    ]) {
      const res = await stranger.get(url);
      expect(res.statusCode, url).toBe(404);
      expect(res.json().message).toEqual(expect.any(String));
    }
    const after = await t.db
      .select({ id: reports.id })
      .from(reports)
      .where(eq(reports.userId, stranger.user.id));
    expect(after).toEqual(before);
  });

  it('lists a purged result as purged, with no files', async () => {
    const me = await signedIn();
    const c = await richCase(me, 'PURGED-1');
    const [email] = await t.db
      .select({ id: lookups.id })
      .from(lookups)
      .where(and(eq(lookups.userId, me.user.id), eq(lookups.kind, 'email')));
    await t.db.execute(
      sql`update lookups set created_at = now() - interval '400 days' where id = ${email!.id}`,
    );
    await purgeExpiredResults(
      t.db,
      { registrationMode: 'open', lookupRetentionDays: 30 },
      { retentionDays: 30 },
    );
    const res = await me.get(`/api/cases/${c.id}/bundle`);
    expect(res.statusCode).toBe(200);
    const entries = await unzip(res.rawPayload);
    const manifest = JSON.parse(entries.get('manifest.json')!.toString('utf8')) as Manifest;
    const purged = manifest.items.find((i) => i.lookup_id === email!.id);
    expect(purged).toMatchObject({ kind: 'email', status: 'purged', result: null, report: null });
    expect([...entries.keys()].some((name) => name.includes(email!.id))).toBe(false);
    expect(manifest.items.filter((i) => i.status === 'included')).toHaveLength(2);
  });
});

describe('streaming', () => {
  /** A case of `n` searches: one paid phone lookup and its free repeats, each its own search. */
  async function bigCase(me: Client, reference: string, n: number) {
    const ref = encodeURIComponent(reference);
    for (let i = 0; i < n; i++) {
      expect((await me.get(`/api/tel?number=919876543210&case_reference=${ref}`)).statusCode).toBe(200);
    }
    const [c] = (await me.get('/api/cases'))
      .json()
      .data.filter((x: { reference: string }) => x.reference === reference);
    return c as { id: string };
  }

  const reportsOf = async (userId: string) =>
    (await t.db.select({ kind: reports.kind }).from(reports).where(eq(reports.userId, userId))).filter(
      (r) => r.kind === 'lookup',
    ).length;

  it('sends the first bytes before the last report is drawn, and a client that leaves registers nothing', async () => {
    const me = await signedIn();
    const n = 12;
    const c = await bigCase(me, 'STREAM-1', n);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as AddressInfo;
    const get = () =>
      new Promise<import('node:http').IncomingMessage>((resolve, reject) => {
        const req = httpRequest({
          host: '127.0.0.1',
          port,
          path: `/api/cases/${c.id}/bundle`,
          headers: me.headers,
        });
        req.on('response', resolve);
        req.on('error', reject);
        req.end();
      });

    // The whole bundle, noting how many reports were drawn when its first bytes arrived.
    const whole = await get();
    expect(whole.statusCode).toBe(200);
    let drawnAtFirstByte = -1;
    const chunks: Buffer[] = [];
    for await (const chunk of whole) {
      if (drawnAtFirstByte < 0) drawnAtFirstByte = await reportsOf(me.user.id);
      chunks.push(chunk as Buffer);
    }
    expect(drawnAtFirstByte).toBeGreaterThanOrEqual(0);
    expect(drawnAtFirstByte).toBeLessThan(n);
    expect(await reportsOf(me.user.id)).toBe(n);
    const entries = await unzip(Buffer.concat(chunks));
    expect([...entries.keys()].filter((name) => name.startsWith('reports/'))).toHaveLength(n);
    // Drawn up to BUNDLE_DRAW_AHEAD at once, added in the case's order: each report, then its result.
    const searches = [...entries.keys()].filter((name) => /^(reports|results)\//.test(name));
    expect(searches.map((name) => name.replace(/-tel-[0-9a-f-]{36}/, ''))).toEqual(
      Array.from({ length: n }, (_, i) => String(i + 1).padStart(3, '0')).flatMap((k) => [
        `reports/${k}.pdf`,
        `results/${k}.json`,
      ]),
    );

    // A client that goes away after the first bytes: nothing half-made is registered, the server goes on.
    const bundlesBefore = await t.db
      .select({ id: reports.id })
      .from(reports)
      .where(eq(reports.kind, 'case_bundle'));
    const left = await get();
    await new Promise<void>((resolve) => left.once('data', () => resolve()));
    left.destroy();
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const bundlesAfter = await t.db
      .select({ id: reports.id })
      .from(reports)
      .where(eq(reports.kind, 'case_bundle'));
    expect(bundlesAfter).toHaveLength(bundlesBefore.length);
    expect((await t.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
    expect((await me.get(`/api/cases/${c.id}`)).statusCode).toBe(200);
  }, 120_000);
});

describe('drawn ahead, added in order', () => {
  it("keeps the case's order in the ZIP, the manifest and the audit row when later reports finish first", async () => {
    // The e-mail report is handed back first, then the phone's, then the summary (each held until the
    // one before is back, at most 5 s: drawn one after the other, the order would not be this).
    const finished: string[] = [];
    const gate = () => {
      let open = () => {};
      const opened = new Promise<void>((resolve) => {
        open = resolve;
      });
      const wait = () => Promise.race([opened, new Promise<void>((resolve) => setTimeout(resolve, 5000))]);
      return { open, wait };
    };
    const emailBack = gate();
    const telBack = gate();
    const slow = await createTestApp({
      env: { RATE_LIMIT_ENABLED: 'false', LOOKUP_PURGE_INTERVAL_MINUTES: '0' },
      wrapReportPool: (pool) => ({
        ...pool,
        async render(task) {
          const pdf = await pool.render(task);
          const name = task.template === 'case' ? 'summary' : 'kind' in task ? task.kind : task.template;
          if (name === 'tel') await emailBack.wait();
          if (name === 'summary') await telBack.wait();
          finished.push(name);
          if (name === 'email') emailBack.open();
          if (name === 'tel') telBack.open();
          return pdf;
        },
      }),
    });
    await addLeakRecords(slow.db, { name: 'Orbitly 2019', breachDate: '2019-03-14' }, [
      { name: 'Rohan Deshmukh', email: 'rich.demo@example.test', phone: '9876543210' },
    ]);
    const original = t;
    try {
      t = slow;
      const me = await signedIn({ name: 'Asha Rao' });
      const c = await richCase(me, 'ORDER-1');
      const res = await me.get(`/api/cases/${c.id}/bundle`);
      expect(res.statusCode, res.body).toBe(200);
      expect(finished).toEqual(['email', 'tel', 'summary']);
      const entries = await unzip(res.rawPayload);
      const manifest = JSON.parse(entries.get('manifest.json')!.toString('utf8')) as Manifest;
      expect([...entries.keys()].map((name) => name.replace(/-[0-9a-f-]{36}/, ''))).toEqual([
        ...caseOrder('ORDER-1'),
        'manifest.json',
      ]);
      expect(manifest.files.map((f) => f.path)).toEqual([...entries.keys()].slice(0, -1));
      expect(manifest.items.map((i) => i.kind)).toEqual(['tel', 'email', 'leak']);
      for (const file of manifest.files) expect(sha256(entries.get(file.path)!), file.path).toBe(file.sha256);
      // The summary's PDF is the summary, the phone report the phone's.
      expect(await pdfText(entries.get('case-summary.pdf')!)).toContain('ORDER-1');
      expect(await pdfText(entries.get(manifest.items[0]!.report!)!)).toContain('+91 9876543210');
      const audit = await t.db.execute(
        sql`select details from audit_events where action = 'case.bundle' and target = ${c.id}`,
      );
      const [row] = (audit as unknown as { rows: Array<{ details: { report_ids: string[] } }> }).rows;
      expect(row!.details.report_ids).toEqual(
        manifest.files.flatMap((f) => (f.report_id ? [f.report_id] : [])),
      );
    } finally {
      t = original;
      await slow.close();
    }
  }, 60_000);
});
