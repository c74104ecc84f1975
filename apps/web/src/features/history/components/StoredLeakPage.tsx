import {
  LEAK_FIELD_TYPES,
  type LeakFieldType,
  type LeakRecord,
  messages,
  SANDBOX_BANNER,
} from '@footprint/domain';
import { useMemo } from 'react';
import { LeakRecordCard } from '../../../components/LeakRecordCard.tsx';
import { needlesOf } from '../../../lib/leak-highlight.ts';
import { leakRowsOf } from '../format.ts';

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

/** The searched rows of the stored query, so the kept records mark what matched as the finder did. */
const searchedRows = (query: string): { type: LeakFieldType; value: string }[] =>
  (leakRowsOf(query) ?? []).flatMap((row) =>
    isLeakType(row.type) ? [{ type: row.type, value: row.value }] : [],
  );

/** The kept page of a leak search, drawn with the finder's own record cards. */
export function StoredLeakPage({ query, result }: { query: string; result: StoredLeakResult }) {
  const needles = useMemo(() => needlesOf(searchedRows(query)), [query]);
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
