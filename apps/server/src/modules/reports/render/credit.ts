/**
 * The credit-report PDF of Corporate Intelligence (spec §2.7 'credit_report', §4: the answer is a PDF
 * download). Drawn from the bureau record the vendor returned: score and summary tiles, the accounts,
 * the enquiries and the addresses on file, then every other field as rows. Vendor answers are
 * untrusted: every value goes through `clean`, and a record of an unexpected shape still draws.
 */
import { formatRupees, isHiddenIntelValue, isRecord, MISSING } from '@footprint/domain';
import { detailGroups } from './detail.ts';
import { clean, readableDay, readableUtc } from './format.ts';
import { drawAbout, drawCover } from './frame.ts';
import { COLOR, type Column, type Row, type Span, STYLE, text, type Writer } from './layout.ts';
import type { CreditReportJob } from './types.ts';

export const CREDIT_TITLE = 'Credit Report';

const records = (value: unknown): Record<string, unknown>[] =>
  Array.isArray(value) ? value.filter(isRecord).slice(0, 200) : [];

/** A cell's text, by the domain's record formatter: hidden values (null, '', 'N/A', '-', 1800-01-01) print as '—'. */
function cell(value: unknown, kind: 'text' | 'day' | 'money' = 'text'): string {
  if (isHiddenIntelValue(value) || typeof value === 'object') return MISSING;
  if (kind === 'day' && typeof value === 'string') return readableDay(value);
  if (kind === 'money') return formatRupees(value) ?? clean(value, { max: 60 });
  return clean(value, { max: 300 }) || MISSING;
}

const num = (value: unknown): number | undefined => {
  const n = typeof value === 'number' ? value : typeof value === 'string' ? Number(value) : Number.NaN;
  return Number.isFinite(n) ? n : undefined;
};

function drawTable(
  writer: Writer,
  title: string,
  columns: Array<Column & { key: string; kind?: 'text' | 'day' | 'money' }>,
  items: Record<string, unknown>[],
): void {
  if (items.length === 0) return;
  const rows: Row[] = items.map((item) => ({
    cells: columns.map((column) => [
      text(cell(item[column.key], column.kind), { ...STYLE.body, size: 8.2 }),
    ]) as Span[][],
  }));
  const options = { columns, rows, title };
  writer.heading(title, { note: `${items.length}`, keep: writer.keepFor(options, 200) });
  writer.table(options);
}

