import { messages, SEARCH_FAMILIES, type SearchFamily, typedDiffers } from '@footprint/domain';

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

/** A search's query as the screens show it: as typed, and the normalized form when it reads differently. */
export interface ShownQuery {
  /** What the user typed (a row stored before it was kept: its normalized query, readable). */
  typed: string;
  /** The normalized query, readable, when it says something the typed one does not; else null. */
  normalized: string | null;
}

/**
 * The query column of history: the query as typed first, the normalized form beside it only where
 * the two read differently ('Name: Rohan Deshmukh', matched as 'Name: deshmukh rohan'). A typed form
 * identical to the stored query (rows from before it was kept, phone numbers sent as digits) is shown
 * the readable way displayQuery shows the query.
 */
export function shownQuery(kind: string, query: string, typed: string | null | undefined): ShownQuery {
  const normalized = displayQuery(kind, query);
  if (!typed || typed === query) return { typed: normalized, normalized: null };
  return { typed, normalized: typedDiffers(typed, normalized) ? normalized : null };
}

/** The badge class of a lookup status: no_record is neutral grey, never the colour of a failure. */
export const statusTone = (status: string): string =>
  status === 'complete'
    ? 'status-on'
    : status === 'no_record'
      ? 'chip-slate'
      : status === 'refunded'
        ? 'chip-amber'
        : 'status-off';
