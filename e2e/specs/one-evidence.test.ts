import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Download, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, apiSignIn, demoPassword } from '../support/api.ts';
import { problemsOf, screenshot, storeSession, uniqueEmail, useBrowser } from '../support/browser.ts';

/**
 * One evidence everywhere: the rich demo phone and e-mail, looked up in the browser and filed under a
 * case, say the same thing fact by fact on the results page, in the lookup PDF (pdftotext), in the CSV
 * and the JSON saved from the page, in a bulk lookup's row of the same subject, and in the case's
 * entities: the same values, from the same sources, with the same corroboration. The AI report lists the
 * same phones and e-mails, each once (phones in E.164, e-mails lower-cased).
 */

const run = promisify(execFile);
const browser = useBrowser();
let token: string;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'fp-e2e-evidence-'));
  // Bulk lookups and cases are for live accounts.
  const admin = await apiSignIn('demo-admin@footprint.test', demoPassword);
  const email = uniqueEmail('evidence');
  const password = 'one evidence passphrase';
  const made = await api('/api/admin/users', {
    body: { name: 'Evidence Officer', email, password, app_mode: 'live', credits: 60 },
    token: admin,
  });
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  token = await apiSignIn(email, password);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** One merged value as an artefact states it. */
interface Fact {
  attribute: string;
  value: string;
  sources: string[];
  corroborated: boolean;
}

const key = (fact: Pick<Fact, 'attribute' | 'value'>) => `${fact.attribute}: ${fact.value}`;
const sorted = (facts: Fact[]) =>
  facts.map((f) => ({ ...f, sources: [...f.sources].sort() })).sort((a, b) => key(a).localeCompare(key(b)));

async function save(page: Page, item: string): Promise<string> {
  await page.getByRole('button', { name: /Save Results/ }).click();
  const downloading: Promise<Download> = page.waitForEvent('download');
  await page.getByRole('button', { name: item, exact: true }).click();
  const download = await downloading;
  const file = join(dir, download.suggestedFilename());
  await download.saveAs(file);
  return file;
}

/** The merged profile as the results page shows it: each value, its source chips, its mark. */
function screenFacts(page: Page): Promise<Fact[]> {
  return page.locator('[data-merged-attribute] [data-merged-value]').evaluateAll((nodes) =>
    nodes.map((node) => {
      const toggle = node.querySelector('.provenance-toggle');
      // 'Where <value> comes from: Gov, OSINT'
      const named = toggle?.getAttribute('aria-label') ?? '';
      return {
        attribute: node.closest('[data-merged-attribute]')?.getAttribute('data-merged-attribute') ?? '',
        value: node.getAttribute('data-merged-value') ?? '',
        sources: named.slice(named.lastIndexOf(': ') + 2).split(', '),
        corroborated: node.querySelector('.status-on') !== null,
      };
    }),
  );
}

