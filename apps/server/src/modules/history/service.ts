import {
  accountabilityMessages,
  type CaseReferencePolicyResponse,
  type CreditStatement,
  type HistoryDetail,
  type HistoryEntry,
  type Page,
} from '@footprint/domain';
import { and, count, desc, eq, like, or, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Database } from '../../db/client.ts';
import { creditEntries, lookups, type UserRow, users } from '../../db/schema.ts';
import type { ClientContext } from '../../http/context.ts';
import { noStoredResult, notFound, resultPurged } from '../../http/errors.ts';
import { recordAudit } from '../audit/service.ts';
import { presentLedgerEntry } from '../credits/present.ts';
import { retentionCutoff } from '../lookup/retention.ts';
import {
  type DeploymentDefaults,
  isCaseReferenceRequired,
  readDeploymentSettings,
} from '../settings/service.ts';
import { isAnswered, presentHistoryDetail, presentHistoryEntry } from './present.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A user's own records: the lookups they ran (reopened without a charge) and their credit statement. */
export function createHistoryService(deps: { db: Database; settings: DeploymentDefaults; now?: () => Date }) {
  const { db } = deps;
  const now = deps.now ?? (() => new Date());
  // A cache hit keeps no result of its own: it shows the answer of the lookup it reused.
  const original = alias(lookups, 'original');

  async function cutoff() {
    const { lookupRetentionDays } = await readDeploymentSettings(db, deps.settings);
    return retentionCutoff(now(), lookupRetentionDays);
  }

  /**
   * Refunded: the row was, or its charge came back with a no-record answer (intel refunds "no record";
   * the ledger's refund row is the proof). Only no_record rows look in the ledger.
   */
  const refundedSql = sql<boolean>`(case
    when ${lookups.status} = 'refunded' then true
    when ${lookups.status} = 'no_record' and ${lookups.cost} > 0 then exists (
      select 1 from ${creditEntries} ce
      where ce.user_id = ${lookups.userId} and ce.lookup_id = ${lookups.id} and ce.kind = 'refund'
    )
    else false end)`;

  /** Kept: the row (or the one it reused) still has its result and is within the retention period. */
  const keptSql = (since: Date) => {
    const at = since.toISOString();
    return sql<boolean>`(
      (${lookups.result} is not null and ${lookups.createdAt} >= ${at}::timestamptz)
      or (${original.result} is not null and ${original.createdAt} >= ${at}::timestamptz)
    )`;
  };

  return {
    /** What the search forms need to know: is a case reference mandatory on this deployment? */
    async caseReferencePolicy(): Promise<CaseReferencePolicyResponse> {
      return { required: await isCaseReferenceRequired(db) };
    },

    async list(
      user: UserRow,
      query: { page: number; per_page: number; kind?: string | undefined },
    ): Promise<Page<HistoryEntry>> {
      const filters: SQL[] = [eq(lookups.userId, user.id)];
      if (query.kind) {
        filters.push(
          query.kind.includes(':')
            ? eq(lookups.kind, query.kind)
            : or(eq(lookups.kind, query.kind), like(lookups.kind, `${query.kind}:%`))!,
        );
      }
      const where = and(...filters);
      const since = await cutoff();
      const [rows, [counted]] = await Promise.all([
        db
          .select({
            id: lookups.id,
            kind: lookups.kind,
            query: lookups.query,
            queryTyped: lookups.queryTyped,
            cost: lookups.cost,
            status: lookups.status,
            cacheOf: lookups.cacheOf,
            caseReference: lookups.caseReference,
            createdAt: lookups.createdAt,
            sandbox: lookups.sandbox,
            kept: keptSql(since),
            refunded: refundedSql,
          })
          .from(lookups)
          .leftJoin(original, and(eq(original.id, lookups.cacheOf), eq(original.userId, lookups.userId)))
          .where(where)
          .orderBy(desc(lookups.createdAt), desc(lookups.id))
          .limit(query.per_page)
          .offset((query.page - 1) * query.per_page),
        db.select({ n: count() }).from(lookups).where(where),
      ]);
      return {
        data: rows.map(presentHistoryEntry),
        total: Number(counted?.n ?? 0),
        page: query.page,
        per_page: query.per_page,
      };
    },

    /**
     * One of the user's own lookups with its stored result, at no charge. 404 for anything not
     * theirs, 410 once the result has been purged (or is past the retention period). The reopening
     * is written to the audit trail as `history.view`.
     */
    async open(user: UserRow, id: string, client: ClientContext): Promise<HistoryDetail> {
      if (!UUID.test(id)) throw notFound(accountabilityMessages.lookupNotFound);
      const since = await cutoff();
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
        .leftJoin(original, and(eq(original.id, lookups.cacheOf), eq(original.userId, lookups.userId)))
        .where(and(eq(lookups.id, id), eq(lookups.userId, user.id)));
      if (!row) throw notFound(accountabilityMessages.lookupNotFound);
      const { lookup } = row;
      const source = lookup.cacheOf
        ? { result: row.originalResult, createdAt: row.originalCreatedAt, purgedAt: row.originalPurgedAt }
        : { result: lookup.result, createdAt: lookup.createdAt, purgedAt: lookup.resultPurgedAt };
      const auditBase = {
        action: 'history.view',
        user,
        client,
        target: lookup.id,
        cost: 0,
        caseReference: lookup.caseReference,
      } as const;
      const expired = source.createdAt !== null && source.createdAt.getTime() < since.getTime();
      if (source.purgedAt || (source.result !== null && expired)) {
        await recordAudit(db, {
          ...auditBase,
          outcome: 'failure',
          details: {
            kind: lookup.kind,
            query: lookup.query,
            query_typed: lookup.queryTyped,
            reason: 'result_purged',
          },
        });
        throw resultPurged();
      }
      if (!isAnswered(lookup.status) || source.result === null) {
        throw noStoredResult();
      }
      await recordAudit(db, {
        ...auditBase,
        outcome: 'success',
        details: { kind: lookup.kind, query: lookup.query, query_typed: lookup.queryTyped },
      });
      return presentHistoryDetail(lookup, source.result, {
        answeredAt: lookup.cacheOf
          ? (row.originalCompletedAt ?? row.originalCreatedAt ?? lookup.createdAt)
          : (lookup.completedAt ?? lookup.createdAt),
        reusedFrom: lookup.cacheOf
          ? { lookupId: lookup.cacheOf, caseReference: row.originalCaseReference }
          : null,
      });
    },

    /** The user's ledger, newest first, with the balance it adds up to. */
    async statement(user: UserRow, query: { page: number; per_page: number }): Promise<CreditStatement> {
      const mine = eq(creditEntries.userId, user.id);
      const [rows, [counted], [balance]] = await Promise.all([
        db
          .select()
          .from(creditEntries)
          .where(mine)
          .orderBy(desc(creditEntries.id))
          .limit(query.per_page)
          .offset((query.page - 1) * query.per_page),
        db.select({ n: count() }).from(creditEntries).where(mine),
        db.select({ credits: users.credits }).from(users).where(eq(users.id, user.id)),
      ]);
      return {
        balance: balance?.credits ?? 0,
        data: rows.map(presentLedgerEntry),
        total: Number(counted?.n ?? 0),
        page: query.page,
        per_page: query.per_page,
      };
    },
  };
}

export type HistoryService = ReturnType<typeof createHistoryService>;
