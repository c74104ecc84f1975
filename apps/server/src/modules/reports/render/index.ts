/**
 * Report PDFs (spec §2.5): the lookup report, the AI report, the username report and the RC, UPI and
 * challan detail PDFs.
 * Pure rendering: a job in, PDF bytes out, no I/O besides reading the bundled fonts once per thread.
 * Runs inside the report worker pool (DESIGN §6).
 */

import { detailFacts } from '@footprint/domain';
import { AI_TITLE, drawAiReport } from './ai.ts';
import { CASE_TITLE, drawCaseSummary } from './case.ts';
import { CREDIT_TITLE, drawCreditReport } from './credit.ts';
import { drawDetailReport } from './detail.ts';
import { finishDocument, openDocument } from './frame.ts';
import { drawLookupReport, LOOKUP_TITLE } from './lookup.ts';
import type { CaseSummaryJob, ReportJob } from './types.ts';
import { drawUsernameReport, USERNAME_TITLE } from './username.ts';

export { detailGroups, detailLabel, hiddenDetailValue } from './detail.ts';
export type * from './types.ts';

const KIND_NAME = { tel: 'phone number', email: 'e-mail address' } as const;

function titleOf(job: Exclude<ReportJob, CaseSummaryJob>): string {
  if (job.template === 'lookup') return LOOKUP_TITLE;
  if (job.template === 'ai') return AI_TITLE;
  if (job.template === 'credit') return CREDIT_TITLE;
  if (job.template === 'username') return USERNAME_TITLE;
  return detailFacts(job.type).title;
}

function subjectOf(job: Exclude<ReportJob, CaseSummaryJob>): string {
  const who = `${job.account.name} <${job.account.email}>`;
  if (job.template === 'detail') return `${detailFacts(job.type).title} for ${job.id}, for ${who}`;
  if (job.template === 'credit') return `${CREDIT_TITLE} for PAN ${job.subject.pan}, for ${who}`;
  if (job.template === 'username') return `${USERNAME_TITLE} of ${job.query}, for ${who}`;
  const what = job.template === 'ai' ? 'AI analysis' : 'Lookup';
  return `${what} of ${KIND_NAME[job.kind]} ${job.query}, for ${who}`;
}

function keywordOf(job: Exclude<ReportJob, CaseSummaryJob>): string {
  if (job.template === 'detail') return job.type;
  if (job.template === 'credit') return 'credit_report';
  if (job.template === 'username') return 'username';
  return job.kind;
}

/** Draws a report. The same job always gives the same bytes (dates come from the job). */
export async function renderReport(job: ReportJob): Promise<Buffer> {
  if (job.template === 'case') {
    const { writer, bytes } = openDocument({
      title: `${CASE_TITLE} — ${job.case.reference}`,
      subject: `${CASE_TITLE} of case ${job.case.reference}, for ${job.account.name} <${job.account.email}>`,
      reportId: job.reportId,
      generatedAt: job.generatedAt,
      sandbox: job.sandbox,
      keywords: [`case ${job.case.id}`, 'case_summary'],
    });
    drawCaseSummary(writer, job);
    finishDocument(writer, { title: CASE_TITLE, reportId: job.reportId, sandbox: job.sandbox });
    return bytes;
  }
  const title = titleOf(job);
  const searched =
    job.template === 'detail' ? job.id : job.template === 'credit' ? job.subject.pan : job.query;
  const { writer, bytes } = openDocument({
    title: `${title} — ${searched}`,
    subject: subjectOf(job),
    reportId: job.reportId,
    lookupId: job.lookupId,
    generatedAt: job.generatedAt,
    sandbox: job.sandbox,
    keywords: [keywordOf(job)],
  });
  switch (job.template) {
    case 'lookup':
      drawLookupReport(writer, job);
      break;
    case 'ai':
      drawAiReport(writer, job);
      break;
    case 'detail':
      drawDetailReport(writer, job);
      break;
    case 'credit':
      drawCreditReport(writer, job);
      break;
    case 'username':
      drawUsernameReport(writer, job);
      break;
  }
  finishDocument(writer, { title, reportId: job.reportId, sandbox: job.sandbox });
  return bytes;
}

/**
 * Draws a small throwaway report, so that a new worker thread pays its one-off costs (font parsing,
 * JIT, glyph shaping) before the first real report. Optional; call it once when a worker starts.
 */
export async function warmUp(): Promise<void> {
  await renderReport({
    template: 'detail',
    reportId: '00000000-0000-4000-8000-000000000000',
    lookupId: '00000000-0000-4000-8000-000000000000',
    generatedAt: '2026-01-01T00:00:00.000Z',
    searchedAt: '2026-01-01T00:00:00.000Z',
    account: { name: 'Warm-up', email: 'warm-up@example.test' },
    sandbox: true,
    type: 'challan',
    id: 'MH12AB1234',
    record: {
      rc_number: 'MH12AB1234',
      challan_details: [
        {
          challan_number: 'MH0000000000',
          amount: 500,
          challan_status: 'Pending',
          accused_name: 'रोहन Łukasz',
        },
      ],
    },
  });
}