export function drawCreditReport(writer: Writer, job: CreditReportJob): void {
  const record = isRecord(job.record) ? job.record : {};
  const report = isRecord(record.credit_report) ? record.credit_report : {};
  drawCover(writer, {
    title: CREDIT_TITLE,
    kindLabel: 'PAN',
    value: job.subject.pan,
    searchedAt: job.searchedAt,
    generatedAt: job.generatedAt,
    account: job.account,
    lookupId: job.lookupId,
    reportId: job.reportId,
    caseReference: job.caseReference ?? null,
    legalBasis: job.legalBasis ?? null,
    sandbox: job.sandbox,
    extra: [
      ['Name given', [text(clean(job.subject.name, { max: 200 }) || '–', STYLE.value)]],
      ['Mobile given', [text(clean(job.subject.mobile, { max: 40 }) || '–', STYLE.value)]],
      ['Gender given', [text(clean(job.subject.gender, { max: 20 }) || '–', STYLE.value)]],
      ['Consent', [text('Given by the requester (Y)', STYLE.value)]],
    ],
  });

  const score = isRecord(report.score) ? report.score : {};
  const summary = isRecord(report.summary) ? report.summary : {};
  const scoreValue = num(score.score) ?? num(record.credit_score);
  const overdue = num(summary.total_overdue) ?? 0;
  writer.tiles([
    {
      label: 'Score',
      value: scoreValue === undefined ? '–' : String(scoreValue),
      note: clean(score.range, { max: 20 }) || undefined,
      tone: scoreValue !== undefined && scoreValue >= 700 ? 'good' : 'default',
    },
    {
      label: 'Accounts',
      value: cell(summary.total_accounts),
      note: `${cell(summary.active_accounts)} active`,
    },
    { label: 'Balance', value: cell(summary.total_balance, 'money') },
    { label: 'Overdue', value: cell(summary.total_overdue, 'money'), tone: overdue > 0 ? 'warn' : 'default' },
  ]);
  const reasons = Array.isArray(score.reasons)
    ? score.reasons.map((r) => clean(r, { max: 200 })).filter(Boolean)
    : [];
  if (reasons.length > 0) {
    writer.paragraph([text('Score factors: ', STYLE.bodyBold), text(reasons.join('; '), STYLE.body)], {
      after: 8,
    });
  }
  const nameOnReport = clean(report.name_on_report, { max: 200 });
  if (nameOnReport) {
    writer.paragraph(
      [
        text('Name on the bureau record: ', STYLE.bodyBold),
        text(nameOnReport, STYLE.body),
        text(
          report.date_of_birth ? ` · born ${readableDay(clean(report.date_of_birth, { max: 20 }))}` : '',
          STYLE.body,
        ),
      ],
      { after: 8 },
    );
  }

  drawTable(
    writer,
    'Accounts',
    [
      { header: 'Lender', key: 'member_name', weight: 20 },
      { header: 'Type', key: 'account_type', weight: 14 },
      { header: 'Opened', key: 'date_opened', kind: 'day', weight: 11 },
      { header: 'Closed', key: 'date_closed', kind: 'day', weight: 11 },
      { header: 'Sanctioned', key: 'sanctioned_amount', kind: 'money', weight: 12, align: 'right' },
      { header: 'Balance', key: 'current_balance', kind: 'money', weight: 12, align: 'right' },
      { header: 'Overdue', key: 'amount_overdue', kind: 'money', weight: 10, align: 'right' },
      { header: 'Status', key: 'account_status', weight: 10 },
    ],
    records(report.accounts),
  );
  drawTable(
    writer,
    'Enquiries',
    [
      { header: 'Lender', key: 'member_name', weight: 34 },
      { header: 'Date', key: 'enquiry_date', kind: 'day', weight: 18 },
      { header: 'Purpose', key: 'enquiry_purpose', weight: 28 },
      { header: 'Amount', key: 'enquiry_amount', kind: 'money', weight: 20, align: 'right' },
    ],
    records(report.enquiries),
  );
  drawTable(
    writer,
    'Addresses on file',
    [
      { header: 'Address', key: 'address', weight: 52 },
      { header: 'State', key: 'state', weight: 16 },
      { header: 'PIN', key: 'pincode', weight: 10 },
      { header: 'Reported', key: 'reported_date', kind: 'day', weight: 22 },
    ],
    records(report.addresses),
  );

  // Everything else the bureau sent, as the results page would show it.
  const { accounts: _a, enquiries: _e, addresses: _d, score: _s, summary: _u, ...rest } = report;
  const groups = detailGroups(rest, 'Other details');
  for (const group of groups) {
    const shown = group.rows.filter((row) => !isHiddenIntelValue(row.value));
    if (shown.length === 0) continue;
    const columns: Column[] = [
      { header: 'Field', weight: 34 },
      { header: 'Value', weight: 66 },
    ];
    const rows: Row[] = shown.map((row) => ({
      cells: [[text(row.label, STYLE.key)], [text(row.value, { ...STYLE.body, size: 9 })]],
    }));
    const title = group.title ?? 'Other details';
    writer.heading(title, { keep: writer.keepFor({ columns, rows }, 200), level: 2 });
    writer.table({ columns, rows, title });
  }
  if (records(report.accounts).length === 0 && groups.length === 0) {
    writer.notice(
      [text('The bureau returned no account details for this PAN.', { size: 10, color: COLOR.amber })],
      {
        fill: COLOR.amberFill,
        bar: COLOR.amberLine,
      },
    );
  }
  drawAbout(writer, {
    reportId: job.reportId,
    account: job.account,
    extra: `Bureau record retrieved on ${readableUtc(job.searchedAt)} through Corporate Intelligence; dates the bureau reports as unknown print as a dash.`,
  });
}
