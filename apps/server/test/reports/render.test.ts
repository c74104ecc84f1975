/**
 * The report renderer on its own (no database, no HTTP): each report is drawn from sandbox data, read
 * back with poppler's pdftotext and checked for what a case file needs. The first pages of the rich
 * reports are also rendered to PNG into docs/screenshots for a human to look at.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import {
  analyzeEmailLookup,
  analyzePhoneLookup,
  EMAIL_SOURCES,
  type EmailLookupData,
  extraRecords,
  legalBasisInput,
  legalBasisLine,
  mergeEmailProfile,
  mergePhoneProfile,
  messages,
  PHONE_SOURCES,
  type PhoneLookupResponse,
  PROFILE_SECTIONS,
  phoneHighlights,
  profileCounts,
  SANDBOX_BANNER,
  type SourceStatus,
  sourceStatusOf,
} from '@footprint/domain';
import { afterAll, describe, expect, it } from 'vitest';
import { hiddenDetailValue, renderReport } from '../../src/modules/reports/render/index.ts';
import type {
  AiReportJob,
  DetailReportJob,
  LookupReportJob,
  ProfileAnalysis,
  ReportJob,
} from '../../src/modules/reports/render/types.ts';
import { challanDetails, DEMO, rcDetails, sandboxPayload, upiDetails } from '../../src/sandbox/index.ts';

const run = promisify(execFile);
const work = mkdtempSync(join(tmpdir(), 'fp-render-'));
const screenshots = fileURLToPath(new URL('../../../../docs/screenshots/', import.meta.url));
afterAll(() => rmSync(work, { recursive: true, force: true }));

// ---------- jobs from sandbox data ----------

const common = {
  reportId: '7f3c2a91-5b6d-4e8f-9a0b-1c2d3e4f5a6b',
  lookupId: '0b9e8d7c-6f5a-4b3c-8d2e-1f0a9b8c7d6e',
  generatedAt: '2026-10-01T07:12:45.000Z',
  searchedAt: '2026-10-01T06:58:02.000Z',
  account: { name: 'Insp. Kavita Rao', email: 'kavita.rao@cyber.police.example' },
  sandbox: true,
};

/** The sources answered at the search's time; each merged value's provenance says so. */
const answeredAt = '2026-10-01T06:58:04.000Z';

/** A case's structured legal basis, as every artefact prints it (domain legalBasisLine). */
const FIR_BASIS = legalBasisLine(
  legalBasisInput.parse({
    kind: 'fir',
    police_station: 'Kothrud',
    fir_number: '214',
    year: 2026,
    sections: ['BNS 318(4)', 'IT Act 66D'],
    purpose: 'Tracing the caller of an extortion complaint',
  }),
);

function phoneJob(value: string, overrides: Partial<LookupReportJob> = {}): LookupReportJob {
  const response: Partial<PhoneLookupResponse> & { errors: Record<string, string> } = { errors: {} };
  for (const source of PHONE_SOURCES) {
    try {
      (response as Record<string, unknown>)[source] = sandboxPayload(source, { kind: 'tel', value });
    } catch (error) {
      response.errors[source] = (error as Error).message;
    }
  }
  const sourceStatus = sourceStatusOf('tel', {
    payloads: response,
    errors: response.errors,
    sandbox: true,
  }).status;
  return {
    template: 'lookup',
    ...common,
    kind: 'tel',
    query: `+${value.slice(0, -10)} ${value.slice(-10)}`,
    caseReference: 'CR-2026/PUNE/0412',
    profile: mergePhoneProfile(response),
    analysis: analyzePhoneLookup(response, { sourceStatus, answeredAt }),
    highlights: phoneHighlights(response),
    breaches: [],
    registeredSites: [],
    extraRecords: extraRecords(response.osintData),
    sourceErrors: response.errors,
    sourceStatus,
    ...overrides,
  };
}

