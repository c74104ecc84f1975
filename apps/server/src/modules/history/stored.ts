import { accountabilityMessages, isAnswered } from '@footprint/domain';
import { and, eq } from 'drizzle-orm';
import { sees } from '../../access/policy.ts';
import type { Database } from '../../db/client.ts';
import { lookups, type UserRow } from '../../db/schema.ts';
import { noStoredResult, notFound, resultPurged } from '../../errors.ts';
import type { ClientContext } from '../../http/context.ts';
import { recordAudit } from '../audit/service.ts';
import { original, reusedJoin } from './queries.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * One of the user's own lookups with the result it shows (for a cache hit, the result of the lookup
 * it reused). 404 for anything not theirs, 410 once purged or past retention, 404 without a result.
 * Writes `action` to the audit trail (a failure with `reason: result_purged` for a 410).
 */
export async function storedOf(
  db: Database,
  since: Date,
  user: UserRow,
  id: string,
  client: ClientContext,
  action: 'history.view' | 'lookup.export',
  extra: Record<string, unknown> = {},
  /** False: the caller writes the success row itself (an export, once its bytes are known). */
  auditSuccess = true,
) {
  if (!UUID.test(id)) throw notFound(accountabilityMessages.lookupNotFound);
  const [row] = await db
    .select({
      lookup: lookups,
      originalResult: original.result,
      originalCreatedAt: original.createdAt,
      originalPurgedAt: original.resultPurgedAt,
      originalCompletedAt: original.completedAt,
      originalCaseReference: original.caseReference,
    })
    .from(lookups)
    .leftJoin(original, reusedJoin)
    .where(and(eq(lookups.id, id), sees(user, lookups)));
  if (!row) throw notFound(accountabilityMessages.lookupNotFound);
  const { lookup } = row;
  const source = lookup.cacheOf
    ? { result: row.originalResult, createdAt: row.originalCreatedAt, purgedAt: row.originalPurgedAt }
    : { result: lookup.result, createdAt: lookup.createdAt, purgedAt: lookup.resultPurgedAt };
  const auditBase = {
    action,
    user,
    client,
    target: lookup.id,
    cost: 0,
    caseReference: lookup.caseReference,
  } as const;
  const details = { kind: lookup.kind, query: lookup.query, query_typed: lookup.queryTyped, ...extra };
  const expired = source.createdAt !== null && source.createdAt.getTime() < since.getTime();
  if (source.purgedAt || (source.result !== null && expired)) {
    await recordAudit(db, {
      ...auditBase,
      outcome: 'failure',
      details: { ...details, reason: 'result_purged' },
    });
    throw resultPurged();
  }
  if (!isAnswered(lookup.status) || source.result === null) {
    throw noStoredResult();
  }
  if (auditSuccess) await recordAudit(db, { ...auditBase, outcome: 'success', details });
  return {
    lookup,
    result: source.result,
    answeredAt: lookup.cacheOf
      ? (row.originalCompletedAt ?? row.originalCreatedAt ?? lookup.createdAt)
      : (lookup.completedAt ?? lookup.createdAt),
    reusedFrom: lookup.cacheOf
      ? { lookupId: lookup.cacheOf, caseReference: row.originalCaseReference }
      : null,
  };
}
