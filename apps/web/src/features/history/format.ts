import { messages, SEARCH_FAMILIES, type SearchFamily } from '@footprint/domain';

const typeLabels: Record<string, string> = messages.intel.typeLabels;

/** 'tel' → 'Phone', 'corporate:corporate_gstin' → 'Corporate · GSTIN Details'. */
export function kindLabel(kind: string): string {
  const [base = kind, type] = kind.split(':', 2);
  const label = messages.history.kinds[base] ?? base;
  if (!type) return label;
  return `${label} · ${typeLabels[type] ?? type}`;
}

/** The base kind ('corporate' of 'corporate:pan'). */
export const baseKind = (kind: string): string => kind.split(':', 1)[0] ?? kind;

const leakLabels: Record<string, string> = {
  name: 'Name',
  email: 'Email',
  phone: 'Phone',
  username: 'Username',
};

/** One row of a stored leak search: its type and its normalized value (name tokens joined). */
export interface StoredLeakRow {
  type: string;
  value: string;
}

/**
 * A leak search is stored as its normalized rows, e.g. '[["name",["deshmukh","rohan"]]]'. Null for
 * anything else in that column.
 */
export function leakRowsOf(query: string): StoredLeakRow[] | null {
  let rows: unknown;
  try {
    rows = JSON.parse(query);
  } catch {
    return null;
  }
  if (!Array.isArray(rows) || rows.length === 0) return null;
  const parsed: StoredLeakRow[] = [];
  for (const row of rows) {
    if (!Array.isArray(row) || typeof row[0] !== 'string') return null;
    const value = Array.isArray(row[1]) ? row[1].filter((v) => typeof v === 'string').join(' ') : row[1];
    if (typeof value !== 'string') return null;
    parsed.push({ type: row[0], value });
  }
  return parsed;
}

/** A stored leak search as a person reads it: 'Name: deshmukh rohan'. */
function leakQuery(query: string): string | null {
  const rows = leakRowsOf(query);
  if (!rows) return null;
  return rows.map((row) => `${leakLabels[row.type] ?? row.type}: ${row.value}`).join(' · ');
}

/**
 * The query as a person reads it: a phone lookup is stored as dial code and number together
 * ('919876543210' → '+91 9876543210'); a leak search as its rows.
 */
export function displayQuery(kind: string, query: string): string {
  const base = baseKind(kind);
  if (base === 'tel' && /^\d{11,14}$/.test(query)) return `+${query.slice(0, -10)} ${query.slice(-10)}`;
  if (base === 'leak') return leakQuery(query) ?? query;
  return query;
}

/** The kinds offered by the filter: the search families, in the order of the sidebar. */
export const filterKinds = Object.keys(SEARCH_FAMILIES) as SearchFamily[];