function emailJob(address: string): LookupReportJob {
  const data: Partial<EmailLookupData> & { errors: Record<string, string> } = { errors: {} };
  for (const source of EMAIL_SOURCES) {
    try {
      (data as Record<string, unknown>)[source] = sandboxPayload(source, { kind: 'email', value: address });
    } catch (error) {
      data.errors[source] = (error as Error).message;
    }
  }
  const sourceStatus = sourceStatusOf('email', { payloads: data, errors: data.errors, sandbox: true }).status;
  return {
    template: 'lookup',
    ...common,
    kind: 'email',
    query: address,
    caseReference: null,
    profile: mergeEmailProfile(data),
    analysis: analyzeEmailLookup(data, { sourceStatus, answeredAt }),
    breaches: data.hibpData ?? [],
    registeredSites: (data.holeheData?.used ?? []).filter((site): site is string => typeof site === 'string'),
    extraRecords: extraRecords(data.osintData),
    sourceErrors: data.errors,
    sourceStatus,
  };
}

const analysis: ProfileAnalysis = {
  attributes: [
    {
      attribute: 'Name',
      status: 'conflicting',
      values: [
        { value: 'Rohan Suresh Deshmukh', sources: ['Gov', 'OSINT'], confidence: 0.86 },
        { value: 'Rohan Deshmukh', sources: ['Social Media', 'Telegram', 'OSINT'], confidence: 0.74 },
        { value: 'Deshmukh Enterprises', sources: ['WhatsApp'], confidence: 0.35 },
      ],
    },
    {
      attribute: 'Date of birth',
      status: 'corroborated',
      values: [{ value: '1990-04-17', sources: ['Gov', 'OSINT'], confidence: 0.91 }],
    },
    {
      attribute: 'Carrier',
      status: 'conflicting',
      values: [
        { value: 'Bharti Airtel', sources: ['ISP Response', 'Caller Apps'], confidence: 0.82 },
        { value: 'Reliance Jio Infocomm (ported)', sources: ['ISP Response'], confidence: 0.6 },
      ],
    },
    {
      attribute: 'Address',
      status: 'single-source',
      values: [
        {
          value: 'House No. 42, Lane 7, Kothrud, Pune, Maharashtra - 411038',
          sources: ['Gov'],
          confidence: 0.55,
        },
      ],
    },
  ],
  exposure: {
    breaches: 3,
    breachNames: ['Cricket Khel', 'Jobkarma', 'Rishtaloom'],
    sensitiveBreaches: 1,
    registeredSites: 11,
    publicProfiles: [
      { platform: 'LinkedIn', url: 'https://www.linkedin.example.test/in/rohan-deshmukh' },
      { platform: 'Telegram', url: 'https://t.me/rohand90' },
    ],
    dataClasses: ['Email addresses', 'Phone numbers', 'Passwords'],
  },
  timeline: [
    { date: '1990-04-17', event: 'Date of birth', source: 'Gov' },
    { date: '2012', event: 'Started as QA Analyst at Deccanbyte Fintech', source: 'LinkedIn' },
    { date: '2020-04-02', event: 'E-mail address exposed in the Gyaanpeeth breach', source: 'Breach Data' },
  ],
  nextSteps: [
    'Confirm the legal name against the PAN record with the issuing authority.',
    'Ask the carrier for subscriber details under the applicable legal process.',
    'Review the breaches for reused passwords; one is sensitive.',
  ],
};

function aiJob(writer: AiReportJob['writer']): AiReportJob {
  return {
    template: 'ai',
    ...common,
    kind: 'tel',
    query: '+91 9876543210',
    caseReference: 'CR-2026/PUNE/0412',
    writer,
    narrative:
      'The number is registered to Rohan Suresh Deshmukh according to government identity data, which open sources corroborate.\n\nThe ISP reports the number as active and ported from Bharti Airtel to Reliance Jio Infocomm.\n\nThe person appears in three data breaches, one of them sensitive.',
    analysis,
  };
}

function detailJob(type: DetailReportJob['type'], id: string, record: unknown): DetailReportJob {
  return { template: 'detail', ...common, type, id, record: (record ?? {}) as Record<string, unknown> };
}

// ---------- reading PDFs back ----------

interface Rendered {
  file: string;
  text: string;
  pages: string[];
}

let counter = 0;
async function render(job: ReportJob): Promise<Rendered> {
  const pdf = await renderReport(job);
  expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
  const file = join(work, `report-${++counter}.pdf`);
  writeFileSync(file, pdf);
  const { stdout } = await run('pdftotext', ['-layout', file, '-'], { maxBuffer: 20 * 1024 * 1024 });
  const pages = stdout.split('\f');
  if (pages.at(-1)?.trim() === '') pages.pop();
  return { file, text: stdout, pages };
}

