// The username report (POST /api/generate-report with type 'username') and the username lookup's
// exports: the sites found with their evidence (SHA-256, title, final URL, status), the sites that could
// not say with their reasons, the counts, the cover's case reference; a name found nowhere says so.
import { writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createUser, json, newDeviceId, signIn, type TestApp } from '../support/app.ts';
import { pdfText } from '../support/pdf.ts';
import { unzip } from '../support/zip.ts';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ env: { RATE_LIMIT_ENABLED: 'false' } });
});
afterAll(() => t.close());

interface Site {
  site: string;
  name: string;
  state: string;
  url: string;
  reason?: string;
  evidence?: { final_url: string; status: number; title: string; sha256: string; bytes: number };
}

async function investigator() {
  const deviceId = newDeviceId();
  const user = await createUser(t.db, { credits: 20, appMode: 'live', trustedDevice: deviceId });
  const { token } = await signIn(t, user.email, user.password, deviceId);
  const headers = { authorization: `Bearer ${token}`, 'x-device-id': deviceId };
  return {
    user,
    get: (url: string) => t.app.inject({ method: 'GET', url, headers }),
    post: (url: string, body: unknown) =>
      t.app.inject({ method: 'POST', url, ...json(body, deviceId, token) }),
  };
}

/** The text of a PDF with the layout's runs of space folded, so a wrapped value reads on one line. */
const folded = (value: string) => value.replace(/\s+/g, ' ');

describe('POST /api/generate-report, type username', () => {
  it('prints the found sites with their evidence, the blocked ones with reasons, the counts and the case reference', async () => {
    const client = await investigator();
    const lookup = await client.get('/api/username?username=rohand90&case_reference=CASE-UR-1');
    expect(lookup.statusCode, lookup.body).toBe(200);
    const answer = lookup.json().sitesData as {
      counts: Record<string, number>;
      catalogue: { sites: number; scope: number };
      sites: Site[];
    };

    const res = await client.post('/api/generate-report', { type: 'username', userInput: '@rohand90' });
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(String(res.headers['content-disposition'])).toContain('username-report-rohand90.pdf');
    if (process.env.USERNAME_REPORT_OUT) writeFileSync(process.env.USERNAME_REPORT_OUT, res.rawPayload);
    const text = await pdfText(res.rawPayload);
    const flat = folded(text);
    expect(flat).toContain('Username Report');
    expect(flat).toContain('rohand90');
    expect(flat).toContain('CASE-UR-1');
    expect(flat).toContain('Sandbox data — synthetic');
    const checked = answer.catalogue.scope - (answer.counts.not_checked ?? 0);
    expect(flat).toContain(
      `${checked.toLocaleString('en-US')} of ${answer.catalogue.sites.toLocaleString('en-US')} catalogue sites checked`,
    );
    expect(flat).toContain(`Accounts found ${answer.counts.found} sites`);

    const found = answer.sites.filter((site) => site.state === 'found');
    expect(found.length).toBeGreaterThan(20);
    for (const site of found) {
      const sha = site.evidence!.sha256;
      // The full hash, in two lines of 32 hex digits.
      expect(text, site.site).toContain(sha.slice(0, 32));
      expect(text, site.site).toContain(sha.slice(32));
      if (site.evidence!.title) expect(flat, site.site).toContain(site.evidence!.title.slice(0, 12));
    }
    const blocked = answer.sites.filter((site) => site.state === 'blocked');
    expect(blocked.length).toBeGreaterThan(0);
    expect(flat).toContain('Sites that could not say');
    for (const site of blocked.slice(0, 5)) {
      expect(flat, site.site).toContain(site.name.slice(0, 10));
      expect(flat, site.site).toContain(site.reason!.slice(0, 10));
    }
    expect(flat).toContain('Method');
    expect(flat).toContain('say nothing either way');
  });

  it('finds the lookup by its id, and a name found nowhere says so', async () => {
    const client = await investigator();
    const lookup = await client.get('/api/username?username=nobody.demo');
    expect(lookup.statusCode, lookup.body).toBe(200);
    const res = await client.post('/api/generate-report', {
      type: 'username',
      userInput: 'nobody.demo',
      results: { lookup_id: lookup.json().lookup_id },
    });
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    const flat = folded(await pdfText(res.rawPayload));
    expect(flat).toContain('Found nowhere.');
    expect(flat).toMatch(/No account found: [\d,]+ of the [\d,]+ sites asked said there is none/);
    expect(flat).not.toContain('Accounts found');
    expect(flat).toContain('None recorded');
  });

  it('a name the sites mostly would not answer lists every blocked site by name with its reason', async () => {
    const client = await investigator();
    const lookup = await client.get('/api/username?username=blocked.demo');
    expect(lookup.statusCode, lookup.body).toBe(200);
    const answer = lookup.json().sitesData as { counts: Record<string, number>; sites: Site[] };
    const res = await client.post('/api/generate-report', { type: 'username', userInput: 'blocked.demo' });
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    const flat = folded(await pdfText(res.rawPayload));
    const blocked = answer.sites.filter((site) => site.state === 'blocked');
    expect(blocked.length).toBeGreaterThan(20);
    expect(flat).toContain(`Blocked ${blocked.length} sites`);
    for (const site of blocked) expect(flat, site.site).toContain(site.name.slice(0, 10));
  });

  it('answers 404 for a name the user never looked up, and the AI report refuses username with 422', async () => {
    const client = await investigator();
    const missing = await client.post('/api/generate-report', { type: 'username', userInput: 'never.asked' });
    expect(missing.statusCode, missing.body).toBe(404);
    await client.get('/api/username?username=rohand90');
    const ai = await client.post('/api/generate-ai-report', { type: 'username', userInput: 'rohand90' });
    expect(ai.statusCode, ai.body).toBe(422);
    expect(ai.json().message).toBe('The type field must be tel or email.');
  });
});

