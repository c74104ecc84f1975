import { type BulkRow, type BulkType, SOURCE_LONG_LABELS } from '@footprint/domain';
import type { BulkJobRow } from '../../db/schema.ts';
import { xlsxBuffer } from '../../xlsx/write.ts';
import { csvLine, slug } from '../audit/query.ts';

/** A phone or e-mail job's columns. */
export const BULK_RESULT_COLUMNS = [
  'line',
  'input',
  'query',
  'status',
  'name',
  'emails',
  'phones',
  'addresses',
  'sources_answered',
  'cost',
  'lookup_id',
] as const;

/** A username job's columns: its accounts in place of the profile's name, e-mails, phones, addresses. */
export const BULK_USERNAME_RESULT_COLUMNS = [
  'line',
  'input',
  'query',
  'status',
  'accounts_found',
  'accounts',
  'sources_answered',
  'cost',
  'lookup_id',
] as const;

const MEDIA_TYPES = {
  csv: 'text/csv; charset=utf-8',
  json: 'application/json; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
} as const;

// The sources by their names, as the results page and the PDFs say them ('sKData' → 'Gov identity records').
const sourcesOf = (row: BulkRow) =>
  row.sources_answered.map((key) => SOURCE_LONG_LABELS[key] ?? key).join('; ');

/** One row's cells; lists are joined with '; ' so that each stays one cell. */
const cellsOf = (row: BulkRow) => [
  row.line,
  row.input,
  row.query,
  row.status,
  row.name ?? '',
  row.emails.join('; '),
  row.phones.join('; '),
  row.addresses.join('; '),
  sourcesOf(row),
  row.cost,
  row.lookup_id ?? '',
];

/** A username row's cells: how many accounts were found, and each as "Site url", joined with '; '. */
const usernameCellsOf = (row: BulkRow) => [
  row.line,
  row.input,
  row.query,
  row.status,
  row.accounts.length,
  row.accounts.map((account) => (account.url ? `${account.site} ${account.url}` : account.site)).join('; '),
  sourcesOf(row),
  row.cost,
  row.lookup_id ?? '',
];

/**
 * A job's columns and each row's cells by its type; `plain`: the columns the server wrote as numbers
 * (line, accounts found, cost), never neutralised.
 */
export function resultLayout(type: BulkType) {
  return type === 'username'
    ? { header: BULK_USERNAME_RESULT_COLUMNS, cells: usernameCellsOf, plain: new Set([0, 4, 7]) }
    : { header: BULK_RESULT_COLUMNS, cells: cellsOf, plain: new Set([0, 9]) };
}

/** bulk-customers-list-csv-2026-01-31.xlsx */
export const bulkFileName = (job: BulkJobRow, format: keyof typeof MEDIA_TYPES) =>
  `bulk-${slug(job.name, 40)}-${job.createdAt.toISOString().slice(0, 10)}.${format}`;

/**
 * The results file in the asked format. CSV goes through the exports' writer (RFC 4180 quoting,
 * formula neutralisation: a cell starting with = + - @ is prefixed so a spreadsheet shows it as text);
 * XLSX cells are written as strings, which a spreadsheet never evaluates.
 */
export async function bulkResults(
  job: BulkJobRow,
  rows: BulkRow[],
  format: keyof typeof MEDIA_TYPES,
): Promise<{ body: string | Buffer; mediaType: string; fileName: string }> {
  const fileName = bulkFileName(job, format);
  const mediaType = MEDIA_TYPES[format];
  if (format === 'json') {
    const body = JSON.stringify({
      job: { id: job.id, type: job.type, name: job.name, case_reference: job.caseReference },
      data: rows,
    });
    return { body, mediaType, fileName };
  }
  const { header, cells, plain } = resultLayout(job.type);
  if (format === 'csv') {
    const body = [csvLine(header), ...rows.map((row) => csvLine(cells(row), plain))].join('');
    return { body, mediaType, fileName };
  }
  const body = await xlsxBuffer([{ name: 'Results', header, rows: rows.map(cells) }]);
  return { body, mediaType, fileName };
}
