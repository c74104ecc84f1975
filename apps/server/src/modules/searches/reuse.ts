import type { SearchKind } from '@footprint/domain';
import { and, desc, eq, gt, inArray, isNotNull } from 'drizzle-orm';
import { heldBy } from '../../access/policy.ts';
import type { Database } from '../../db/client.ts';
import { lookups } from '../../db/schema.ts';

/** The newest moment a stored result may come from and still be served: the cache window, capped by retention. */
export function reuseWindowStart(now: Date, cacheHours: number, retentionDays: number): Date {
  const hours = Math.min(cacheHours, retentionDays * 24);
  return new Date(now.getTime() - hours * 3_600_000);
}

/** The user's own paid search that an identical one may reuse: answered, its result still stored. */
export interface Reusable {
  id: string;
  result: unknown;
  sandbox: boolean;
  answered: string[];
  errors: Record<string, string>;
  /** When its sources answered (its completion; its start for a row written before that was kept). */
  answeredAt: Date;
  /** Its own case reference, which a repeat keeps pointing at. */
  caseReference: string | null;
  /** 'no_record' when its sources found nothing: a replay of it found nothing either. */
  status: 'complete' | 'no_record';
}

/** The user's newest answered (complete or no_record) search of this kind and query since `since` whose result is still stored. */
export async function findReusable(
  db: Database,
  search: { userId: string; kind: SearchKind; query: string; since: Date },
): Promise<Reusable | undefined> {
  const [hit] = await db
    .select({
      id: lookups.id,
      result: lookups.result,
      sandbox: lookups.sandbox,
      answered: lookups.sourcesAnswered,
      errors: lookups.sourceErrors,
      createdAt: lookups.createdAt,
      completedAt: lookups.completedAt,
      caseReference: lookups.caseReference,
      status: lookups.status,
    })
    .from(lookups)
    .where(
      and(
        heldBy(lookups, search.userId),
        eq(lookups.kind, search.kind),
        eq(lookups.query, search.query),
        inArray(lookups.status, ['complete', 'no_record']),
        isNotNull(lookups.result),
        gt(lookups.createdAt, search.since),
      ),
    )
    .orderBy(desc(lookups.createdAt))
    .limit(1);
  if (!hit) return undefined;
  const { createdAt, completedAt, ...rest } = hit;
  return {
    ...rest,
    status: hit.status === 'no_record' ? 'no_record' : 'complete',
    errors: (hit.errors ?? {}) as Record<string, string>,
    answeredAt: completedAt ?? createdAt,
  };
}
