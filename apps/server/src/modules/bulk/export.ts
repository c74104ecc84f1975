import { type BulkRow, SOURCE_LONG_LABELS } from '@footprint/domain';
import type { BulkJobRow } from '../../db/schema.ts';
import { xlsxBuffer } from '../../xlsx/write.ts';
import { csvLine, slug } from '../audit/query.ts';

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

const MEDIA_TYPES = {
  csv: 'text/csv; charset=utf-8',
  json: 'application/json; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
} as const;

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
  // The sources by their names, as the results page and the PDFs say them ('sKData' → 'Gov identity records').
  row.sources_answered.map((key) => SOURCE_LONG_LABELS[key] ?? key).join('; '),
  row.cost,
  row.lookup_id ?? '',
];

/** Columns the server wrote as numbers: never neutralised (line, cost). */
const PLAIN = new Set([0, 9]);

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
  if (format === 'csv') {
    const body = [csvLine(BULK_RESULT_COLUMNS), ...rows.map((row) => csvLine(cellsOf(row), PLAIN))].join('');
    return { body, mediaType, fileName };
  }
  const body = await xlsxBuffer([{ name: 'Results', header: BULK_RESULT_COLUMNS, rows: rows.map(cellsOf) }]);
  return { body, mediaType, fileName };
}