/** Some line of the text holds every part (a value beside its source label, in a table row). */
function lineWith(text: string, ...parts: string[]): string | undefined {
  return text.split('\n').find((line) => parts.every((part) => line.includes(part)));
}

function expectFooters(report: Rendered, sandbox: boolean): void {
  const total = report.pages.length;
  report.pages.forEach((page, i) => {
    expect(page, `page ${i + 1}`).toContain(`Report ${common.reportId} · Page ${i + 1} of ${total}`);
    if (sandbox) expect(page, `page ${i + 1}`).toContain(SANDBOX_BANNER);
    else expect(page).not.toContain(SANDBOX_BANNER);
  });
  expect(report.text).toContain(`Page 1 of ${total}`);
  expect(report.text).toContain(`Page ${total} of ${total}`);
}

function expectCover(report: Rendered, query: string): void {
  const first = report.pages[0]!;
  expect(first).toContain(query);
  expect(first).toContain(common.account.name);
  expect(first).toContain(common.account.email);
  expect(first).toContain(common.lookupId);
  expect(first).toContain(common.reportId);
  expect(first).toContain('1 October 2026, 06:58:02 UTC');
  expect(first).toContain('1 October 2026, 07:12:45 UTC');
}

async function screenshot(report: Rendered, name: string): Promise<void> {
  mkdirSync(screenshots, { recursive: true });
  const prefix = join(work, name);
  await run('pdftoppm', ['-png', '-r', '60', '-f', '1', '-l', '2', report.file, prefix]);
  for (const file of readdirSync(work).filter((f) => f.startsWith(`${name}-`) && f.endsWith('.png'))) {
    const page = Number(/-(\d+)\.png$/.exec(file)![1]);
    renameSync(join(work, file), join(screenshots, `report-${name}-${page}.png`));
  }
}

// ---------- lookup reports ----------

