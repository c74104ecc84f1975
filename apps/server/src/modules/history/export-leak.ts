/**
 * A leak search's export: every match of the search (not only the page the user saw), read again from
 * the leak index in batches and streamed, up to LEAK_EXPORT_CAP records, which the file states in its
 * header ('2,934 records match; this file holds all 2,934'). The records are the pages' own: the same
 * capped match set, sorted by id (leaks/pages.ts `readPage`), then the vendors' records a federated
 * search stored with its answer.
 */
import {
  isRecord,
  LEAK_EXPORT_CAP,
  LEAK_FIELD_TYPES,
  LEAK_TOTAL_CAP,
  type LeakFieldType,
  type LeakRecord,
  messages,
} from '@footprint/domain';
import type { Database } from '../../db/client.ts';
import { xlsxStream } from '../../xlsx/write.ts';
import { countMatches, type LeakScope, readPage } from '../leaks/pages.ts';
import type { LeakCondition } from '../leaks/query.ts';
import { LEAK_CSV_COLUMNS, leakRows } from './export.ts';
import {
  baseDocument,
  csvHeader,
  type ExportSource,
  type FileFormat,
  fileLine,
  headerJson,
  headerOf,
  sheetCell,
} from './export-file.ts';

/** Records read from the index at a time. */
const BATCH = 500;

/** The search's conditions, read back from its stored query key (leaks/query.ts `queryKey`). */
export function conditionsOfKey(key: string): LeakCondition[] | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(key);
  } catch {
    return null;
  }
  if (!Array.isArray(parsed) || parsed.length === 0) return null;
  const conditions: LeakCondition[] = [];
  for (const item of parsed) {
    if (!Array.isArray(item) || item.length !== 2) return null;
    const [type, value] = item as [unknown, unknown];
    if (!LEAK_FIELD_TYPES.includes(type as LeakFieldType)) return null;
    if (type === 'name') {
      if (!Array.isArray(value) || value.length === 0 || !value.every((v) => typeof v === 'string'))
        return null;
      conditions.push({ type: 'name', value: value as string[] });
    } else {
      if (typeof value !== 'string' || value === '') return null;
      conditions.push({ type: type as LeakFieldType, value });
    }
  }
  return conditions;
}

/** The vendors' records a federated search stored with its answer (leaks/federation.ts). */
const vendorRecordsOf = (result: unknown): LeakRecord[] => {
  const federation = isRecord(result) && isRecord(result.federation) ? result.federation : {};
  return Array.isArray(federation.records)
    ? (federation.records.filter(isRecord) as unknown as LeakRecord[])
    : [];
};

export interface LeakExport {
  /** Local matches counted (up to the cap), plus the vendors' records. */
  matches: number;
  /** More local records match than the cap. */
  capped: boolean;
  /** Records the file holds. */
  held: number;
  chunks: AsyncGenerator<string | Buffer>;
}

/**
 * Counts the search's matches now, then gives the file as chunks: nothing but one batch of records is
 * held in memory at a time. A search whose stored key cannot be read exports the page it stored.
 */
export async function leakExport(
  db: Database,
  scope: LeakScope,
  source: ExportSource,
  format: FileFormat,
  exportedAt: Date,
): Promise<LeakExport> {
  const conditions = conditionsOfKey(source.lookup.query);
  const stored = isRecord(source.result) ? source.result : {};
  const vendors = vendorRecordsOf(stored);
  const counted = conditions ? await countMatches(db, conditions, scope) : 0;
  // countMatches counts up to one past LEAK_TOTAL_CAP: the export cannot promise more than that.
  const cap = Math.min(LEAK_EXPORT_CAP, LEAK_TOTAL_CAP);
  const capped = counted > cap;
  const local = Math.min(counted, cap);
  const storedPage =
    !conditions && Array.isArray(stored.data)
      ? (stored.data.filter(isRecord) as unknown as LeakRecord[])
      : [];
  const matches = (capped ? cap : counted) + vendors.length + storedPage.length;
  const held = local + vendors.length + storedPage.length;
  const note = messages.exports.leakHolds(held, matches, capped);
  const header: Array<[string, string]> = [
    ...headerOf(source, exportedAt),
    ['matches', capped ? `${cap}+` : String(matches)],
    ['records_in_file', String(held)],
    ['cap', String(cap)],
    ['note', note],
  ];

  async function* records(): AsyncGenerator<LeakRecord[]> {
    if (conditions)
      for (let offset = 0; offset < local; offset += BATCH) {
        const page = await readPage(
          db,
          conditions,
          { offset, limit: Math.min(BATCH, local - offset) },
          scope,
        );
        if (page.data.length === 0) break;
        yield page.data;
      }
    if (vendors.length > 0) yield vendors;
    if (storedPage.length > 0) yield storedPage;
  }

  async function* csv(): AsyncGenerator<string> {
    yield csvHeader(header) + fileLine(LEAK_CSV_COLUMNS);
    for await (const batch of records())
      yield leakRows({ data: batch })
        .map((row) => fileLine(row))
        .join('');
  }

  async function* json(): AsyncGenerator<string> {
    const head = {
      ...baseDocument(source),
      ...headerJson(source, exportedAt),
      export: { matches, capped, records_in_file: held, cap, note },
    };
    yield `${JSON.stringify(head, null, 2).replace(/\n}$/, '')},\n  "records": [`;
    let sep = '';
    for await (const batch of records()) {
      let text = '';
      for (const record of batch) {
        text += `${sep}\n    ${JSON.stringify(record)}`;
        sep = ',';
      }
      yield text;
    }
    yield '\n  ]\n}\n';
  }

  async function* recordRows() {
    for await (const batch of records())
      for (const row of leakRows({ data: batch })) yield row.map(sheetCell);
  }

  async function* xlsx(): AsyncGenerator<Buffer> {
    const out = xlsxStream([
      {
        name: messages.exports.sheets.about,
        header: ['key', 'value'],
        rows: header.map((pair) => pair.map(sheetCell)),
      },
      { name: messages.exports.sheets.records, header: [...LEAK_CSV_COLUMNS], rows: recordRows() },
    ]);
    try {
      for await (const chunk of out) yield chunk as Buffer;
    } finally {
      out.destroy();
    }
  }

  const chunks = format === 'csv' ? csv() : format === 'json' ? json() : xlsx();
  return { matches, capped, held, chunks };
}