describe('GET /api/history/{id}/export of a username lookup', () => {
  it('holds one row per site found, blocked, failed or not checked, with its evidence or reason', async () => {
    const client = await investigator();
    const lookup = await client.get('/api/username?username=rohand90&case_reference=CASE-UR-2');
    const id = lookup.json().lookup_id as string;
    const answer = lookup.json().sitesData as { counts: Record<string, number>; sites: Site[] };
    const listed = answer.sites.length;
    const { found: f = 0, blocked: b = 0, error: e = 0, not_checked: n = 0 } = answer.counts;
    expect(listed).toBe(f + b + e + n);

    const csv = await client.get(`/api/history/${id}/export?format=csv`);
    expect(csv.statusCode, csv.body.slice(0, 300)).toBe(200);
    const lines = csv.body.split('\r\n');
    expect(lines).toContain(`# sites_found,${answer.counts.found}`);
    expect(lines).toContain(`# sites_not_found,${answer.counts.not_found}`);
    expect(lines).toContain('# case_reference,CASE-UR-2');
    const headerAt = lines.indexOf(
      'site,site_id,category,state,profile_url,final_url,http_status,title,checked_at,sha256,bytes,reason',
    );
    expect(headerAt).toBeGreaterThan(0);
    const rows = lines.slice(headerAt + 1).filter(Boolean);
    expect(rows).toHaveLength(listed);
    const found = answer.sites.find((site) => site.state === 'found')!;
    const foundLine = rows.find((row) => row.includes(found.evidence!.sha256));
    expect(foundLine).toContain(`,found,${found.url},${found.evidence!.final_url},200,`);
    const blocked = answer.sites.find((site) => site.state === 'blocked')!;
    expect(rows.find((row) => row.includes(`,${blocked.site},`))).toContain(',blocked,');

    const file = await client.get(`/api/history/${id}/export?format=json`);
    expect(file.statusCode).toBe(200);
    const document = file.json() as {
      kind: string;
      counts: Record<string, number>;
      sites: Record<string, unknown>[];
    };
    expect(document.kind).toBe('username');
    expect(document.counts).toEqual(answer.counts);
    expect(document.sites).toHaveLength(listed);
    expect(document.sites[0]).toMatchObject({
      site: found.name,
      state: 'found',
      profile_url: found.url,
      final_url: found.evidence!.final_url,
      http_status: 200,
      title: found.evidence!.title,
      sha256: found.evidence!.sha256,
      bytes: found.evidence!.bytes,
      reason: '',
    });
    expect(document.sites.find((row) => row.site_id === blocked.site)).toMatchObject({
      state: 'blocked',
      reason: blocked.reason,
      sha256: '',
    });

    const xlsx = await client.get(`/api/history/${id}/export?format=xlsx`);
    expect(xlsx.statusCode).toBe(200);
    const sheets = await unzip(xlsx.rawPayload);
    expect(sheets.get('xl/workbook.xml')!.toString()).toContain('name="Sites"');
  });

  it("a case's evidence bundle holds the username lookup's report and its stored result", async () => {
    const client = await investigator();
    const lookup = await client.get('/api/username?username=rohand90&case_reference=CASE-UR-3');
    const id = lookup.json().lookup_id as string;
    const cases = await client.get('/api/cases');
    const filed = (cases.json() as { data: { id: string; reference: string }[] }).data.find(
      (c) => c.reference === 'CASE-UR-3',
    )!;
    const res = await client.get(`/api/cases/${filed.id}/bundle`);
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    const entries = await unzip(res.rawPayload);
    const manifest = JSON.parse(entries.get('manifest.json')!.toString()) as {
      items: {
        lookup_id: string;
        kind: string;
        status: string;
        report: string | null;
        result: string | null;
      }[];
    };
    const item = manifest.items.find((i) => i.lookup_id === id)!;
    expect(item).toMatchObject({ kind: 'username', status: 'included' });
    const report = folded(await pdfText(entries.get(item.report!)!));
    expect(report).toContain('Username Report');
    expect(report).toContain('CASE-UR-3');
    expect(report).toContain('Accounts found');
    const result = JSON.parse(entries.get(item.result!)!.toString()) as { payloads: { sitesData: unknown } };
    expect(result.payloads.sitesData).toMatchObject({ username: 'rohand90' });
  });
});