describe('phone lookup report', () => {
  it('shows the cover, highlights, every section with its sources, extra records and the integrity note', async () => {
    const job = phoneJob(DEMO.richPhone, { legalBasis: FIR_BASIS });
    const report = await render(job);
    expectCover(report, '+91 9876543210');
    expect(report.pages[0]).toContain('Footprint lookup report');
    expect(report.pages[0]).toContain('Phone number');
    expect(report.pages[0]).toContain('CR-2026/PUNE/0412');
    // The case's structured legal basis, as one line, on the cover.
    expect(report.pages[0]).toContain('Legal basis');
    expect(report.pages[0]).toMatch(/FIR 214\/2026.*Kothrud/);
    expect(report.pages[0]).toContain('11 of 11 sources answered');
    expect(report.pages.length).toBeGreaterThan(1);
    expectFooters(report, true);

    for (const section of PROFILE_SECTIONS) {
      const items = job.profile[section.key];
      if (items.length > 0) expect(report.text, section.title).toContain(section.title);
    }
    // Values beside the labels of the sources that returned them.
    expect(lineWith(report.text, 'PAN Number: BQZPD4821K', 'Gov')).toBeDefined();
    expect(lineWith(report.text, 'Deshmukh Enterprises', 'WhatsApp')).toBeDefined();
    expect(lineWith(report.text, 'Rohan Deshmukh', 'Social Media', 'OSINT', 'Telegram')).toBeDefined();
    expect(lineWith(report.text, 'Ported: Reliance Jio Infocomm', 'ISP Response')).toBeDefined();
    expect(lineWith(report.text, 'rohan.deshmukh@oksbi', 'Gov')).toBeDefined();
    expect(lineWith(report.text, 'Telegram', 'Active', 'https://t.me/rohand90')).toBeDefined();

    const upper = report.text.toUpperCase();
    for (const tile of ['MARKED AS SPAM', 'WHATSAPP BUSINESS', 'PHONE IMSI', 'PHONE STATUS'])
      expect(upper).toContain(tile);
    expect(report.text).toContain(job.highlights!.imsi!);
    expect(report.text).toContain('Facebook:');
    expect(report.text).toContain(job.highlights!.facebookUrl!);

    expect(report.text).toContain('Extra records');
    expect(report.text).toContain(`Record 1 of ${job.extraRecords.length} — ROHAN SURESH DESHMUKH`);
    expect(lineWith(report.text, 'Source Db', 'zestmint_2023.sql')).toBeDefined();
    expect(report.text).toContain('About this report');
    expect(report.text).toContain(`/api/reports/${common.reportId}/verify`);
    expect(report.text).not.toContain('Found breaches');

    await screenshot(report, 'phone');
  });

  it('prints the merged values first, each once with its sources and where each came from', async () => {
    const job = phoneJob(DEMO.richPhone);
    const report = await render(job);
    const start = report.text.indexOf('Merged profile');
    expect(start).toBeGreaterThan(-1);
    const merged = report.text.slice(start, report.text.indexOf('Phone highlights', start));
    const phones = job.analysis!.attributes.find((a) => a.attribute === 'Phone')!.values.map((v) => v.value);
    expect(phones.length).toBeGreaterThan(1);
    for (const phone of phones) {
      expect(phone).toMatch(/^\+\d+$/);
      expect(merged.split(phone).length - 1, phone).toBe(1);
    }
    // Raw forms of the searched number stay in the per-source section only.
    expect(merged).not.toMatch(/(?<![+\d])919876543210/);
    // Provenance: an OSINT record's breach, sandbox, and the time its source answered.
    const osint = job.analysis!.attributes.flatMap((a) =>
      a.values.flatMap((v) => (v.provenance ?? []).filter((p) => p.via === 'OSINT')),
    )[0]!;
    expect(merged).toContain(`${osint.name} (via OSINT)`);
    expect(merged).toContain('Gov identity records, Gov UPI records');
    expect(merged.replace(/\s+/g, ' ')).toContain('— sandbox · answered 2026-10-01 06:58 UTC');
    expect(merged).toContain('Corroborated');
  });

  it('counts corroboration as the results page does: every value two sources gave is marked, with its summary', async () => {
    const job = phoneJob(DEMO.richPhone);
    const report = await render(job);
    const start = report.text.indexOf('Merged profile');
    const merged = report.text.slice(start, report.text.indexOf('Phone highlights', start));
    const attributes = job.analysis!.attributes;
    const counts = profileCounts(attributes);
    // The case that used to differ: corroborated values that are not an attribute's first.
    const later = attributes.flatMap((a) => a.values.slice(1)).filter((v) => new Set(v.sources).size >= 2);
    expect(later.length).toBeGreaterThan(0);
    expect(merged.split('Corroborated').length - 1).toBe(counts.corroborated);
    expect(merged.replace(/\s+/g, ' ')).toContain(
      messages.results.mergedSummary(counts.facts, counts.corroborated, counts.conflicts),
    );
  });

  it('names the sources that did not answer, and drops the sandbox marking for live data', async () => {
    const job = phoneJob(DEMO.sparsePhone, { sandbox: false, caseReference: null });
    expect(Object.keys(job.sourceErrors).length).toBeGreaterThan(0);
    const report = await render(job);
    expectCover(report, '+91 9123456780');
    expect(report.pages[0]).toContain('None recorded');
    expectFooters(report, false);
    expect(report.text).not.toContain('11 of 11 sources answered');
    expect(lineWith(report.text, 'Caller ID', 'Not found')).toBeDefined();
    expect(report.text).toContain('Profile summary');
    expect(report.text).toContain('Phone Numbers');
    expect(report.text).not.toContain('Bank Details');
  });

  it('lists every source with its status and who answers it, live with the vendor or sandbox', async () => {
    const job = phoneJob(DEMO.richPhone);
    const sandboxed: SourceStatus = { status: 'ok', mode: 'sandbox' };
    const sourceStatus: Record<string, SourceStatus> = {
      ...Object.fromEntries(PHONE_SOURCES.map((source) => [source, sandboxed])),
      wpData: { status: 'ok', mode: 'live', vendor: 'WhatsApp Example Co' },
      tcData: {
        status: 'failed',
        mode: 'live',
        vendor: 'Twilio',
        message: 'Source temporarily unavailable.',
      },
      smData: { status: 'timed_out', mode: 'sandbox', message: 'Source did not answer in time.' },
      telData: {
        status: 'not_configured',
        mode: 'not_configured',
        message: 'Not configured in this deployment.',
      },
    };
    const report = await render({ ...job, sourceStatus });
    const summary = '8 of 11 sources answered · 1 failed · 1 timed out · 1 not configured';
    expect(report.pages[0]).toContain(summary);
    expect(lineWith(report.pages[0]!, 'Sources answered', 'Profile values')).toBeDefined();
    expect(lineWith(report.pages[0]!, '8 of 11')).toBeDefined();
    const last = report.pages.at(-1)!;
    expect(last).toContain('Sources');
    expect(last).toContain(summary);
    expect(lineWith(last, 'SOURCE', 'STATUS', 'ANSWERED BY')).toBeDefined();
    expect(
      lineWith(last, 'Caller ID', 'Failed', 'Source temporarily unavailable.', 'Live: Twilio'),
    ).toBeDefined();
    expect(lineWith(last, 'Social Media', 'Timed out', 'Sandbox (synthetic data)')).toBeDefined();
    // The standard message of a state is not said twice.
    expect(last).not.toContain('Source did not answer in time.');
    expect(lineWith(last, 'Telegram', 'Not configured', 'No vendor configured')).toBeDefined();
    expect(lineWith(last, 'WhatsApp', 'Answered', 'Live: WhatsApp Example Co')).toBeDefined();
    expect(lineWith(last, 'ISP Response', 'Answered', 'Sandbox (synthetic data)')).toBeDefined();
    // What went wrong comes first.
    expect(last.indexOf('Caller ID')).toBeLessThan(last.indexOf('Social Media'));
    expect(last.indexOf('Telegram')).toBeLessThan(last.indexOf('WhatsApp'));
  });

  it('says when the statuses were rebuilt from an answer stored before they were kept', async () => {
    const job = phoneJob(DEMO.sparsePhone, { sourceStatusDerived: true });
    const report = await render(job);
    expect(report.text).toContain('This lookup was stored before per-source status was recorded');
    expect(lineWith(report.text, 'Caller ID', 'Not found', 'Sandbox (synthetic data)')).toBeDefined();
    const empty = await render({ ...job, sourceStatus: {}, sourceStatusDerived: false });
    expect(empty.text).toContain('No source status was recorded for this lookup.');
  });

  it('draws the same job to the same bytes', async () => {
    const job = phoneJob(DEMO.richPhone);
    const [a, b] = await Promise.all([renderReport(job), renderReport(job)]);
    expect(a.equals(b)).toBe(true);
    const file = join(work, 'metadata.pdf');
    writeFileSync(file, a);
    const { stdout: info } = await run('pdfinfo', ['-isodates', file]);
    expect(info).toMatch(/^Title: +Footprint lookup report — \+91 9876543210$/m);
    expect(info).toMatch(/^Author: +Footprint$/m);
    expect(info).toMatch(/^Producer: +Footprint report renderer$/m);
    expect(info).toMatch(/^CreationDate: +2026-10-01T07:12:45Z$/m);
    expect(info).toMatch(new RegExp(`^Keywords: .*report ${common.reportId}`, 'm'));
    expect(info).toMatch(/^Page size: +595.28 x 841.89 pts \(A4\)$/m);
  });
});

