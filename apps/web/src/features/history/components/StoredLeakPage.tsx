import {
  LEAK_FIELD_TYPES,
  type LeakFieldType,
  type LeakRecord,
  messages,
  SANDBOX_BANNER,
} from '@footprint/domain';
import { useMemo } from 'react';
import { LeakRecordCard } from '../../leaks/components/LeakRecordCard.tsx';
import { needlesOf } from '../../leaks/highlight.ts';

const t = messages.history;

/** The page a leak search kept (leaks/service.ts): the records as they were shown, with their totals. */
export interface StoredLeakResult {
  total: number;
  total_capped?: boolean;
  page: number;
  sandbox?: boolean;
  data: LeakRecord[];
}

const isLeakType = (value: unknown): value is LeakFieldType =>
  typeof value === 'string' && (LEAK_FIELD_TYPES as readonly string[]).includes(value);

/** A stored leak result holds its records (older ones kept the total only and are shown as stored). */
export function isStoredLeakResult(value: unknown): value is StoredLeakResult {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return typeof v.total === 'number' && typeof v.page === 'number' && Array.isArray(v.data);
}

/**
 * The searched rows from the stored query ('[["name",["deshmukh","rohan"]],["phone","9876543210"]]'),
 * so the kept records mark what matched exactly as the finder did.
 */
function rowsOf(query: string): { type: LeakFieldType; value: string }[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(query);
  } catch {
    return [];
  }
  if (!Array.isArray(parsed)) return [];
  return parsed.flatMap((row) => {
    if (!Array.isArray(row) || !isLeakType(row[0])) return [];
    const value = Array.isArray(row[1])
      ? row[1].filter((v): v is string => typeof v === 'string').join(' ')
      : row[1];
    return typeof value === 'string' ? [{ type: row[0], value }] : [];
  });
}

/** The kept page of a leak search, drawn with the finder's own record cards. */
export function StoredLeakPage({ query, result }: { query: string; result: StoredLeakResult }) {
  const needles = useMemo(() => needlesOf(rowsOf(query)), [query]);
  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center gap-2">
        <p className="text-sm text-muted tabular-nums">
          {t.leakPage(result.page, result.data.length, result.total, result.total_capped === true)}
        </p>
        {result.sandbox === true && (
          <p role="note" className="sandbox-banner">
            {SANDBOX_BANNER}
          </p>
        )}
      </div>
      {result.data.length === 0 ? (
        <p className="text-sm text-muted">{messages.leaks.noResults}</p>
      ) : (
        <ul className="leak-grid">
          {result.data.map((record, index) => (
            <LeakRecordCard key={record.id || `row-${index}`} record={record} needles={needles} />
          ))}
        </ul>
      )}
      {result.total > result.data.length && <p className="text-xs text-muted">{t.leakSearchAgain}</p>}
    </div>
  );
}
