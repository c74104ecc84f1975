/**
 * What the bundle and the exports read of a case's searches: each one's stored result (a free
 * repeat's is the one it reused), and the case reference as it goes into a file name.
 */
import { and, eq } from 'drizzle-orm';
import { heldBy } from '../../access/policy.ts';
import type { Database } from '../../db/client.ts';
import { lookups } from '../../db/schema.ts';

/** 'FIR 214/2026' → 'fir-214-2026'. */
export const referenceSlug = (reference: string): string =>
  reference
    .normalize('NFKD')
    .replace(/[^A-Za-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .toLowerCase()
    .slice(0, 60) || 'case';

/** The stored result of a search (a free repeat's is the one it reused), and whether it was purged. */
export async function storedResultOf(
  db: Database,
  lookupId: string,
): Promise<{ result: unknown; purged: boolean }> {
  const [row] = await db
    .select({
      result: lookups.result,
      purgedAt: lookups.resultPurgedAt,
      cacheOf: lookups.cacheOf,
      userId: lookups.userId,
    })
    .from(lookups)
    .where(eq(lookups.id, lookupId));
  if (!row) return { result: null, purged: false };
  if (row.result !== null) return { result: row.result, purged: false };
  if (row.purgedAt) return { result: null, purged: true };
  if (!row.cacheOf) return { result: null, purged: false };
  const [original] = await db
    .select({ result: lookups.result, purgedAt: lookups.resultPurgedAt })
    .from(lookups)
    .where(and(eq(lookups.id, row.cacheOf), heldBy(lookups, row.userId)));
  return { result: original?.result ?? null, purged: original?.result == null && !!original?.purgedAt };
}