describe('e-mail lookup report', () => {
  it('shows breaches, registered sites, the profile and extra records', async () => {
    const job = emailJob(DEMO.richEmail);
    const report = await render(job);
    expectCover(report, 'rich.demo@example.test');
    expect(report.pages[0]).toContain('E-mail address');
    expect(report.pages.length).toBeGreaterThan(1);
    expectFooters(report, true);

    for (const section of PROFILE_SECTIONS) {
      if (job.profile[section.key].length > 0) expect(report.text, section.title).toContain(section.title);
    }
    expect(report.text).toContain('Found breaches');
    expect(job.breaches.length).toBeGreaterThan(3);
    for (const breach of job.breaches) expect(report.text).toContain(breach.Title!);
    expect(lineWith(report.text, 'Cricket Khel', '18 Apr 2024', '12,402,775')).toBeDefined();
    expect(report.text).toContain('Registered sites');
    for (const site of job.registeredSites) expect(report.text).toContain(site);
    expect(lineWith(report.text, 'B.Tech', 'LinkedIn')).toBeDefined();
    expect(report.text).toMatch(/2008 – 2012/);
    expect(lineWith(report.text, 'Tumblr', 'Inactive', 'Social Scan')).toBeDefined();
    expect(report.text).toContain('Extra records');
    expect(report.text).not.toContain('Phone highlights');

    await screenshot(report, 'email');
  });

  it('renders an address with almost nothing found', async () => {
    const job = emailJob(DEMO.emptyEmail);
    const report = await render(job);
    expectCover(report, 'nobody@example.test');
    expectFooters(report, true);
    expect(report.text).toContain('No breaches were found for this address.');
    expect(report.text).toContain('No registered sites were found for this address.');
    expect(report.text).toContain('No extra records were returned.');
  });
});

