/**
 * The lookup report drawn as HTML (render/html.ts) by the same section code as its PDF: the rich demo
 * phone's HTML holds every heading and value of the report, says the same words as the pdfkit PDF read
 * back with pdftotext, and prints untrusted values as text, never as markup.
 */
import {
  analyzePhoneLookup,
  extraRecords,
  mergePhoneProfile,
  PHONE_SOURCES,
  type PhoneLookupResponse,
  PROFILE_SECTIONS,
  phoneHighlights,
  SANDBOX_BANNER,
  sourceStatusOf,
} from '@footprint/domain';
import { describe, expect, it } from 'vitest';
import { HEADER_TAGLINE } from '../../src/modules/reports/render/frame.ts';
import { renderLookupHtml } from '../../src/modules/reports/render/html.ts';
import { renderReport } from '../../src/modules/reports/render/index.ts';
import type { LookupReportJob } from '../../src/modules/reports/render/types.ts';
import { sandboxPayload } from '../../src/sandbox/index.ts';
import { pdfText } from '../support/pdf.ts';

function phoneJob(value = '919876543210'): LookupReportJob {
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
    reportId: '7f3c2a91-5b6d-4e8f-9a0b-1c2d3e4f5a6b',
    lookupId: '0b9e8d7c-6f5a-4b3c-8d2e-1f0a9b8c7d6e',
    generatedAt: '2026-10-01T07:12:45.000Z',
    searchedAt: '2026-10-01T06:58:02.000Z',
    account: { name: 'Insp. Kavita Rao', email: 'kavita.rao@cyber.police.example' },
    sandbox: true,
    kind: 'tel',
    query: '+91 9876543210',
    caseReference: 'CR-2026/PUNE/0412',
    profile: mergePhoneProfile(response),
    analysis: analyzePhoneLookup(response, { sourceStatus, answeredAt: '2026-10-01T06:58:04.000Z' }),
    highlights: phoneHighlights(response),
    breaches: [],
    registeredSites: [],
    extraRecords: extraRecords(response.osintData),
    sourceErrors: response.errors,
    sourceStatus,
  };
}

const ENTITIES: Record<string, string> = {
  '&amp;': '&',
  '&lt;': '<',
  '&gt;': '>',
  '&quot;': '"',
  '&#39;': "'",
};

/** The visible text of the document's body: tags dropped, line breaks kept, entities decoded. */
function bodyText(html: string): string {
  const body = html.slice(html.indexOf('<body>'), html.indexOf('</body>'));
  return body
    .replace(/<br>/g, '\n')
    .replace(/<[^>]*>/g, ' ')
    .replace(/&(amp|lt|gt|quot|#39);/g, (entity) => ENTITIES[entity]!);
}

const words = (value: string): string[] => value.split(/\s+/).filter(Boolean);
const squash = (value: string): string => value.replace(/\s+/g, ' ').trim();

describe('lookup report as HTML', () => {
  const job = phoneJob();
  const { html, headerTemplate, footerTemplate } = renderLookupHtml(job);
  const visible = squash(bodyText(html));

  it('holds every section heading and value of the rich demo phone', () => {
    const headings = [
      'Footprint lookup report',
      'Merged profile',
      'Phone highlights',
      'Profile summary',
      'Extra records',
      'Sources',
      'About this report',
      ...PROFILE_SECTIONS.filter(
        ({ key }) => ((job.profile as unknown as Record<string, unknown[]>)[key] ?? []).length > 0,
      ).map(({ title }) => title),
    ];
    expect(headings.length).toBeGreaterThan(10);
    for (const heading of headings) expect(visible).toContain(heading);

    const values: string[] = [job.query, job.reportId, job.lookupId, job.account.email, SANDBOX_BANNER];
    for (const attribute of job.analysis!.attributes)
      for (const v of attribute.values) values.push(v.value, ...v.sources);
    // Every row of every profile section: its value, or the platform, role or qualification it names.
    for (const { key } of PROFILE_SECTIONS) {
      const items = (job.profile as unknown as Record<string, Array<Record<string, unknown>>>)[key] ?? [];
      for (const item of items) {
        const shown = item.value ?? item.platform ?? item.title ?? item.degree;
        if (typeof shown === 'string' && shown.trim()) values.push(shown);
      }
    }
    for (const record of job.extraRecords) for (const [label, v] of record.additional) values.push(label, v);
    expect(values.length).toBeGreaterThan(40);
    for (const value of values) expect(visible).toContain(squash(value));
  });

  it('says the same words as the pdfkit PDF, the page header and footer repeated by the browser', async () => {
    const text = await pdfText(await renderReport(job));
    const pages = text.split('\f').filter((page) => page.trim());
    // Page furniture is printed by the browser's header and footer templates, once per printed page.
    const furniture = words(
      `Footprint Footprint lookup report ${HEADER_TAGLINE} Report ${job.reportId} · Page 1 of 9 ${SANDBOX_BANNER}`,
    ).length;
    const pdfWords = pages.reduce(
      (sum, page) =>
        sum +
        words(
          page
            .split('\n')
            .filter((line) => !line.includes('(continued)'))
            .join('\n'),
        ).length -
        furniture,
      0,
    );
    const htmlWords = words(visible).length;
    expect(pdfWords).toBeGreaterThan(1000);
    expect(Math.abs(htmlWords - pdfWords) / pdfWords).toBeLessThan(0.02);
    expect(headerTemplate).toContain(HEADER_TAGLINE);
    expect(footerTemplate).toContain('class="pageNumber"');
    expect(footerTemplate).toContain('class="totalPages"');
    expect(footerTemplate).toContain(SANDBOX_BANNER);
  });

  it('prints untrusted values as text, never as markup', () => {
    const hostile = phoneJob();
    hostile.query = '<img src=x onerror=alert(1)>';
    hostile.profile.names = [{ value: '<script>alert("x")</script> & Co', source: 'OSINT' }];
    hostile.account = { name: 'A "quoted" <b>name</b>', email: 'a@example.test' };
    const out = renderLookupHtml(hostile).html;
    expect(out).not.toContain('<script>');
    expect(out).not.toContain('<img');
    expect(out).not.toContain('<b>name');
    expect(out).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; Co');
    expect(squash(bodyText(out))).toContain('<script>alert("x")</script> & Co');
  });
});
