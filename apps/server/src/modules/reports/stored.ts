/**
 * The stored lookups reports are drawn from: the requesting user's own, read by prepared statements
 * (every report asks), a free repeat followed to the paid answer it reused.
 */

import type { SourceStatus } from '@footprint/domain';
import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import { heldBy } from '../../access/policy.ts';
import type { Database } from '../../db/client.ts';
import { type LookupRow, lookups, type UserRow, users } from '../../db/schema.ts';

export interface StoredResult {
  payloads: Record<string, unknown>;
  errors: Record<string, string>;
  /** Absent from results stored before source statuses were kept. */
  status?: Record<string, SourceStatus>;
}

/** A stored lookup a report is drawn from; for a cache hit, `original` is the paid lookup it reused. */
export interface Found {
  row: LookupRow;
  result: StoredResult;
  original?: LookupRow;
  /** The legal basis of the case the lookup is filed under, as one line; null without one. */
  legalBasis: string | null;
}

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** When a lookup's sources answered: its completion (its start for a row written before that was kept). */
export const answeredAtOf = (row: LookupRow): string => (row.completedAt ?? row.createdAt).toISOString();

export function createStoredLookups(
  db: Database,
  /** The legal basis of the case a lookup is filed under (the cases module answers it). */
  legalBasisOfLookup: (lookup: LookupRow) => Promise<string | null>,
) {
  /**
   * The newest complete stored lookup of a user's for a query (a 10-digit phone number matches it
   * with any country code), or of one lookup id: prepared once per variant, since every report asks.
   */
  const prepared = new Map<string, ReturnType<typeof prepare>>();
  const prepare = (telSuffix: boolean, byId: boolean) =>
    db
      .select()
      .from(lookups)
      .where(
        and(
          heldBy(lookups, sql.placeholder('userId')),
          eq(lookups.kind, sql.placeholder('kind')),
          inArray(lookups.status, ['complete', 'no_record']),
          telSuffix
            ? and(
                sql`${lookups.query} like ${sql.placeholder('query')}`,
                sql`length(${lookups.query}) between 11 and 14`,
              )
            : eq(lookups.query, sql.placeholder('query')),
          byId ? eq(lookups.id, sql.placeholder('id')) : undefined,
        ),
      )
      .orderBy(desc(lookups.createdAt))
      .limit(1)
      .prepare(`footprint_report_lookup_${telSuffix ? 'tel' : 'exact'}${byId ? '_id' : ''}`);
  const queryOf = (telSuffix: boolean, byId: boolean) => {
    const key = `${telSuffix}/${byId}`;
    let query = prepared.get(key);
    if (!query) {
      query = prepare(telSuffix, byId);
      prepared.set(key, query);
    }
    return query;
  };

  /** A lookup's stored answer: its own, or for a free repeat the one it reused; undefined once purged. */
  async function keptAnswer(row: LookupRow): Promise<Found | undefined> {
    const legalBasis = await legalBasisOfLookup(row);
    if (row.result) return { row, result: row.result as StoredResult, legalBasis };
    if (!row.cacheOf) return undefined;
    const [original] = await db
      .select()
      .from(lookups)
      .where(and(eq(lookups.id, row.cacheOf), heldBy(lookups, row.userId)));
    return original?.result
      ? { row, result: original.result as StoredResult, original, legalBasis }
      : undefined;
  }

  return {
    keptAnswer,

    /**
     * The user's stored lookup for what they searched; a cache hit is followed to the answer it reused,
     * and that lookup (`original`) comes along: its time and case reference are the answer's.
     */
    async forUser(user: UserRow, kind: string, query: string, hint?: unknown): Promise<Found | undefined> {
      const telSuffix = kind === 'tel' && /^\d{10}$/.test(query);
      const byId = typeof hint === 'string' && UUID.test(hint);
      const [row] = await queryOf(telSuffix, byId).execute({
        userId: user.id,
        kind,
        query: telSuffix ? `%${query}` : query,
        id: byId ? hint : null,
      });
      // Kept past its retention period, the result is gone; a free repeat shows the answer it reused.
      return row ? keptAnswer(row) : undefined;
    },

    /** Any user's lookup by id, with who ran it (a case's member may report another member's search). */
    async withRunner(lookupId: string) {
      if (!UUID.test(lookupId)) return undefined;
      const [found] = await db
        .select({ row: lookups, runner: { name: users.name, email: users.email } })
        .from(lookups)
        .innerJoin(users, eq(users.id, lookups.userId))
        .where(eq(lookups.id, lookupId));
      return found;
    },
  };
}

export type StoredLookups = ReturnType<typeof createStoredLookups>;