// ---------- AI report ----------

describe('AI report', () => {
  it('shows the writer, the narrative, attributes with confidence, exposure, timeline and next steps', async () => {
    const report = await render(aiJob({ kind: 'llm', model: 'gpt-4.1-mini' }));
    expectCover(report, '+91 9876543210');
    expect(report.pages[0]).toContain('Footprint AI analysis report');
    expectFooters(report, true);
    expect(report.text).toContain('Narrative written by: LLM (model gpt-4.1-mini)');
    expect(report.text).toContain('ported from Bharti Airtel to Reliance Jio Infocomm');
    expect(
      lineWith(report.text, 'Name', 'Rohan Suresh Deshmukh', 'Gov', 'OSINT', '86%', 'Conflicting'),
    ).toBeDefined();
    expect(lineWith(report.text, 'Date of birth', '1990-04-17', '91%', 'Corroborated')).toBeDefined();
    expect(lineWith(report.text, 'Address', 'Single source')).toBeDefined();
    // The tiles count as the results page and the lookup PDF do.
    const counts = profileCounts(aiJob({ kind: 'llm', model: 'gpt-4.1-mini' }).analysis.attributes);
    expect(lineWith(report.text, 'Facts', 'Corroborated', 'In conflict')).toBeDefined();
    expect(
      lineWith(report.text, String(counts.facts), String(counts.corroborated), String(counts.conflicts)),
    ).toBeDefined();
    expect(report.text).toContain('Exposure');
    expect(report.text).toContain('Cricket Khel, Jobkarma, Rishtaloom');
    expect(report.text).toContain('1 sensitive');
    expect(
      lineWith(report.text, 'LinkedIn', 'https://www.linkedin.example.test/in/rohan-deshmukh'),
    ).toBeDefined();
    expect(report.text).toContain('Timeline');
    expect(lineWith(report.text, '17 Apr 1990', 'Date of birth', 'Gov')).toBeDefined();
    expect(lineWith(report.text, '2012', 'Started as QA Analyst')).toBeDefined();
    expect(report.text).toContain('Suggested next steps');
    analysis.nextSteps.forEach((step, i) => {
      expect(lineWith(report.text, `${i + 1}.`, step.slice(0, 40))).toBeDefined();
    });

    await screenshot(report, 'ai');
  });

  it('says when the deterministic writer wrote the narrative', async () => {
    const report = await render(aiJob({ kind: 'deterministic' }));
    expect(report.text).toContain('Narrative written by: deterministic writer (no LLM configured)');
    expect(report.text).not.toContain('Narrative written by: LLM');
  });
});

// ---------- detail reports ----------

