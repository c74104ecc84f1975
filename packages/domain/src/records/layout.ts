/**
 * A record laid out for reading, the same on screen and in the PDFs: label/value rows in the curated
 * order (order.ts), values through the one formatter (format.ts), and every list of records (GST
 * filings, directors, challans, employment history...) as a table with one row per record.
 *
 * Rows hide missing values (as the detail modals always did); table cells show '—' so columns line up.
 */
import { detailLabel } from '../details.ts';
import { isRecord } from '../records.ts';
import { formatRecordValue, isMissingValue, MISSING } from './format.ts';
import { nestedOrder, orderKeys, type RecordSection, sectionOrder } from './order.ts';

export interface RecordRow {
  /** Where the value sits: 'contact_details.email'. */
  path: string;
  label: string;
  value: string;
}

export interface RecordTable {
  /** Where the list sits: 'filing_status', 'hsn_info.goods'. */
  path: string;
  title: string;
  columns: Array<{ key: string; label: string }>;
  /** One entry per record, one cell per column. */
  rows: string[][];
}

export interface RecordLayout {
  rows: RecordRow[];
  tables: RecordTable[];
}

/** Keys that say nothing about the subject (the vendor's request id). */
const HIDDEN_KEYS: ReadonlySet<string> = new Set(['client_id']);
/** Table titles that read better than the key's label (and differ from the modal's own title). */
const TABLE_TITLES: Readonly<Record<string, string>> = { challan_details: 'Challans' };
const MAX_DEPTH = 6;
const MAX_TABLE_ROWS = 2000;

const joinLabel = (prefix: string, key: string) =>
  prefix ? `${prefix} › ${detailLabel(key)}` : detailLabel(key);

/** An array of records, with arrays of arrays of records (GST filings: [[...]]) flattened one level. */
function recordsOf(list: readonly unknown[]): Record<string, unknown>[] | undefined {
  const flat = list.flatMap((item) => (Array.isArray(item) ? item : [item]));
  if (flat.length === 0 || !flat.some(isRecord)) return undefined;
  return flat.filter(isRecord);
}

/** True when nothing in a value would be shown. */
function empty(value: unknown, depth = 0): boolean {
  if (depth > MAX_DEPTH) return true;
  if (Array.isArray(value)) return value.every((item) => empty(item, depth + 1));
  if (isRecord(value)) {
    return Object.entries(value).every(([key, item]) => HIDDEN_KEYS.has(key) || empty(item, depth + 1));
  }
  return isMissingValue(value);
}

/** A cell: scalars formatted; a nested object as 'Label: value; ...'; a nested list joined. */
function cell(key: string, value: unknown, depth = 0): string {
  if (Array.isArray(value)) {
    const parts = value.map((item) => cell(key, item, depth + 1)).filter((part) => part !== MISSING);
    return parts.length > 0 ? parts.join(', ') : MISSING;
  }
  if (isRecord(value)) {
    if (depth > 2) return MISSING;
    const parts = orderKeys(Object.keys(value), nestedOrder(key))
      .filter((k) => !HIDDEN_KEYS.has(k) && !empty(value[k]))
      .map((k) => `${detailLabel(k)}: ${cell(k, value[k], depth + 1)}`);
    return parts.length > 0 ? parts.join('; ') : MISSING;
  }
  return formatRecordValue(key, value);
}

function tableOf(path: string, title: string, key: string, records: Record<string, unknown>[]): RecordTable {
  const keys = new Set<string>();
  for (const record of records) {
    for (const [k, v] of Object.entries(record)) if (!HIDDEN_KEYS.has(k) && !empty(v)) keys.add(k);
  }
  const columns = orderKeys(keys, nestedOrder(key)).map((k) => ({ key: k, label: detailLabel(k) }));
  const rows = records
    .filter((record) => !empty(record))
    .slice(0, MAX_TABLE_ROWS)
    .map((record) => columns.map((column) => cell(column.key, record[column.key])));
  return { path, title, columns, rows };
}

/**
 * Lays a record out for a section: its scalar fields (nested objects as 'Parent › Child' rows) in the
 * curated order, then its lists of records as tables, in the same order. Junk input gives an empty
 * layout; nothing here throws on untrusted data.
 */
export function layoutRecord(record: unknown, section: RecordSection | string): RecordLayout {
  const rows: RecordRow[] = [];
  const tables: RecordTable[] = [];
  const walk = (
    value: Record<string, unknown>,
    order: readonly string[],
    path: string,
    label: string,
    depth: number,
  ) => {
    if (depth > MAX_DEPTH) return;
    for (const key of orderKeys(Object.keys(value), order)) {
      const item = value[key];
      if (HIDDEN_KEYS.has(key) || empty(item)) continue;
      const itemPath = path ? `${path}.${key}` : key;
      const itemLabel = joinLabel(label, key);
      if (Array.isArray(item)) {
        const records = recordsOf(item);
        if (records) {
          const title = !label && TABLE_TITLES[key] ? TABLE_TITLES[key] : itemLabel;
          const table = tableOf(itemPath, title, key, records);
          if (table.rows.length > 0 && table.columns.length > 0) tables.push(table);
        } else rows.push({ path: itemPath, label: itemLabel, value: formatRecordValue(key, item) });
      } else if (isRecord(item)) {
        walk(item, nestedOrder(key), itemPath, itemLabel, depth + 1);
      } else {
        rows.push({ path: itemPath, label: itemLabel, value: formatRecordValue(key, item) });
      }
    }
  };
  try {
    if (isRecord(record)) walk(record, sectionOrder(section), '', '', 0);
    else if (Array.isArray(record)) {
      const records = recordsOf(record);
      if (records) tables.push(tableOf('', 'Records', '', records));
    }
  } catch {
    return { rows: [], tables: [] };
  }
  return { rows, tables };
}

/** Number of things a layout shows: its rows plus its tables' rows. */
export const layoutSize = (layout: RecordLayout): number =>
  layout.rows.length + layout.tables.reduce((sum, table) => sum + table.rows.length, 0);

/** The layout narrowed to rows and table rows containing `query` (any case); tables keep their header. */
export function filterLayout(layout: RecordLayout, query: string): RecordLayout {
  const q = query.trim().toLowerCase();
  if (!q) return layout;
  const has = (text: string) => text.toLowerCase().includes(q);
  return {
    rows: layout.rows.filter((row) => has(row.label) || has(row.value)),
    tables: layout.tables
      .map((table) =>
        has(table.title) || table.columns.some((column) => has(column.label))
          ? table
          : { ...table, rows: table.rows.filter((row) => row.some(has)) },
      )
      .filter((table) => table.rows.length > 0),
  };
}
