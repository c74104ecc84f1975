import { accountabilityMessages, isAnswered } from '@footprint/domain';
import { and, eq, sql } from 'drizzle-orm';
import { holds, sees } from '../../access/policy.ts';
import type { Database } from '../../db/client.ts';
import { lookups, type UserRow, users } from '../../db/schema.ts';
import { noStoredResult, notFound, resultPurged } from '../../errors.ts';
import type { ClientContext } from '../../http/context.ts';
import { recordAudit } from '../audit/service.ts';
import { heldSql } from '../lookup/retention.ts';
import { original, reusedJoin } from './queries.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * A lookup the user may read (their own, or one of the people they supervise: access policy `sees`)
 * with the result it shows (for a cache hit, the result of the lookup it reused), and who made it
 * when it was not the caller. 404 for anything else, 410 once purged or past retention, 404 without a result.
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
      holder: { id: users.id, name: users.name, email: users.email },
      held: heldSql(sql`coalesce(${lookups.cacheOf}, ${lookups.id})`).mapWith(Boolean),
    })
    .from(lookups)
    .innerJoin(users, eq(users.id, lookups.userId))
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
  // A supervisor's reading names whose search it was.
  const theirs = holds(user, lookup.userId) ? undefined : row.holder;
  const details = {
    kind: lookup.kind,
    query: lookup.query,
    query_typed: lookup.queryTyped,
    ...(theirs ? { holder_id: theirs.id, holder_email: theirs.email } : {}),
    ...extra,
  };
  // Past the retention period, unless a legal hold keeps it.
  const expired = source.createdAt !== null && source.createdAt.getTime() < since.getTime() && !row.held;
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
    holder: theirs,
  };
}