describe('detail reports', () => {
  it('RC Details: every shown row, none of what the modal hides', async () => {
    const record = rcDetails(DEMO.rcWithChallans).data as Record<string, unknown>;
    expect(record.client_id).toBeTruthy();
    expect(record.permit_type).toBe('NA');
    const report = await render(detailJob('rc', DEMO.rcWithChallans, record));
    expect(report.pages[0]).toContain('RC Details');
    expectCover(report, 'MH12FP1234');
    expectFooters(report, true);
    expect(lineWith(report.text, 'Owner Name', 'ROHAN SURESH DESHMUKH')).toBeDefined();
    expect(lineWith(report.text, 'Maker Model', String(record.maker_model))).toBeDefined();
    expect(lineWith(report.text, 'PUCC Upto')).toBeDefined();
    expect(lineWith(report.text, 'Financed', 'Yes')).toBeDefined();
    // Hidden: the vendor's request id, NA, empty and null values.
    expect(report.text).not.toMatch(/client.?id/i);
    expect(report.text).not.toContain(String(record.client_id));
    expect(report.text).not.toMatch(/\bNA\b/);
    for (const label of [
      'Permit Type',
      'National Permit Number',
      'NOC Details',
      'Mobile Number',
      'Permit Number',
      'Variant',
    ]) {
      expect(report.text).not.toContain(label);
    }

    await screenshot(report, 'rc');
  });

  it('UPI Details', async () => {
    const record = upiDetails(DEMO.upi).data as Record<string, unknown>;
    const report = await render(detailJob('upi', DEMO.upi, record));
    expect(report.pages[0]).toContain('UPI Details');
    expectCover(report, 'rohan.deshmukh@oksbi');
    expectFooters(report, true);
    expect(lineWith(report.text, 'Full Name', 'ROHAN SURESH DESHMUKH')).toBeDefined();
    expect(lineWith(report.text, 'Account Exists', 'Yes')).toBeDefined();
    expect(lineWith(report.text, 'IFSC', String(record.ifsc))).toBeDefined();
    expect(report.text).not.toContain('Remarks');
    expect(report.text).not.toContain(String(record.client_id));
  });

  it('Challan Details: the challans as one table', async () => {
    const record = challanDetails(DEMO.rcWithChallans).data as Record<string, unknown>;
    const challans = record.challan_details as Array<Record<string, unknown>>;
    const report = await render(detailJob('challan', DEMO.rcWithChallans, record));
    expect(report.pages[0]).toContain('Challan Details');
    expectFooters(report, true);
    expect(lineWith(report.text, 'CHALLAN NUMBER', 'AMOUNT')).toBeDefined();
    for (const challan of challans) expect(report.text).toContain(String(challan.challan_number));
    expect(
      lineWith(report.text, 'Offense Details:', String(challans[0]!.offense_details).split(' ')[0]!),
    ).toBeDefined();
    expect(report.text).toContain('₹');
    expect(report.text).not.toContain(String(record.client_id));
    expect(report.text).not.toContain('No Challan data available.');
  });

  it('Challan Details without challans says so', async () => {
    const record = challanDetails(DEMO.rcClean).data as Record<string, unknown>;
    const report = await render(detailJob('challan', DEMO.rcClean, record));
    expect(report.text).toMatch(/(⚠|\(!\)) No Challan data available\./);
    expect(report.text).not.toContain('Challan 1 of');
    expectFooters(report, true);
  });

  it('an RC the registry does not know', async () => {
    const report = await render(detailJob('rc', DEMO.rcUnknown, rcDetails(DEMO.rcUnknown).data));
    expect(report.text).toMatch(/(⚠|\(!\)) No RC data available\./);
  });
});

describe('hiddenDetailValue', () => {
  it('hides what the modals hide and keeps the rest', () => {
    for (const hidden of [
      null,
      undefined,
      '',
      '  ',
      'n/a',
      'N/A',
      'na',
      'NA',
      'Na',
      'null',
      [],
      {},
      ['', null],
    ]) {
      expect(hiddenDetailValue(hidden), JSON.stringify(hidden)).toBe(true);
    }
    for (const shown of ['No', 'NAGPUR', 0, false, true, 'N/A pending', ['MH12'], { a: 1 }]) {
      expect(hiddenDetailValue(shown), JSON.stringify(shown)).toBe(false);
    }
  });
});

// ---------- untrusted text ----------

describe('untrusted values', () => {
  it('prints names in Devanagari and accents, strips control characters and flows long tables', async () => {
    const job = phoneJob(DEMO.sparsePhone);
    const long = 'X'.repeat(5000);
    job.profile = {
      ...job.profile,
      names: [
        { value: 'रोहन देशमुख', source: 'Gov' },
        { value: 'José Łukasz Ñúñez', source: 'OSINT' },
        { value: 'Evil\u202Eeman\u0007Name', source: 'OSINT' },
        { value: long, source: 'OSINT' },
        ...Array.from({ length: 150 }, (_, i) => ({
          value: `Alias number ${i + 1}`,
          source: 'Caller Apps' as const,
        })),
      ],
    };
    const report = await render(job);
    expect(report.text).toContain('रोहन देशमुख');
    expect(report.text).toContain('José Łukasz Ñúñez');
    expect(report.text).toContain('EvilemanName');
    expect(report.text).not.toMatch(/X{2001}/);
    expect(report.text).toContain('…');
    expect(report.text).toContain('Alias number 150');
    expect(report.text).toContain('Full Names and Alias (continued)');
    expect(report.pages.length).toBeGreaterThan(4);
    expectFooters(report, true);
  });
});