/** The CSV's merged part: `part,section,attribute,value,sources,corroboration,…,source_labels,…`. */
function csvFacts(text: string): Fact[] {
  const lines = text.split('\r\n');
  const table = lines.slice(lines.indexOf('') + 1).filter(Boolean);
  const header = parseCsvLine(table[0]!);
  const at = (name: string) => header.indexOf(name);
  return table
    .slice(1)
    .map(parseCsvLine)
    .filter((cells) => cells[0] === 'merged')
    .map((cells) => ({
      attribute: cells[at('attribute')]!,
      // A cell that would start with = + - @ is written with a leading ' (formula neutralisation).
      value: cells[at('value')]!.replace(/^'(?=[=+\-@])/, ''),
      sources: cells[at('source_labels')]!.split('; '),
      corroborated: cells[at('corroboration')] === 'corroborated',
    }));
}

/** One RFC 4180 line (quoted cells may hold commas and doubled quotes). */
function parseCsvLine(line: string): string[] {
  const cells: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < line.length; i += 1) {
    const c = line[i]!;
    if (quoted) {
      if (c === '"' && line[i + 1] === '"') {
        cell += '"';
        i += 1;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      cells.push(cell);
      cell = '';
    } else cell += c;
  }
  cells.push(cell);
  return cells;
}

async function lookUp(type: 'tel' | 'email', query: string, reference: string): Promise<Page> {
  const page = await browser.newPage({ width: 1366, height: 900 });
  await storeSession(page, token);
  await page.goto('/dashboard');
  if (type === 'email') await page.getByRole('radio', { name: 'Email' }).check({ force: true });
  await page.getByRole('textbox', { name: type === 'tel' ? 'Phone number' : 'Email address' }).fill(query);
  await page.getByRole('checkbox', { name: /Terms of Services, Policies/ }).check();
  await page.getByLabel(/^Case reference/).fill(reference);
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await page.waitForURL('**/results');
  await page.getByRole('heading', { name: 'Merged profile' }).waitFor();
  return page;
}

const E164 = /\+\d{8,15}\b/g;
const EMAIL = /[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/g;
const all = (text: string, pattern: RegExp) => [...text.matchAll(pattern)].map((m) => m[0]).sort();

/** The values of one attribute, in the page's order. */
const valuesOf = (facts: Fact[], attribute: string) =>
  facts.filter((f) => f.attribute === attribute).map((f) => f.value);

/** The case's entity types and the attribute each one's values are. */
const ENTITY_ATTRIBUTES: Record<string, string> = {
  name: 'Name',
  phone: 'Phone',
  email: 'E-mail',
  username: 'Usernames',
  upi: 'UPI',
  vehicle_rc: 'Vehicles',
};

describe.each([
  ['tel', '9876543210', 'Phone highlights', 'results-merged-phone-desktop'],
  ['email', 'rich.demo@example.test', 'Profile summary', 'results-merged-email-desktop'],
] as const)('one evidence: the rich demo %s', (type, query, pdfEnd, picture) => {
  it('says the same on the page, in the PDF, the CSV, the JSON, a bulk row and the case', async () => {
    const reference = `OP-EVIDENCE-${type}-${Date.now()}`;
    const page = await lookUp(type, query, reference);

    // The screen.
    const screen = await screenFacts(page);
    expect(screen.length).toBeGreaterThan(10);
    const summary = (await page.getByText(/^\d+ facts · \d+ corroborated/).textContent()) ?? '';
    const [facts, corroborated] = summary.match(/\d+/g)!.map(Number);
    expect(screen).toHaveLength(facts!);
    expect(screen.filter((f) => f.corroborated)).toHaveLength(corroborated!);
    expect(corroborated).toBeGreaterThan(0);
    // Each phone once in E.164, each e-mail once lower-cased; Gender, given in several spellings, once.
    const phones = valuesOf(screen, 'Phone');
    const emails = valuesOf(screen, 'E-mail');
    expect(phones).toContain('+919876543210');
    expect(new Set(phones).size).toBe(phones.length);
    for (const phone of phones) expect(phone).toMatch(/^\+\d{8,15}$/);
    expect(emails.length).toBeGreaterThan(0);
    expect(new Set(emails).size).toBe(emails.length);
    for (const email of emails) expect(email).toBe(email.trim().toLowerCase());
    expect(valuesOf(screen, 'Gender')).toHaveLength(1);
    await screenshot(page, picture);

    // The lookup PDF: every value of the merged profile, and as many marked corroborated.
    const pdf = (await run('pdftotext', ['-layout', await save(page, 'Save as pdf'), '-'])).stdout;
    const from = pdf.indexOf('Merged profile');
    const section = pdf.slice(from, pdf.indexOf(pdfEnd, from));
    const merged = section.replace(/\s+/g, ' ');
    expect(merged.split('Corroborated').length - 1).toBe(corroborated);
    expect(all(section, E164)).toEqual([...phones].sort());
    expect(all(section, EMAIL)).toEqual([...emails].sort());
    for (const fact of screen) {
      // Long values wrap in their table cell: compare their first words.
      const start = fact.value.split(/\s+/).slice(0, 3).join(' ');
      expect(merged, `${key(fact)} in the PDF`).toContain(start);
    }

    // The AI report: the same phones and e-mails, each once.
    const aiSaved: Promise<Download> = page.waitForEvent('download');
    await page.getByRole('button', { name: 'AI Report' }).click();
    const aiFile = join(dir, `ai-${type}.pdf`);
    await (await aiSaved).saveAs(aiFile);
    const ai = (await run('pdftotext', ['-layout', aiFile, '-'])).stdout;
    const each = ai.slice(
      ai.indexOf('Each value once'),
      ai.indexOf('Exposure', ai.indexOf('Each value once')),
    );
    expect(all(each, E164)).toEqual([...phones].sort());
    expect(all(each, EMAIL)).toEqual([...emails].sort());

    // The CSV and the JSON saved from the page: the same values, sources and marks, in the same order.
    const csv = csvFacts(readFileSync(await save(page, 'Save as CSV'), 'utf8'));
    expect(csv).toEqual(screen);
    const json = JSON.parse(readFileSync(await save(page, 'Save as JSON'), 'utf8')) as {
      lookup_id: string;
      case_reference: string | null;
      counts: { facts: number; corroborated: number };
      merged_profile: Array<{
        attribute: string;
        value: string;
        source_labels: string[];
        corroboration: string;
      }>;
    };
    expect(json.case_reference).toBe(reference);
    expect(json.counts).toMatchObject({ facts, corroborated });
    expect(
      json.merged_profile.map((row) => ({
        attribute: row.attribute,
        value: row.value,
        sources: row.source_labels,
        corroborated: row.corroboration === 'corroborated',
      })),
    ).toEqual(screen);
    expect(problemsOf(page)).toEqual([]);

    // A bulk lookup of the same subject (not filed under the case): its row names the page's top name
    // and lists the page's phones, e-mails and addresses.
    const job = await api('/api/bulk', { body: { type, values: [query] }, token });
    expect(job.status, JSON.stringify(job.body)).toBe(202);
    await expect
      .poll(async () => (await api(`/api/bulk/${job.body.id}`, { token })).body.status, { timeout: 60_000 })
      .toBe('done');
    const rows = await api(`/api/bulk/${job.body.id}/rows`, { token });
    const row = (rows.body.data as Array<Record<string, unknown>>)[0]!;
    expect(row.name).toBe(valuesOf(screen, 'Name')[0]);
    expect(row.phones).toEqual(valuesOf(screen, 'Phone'));
    expect(row.emails).toEqual(valuesOf(screen, 'E-mail'));
    expect(row.addresses).toEqual(valuesOf(screen, 'Address/Location'));

    // The case the search was filed under: its entities are the page's values, with the same sources
    // and the same corroboration.
    const cases = await api('/api/cases', { token });
    const filed = (cases.body.data as Array<{ id: string; reference: string }>).find(
      (c) => c.reference === reference,
    );
    expect(filed, reference).toBeDefined();
    const detail = await api(`/api/cases/${filed!.id}`, { token });
    expect(detail.status).toBe(200);
    const entities = (
      detail.body.entities as Array<{ type: string; value: string; sources: string[]; corroborated: boolean }>
    )
      .filter((e) => ENTITY_ATTRIBUTES[e.type])
      .map((e) => ({
        attribute: ENTITY_ATTRIBUTES[e.type]!,
        value: e.value,
        sources: e.sources,
        corroborated: e.corroborated,
      }));
    const comparable = screen.filter((f) => Object.values(ENTITY_ATTRIBUTES).includes(f.attribute));
    expect(comparable.length).toBeGreaterThan(3);
    // Names compare without regard to case (the case joins 'Rohan' and 'ROHAN' across searches).
    const fold = (facts: Fact[]) =>
      sorted(facts.map((f) => (f.attribute === 'Name' ? { ...f, value: f.value.toLowerCase() } : f)));
    expect(fold(entities)).toEqual(fold(comparable));
  });
});
