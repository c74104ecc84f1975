import {
  accountabilityMessages,
  type CaseReferencePolicyResponse,
  type CreditStatement,
  type ExportFormat,
  type HistoryDetail,
  type HistoryEntry,
  isAnswered,
  type Page,
} from '@footprint/domain';
import { and, count, desc, eq, like, or, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Database } from '../../db/client.ts';
import { creditEntries, lookups, type UserRow, users } from '../../db/schema.ts';
import { noStoredResult, notFound, resultPurged } from '../../errors.ts';
import type { ClientContext } from '../../http/context.ts';
import { recordAudit } from '../audit/service.ts';
import { presentLedgerEntry } from '../credits/present.ts';
import { presentAnswerTime, presentStoredResult } from '../lookup/present.ts';
import { retentionCutoff } from '../lookup/retention.ts';
import {
  type DeploymentDefaults,
  isCaseReferenceRequired,
  readDeploymentSettings,
} from '../settings/service.ts';
import { csvLine, HISTORY_CSV_COLUMNS, historyCsvFileName, resultCsv, resultFileName } from './export.ts';
import { presentHistoryDetail, presentHistoryEntry } from './present.ts';

/** The history CSV's cost and time columns: written by the server, never neutralised. */
const PLAIN_HISTORY_COLUMNS: ReadonlySet<number> = new Set([0, 1, 5]);

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

  /** The columns of a history line, in the list and in its CSV export. */
  const entryColumns = {
    id: lookups.id,
    kind: lookups.kind,
    query: lookups.query,
    queryTyped: lookups.queryTyped,
    cost: lookups.cost,
    status: lookups.status,
    cacheOf: lookups.cacheOf,
    caseReference: lookups.caseReference,
    createdAt: lookups.createdAt,
  };

  /** Kept: the row (or the one it reused) still has its result and is within the retention period. */
  const keptSql = (since: Date) => {
    const at = since.toISOString();
    return sql<boolean>`(
      (${lookups.result} is not null and ${lookups.createdAt} >= ${at}::timestamptz)
      or (${original.result} is not null and ${original.createdAt} >= ${at}::timestamptz)
    )`;
  };

  /** The user's own lookups, of one kind ('corporate:pan') or family ('corporate') when given. */
  const historyWhere = (user: UserRow, kind: string | undefined) => {
    const filters: SQL[] = [eq(lookups.userId, user.id)];
    if (kind) {
      filters.push(
        kind.includes(':')
          ? eq(lookups.kind, kind)
          : or(eq(lookups.kind, kind), like(lookups.kind, `${kind}:%`))!,
      );
    }
    return and(...filters);
  };

  /**
   * One of the user's own lookups with the result it shows (for a cache hit, the result of the lookup
   * it reused). 404 for anything not theirs, 410 once purged or past retention, 404 without a result.
   * Writes `action` to the audit trail (a failure with `reason: result_purged` for a 410).
   */
  async function storedOf(
    user: UserRow,
    id: string,
    client: ClientContext,
    action: 'history.view' | 'lookup.export',
    extra: Record<string, unknown> = {},
  ) {
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
    await recordAudit(db, { ...auditBase, outcome: 'success', details });
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

  return {
    /** What the search forms need to know: is a case reference mandatory on this deployment? */
    async caseReferencePolicy(): Promise<CaseReferencePolicyResponse> {
      return { required: await isCaseReferenceRequired(db) };
    },

    async list(
      user: UserRow,
      query: { page: number; per_page: number; kind?: string | undefined },
    ): Promise<Page<HistoryEntry>> {
      const where = historyWhere(user, query.kind);
      const since = await cutoff();
      const [rows, [counted]] = await Promise.all([
        db
          .select({
            ...entryColumns,
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
      const { lookup, result, answeredAt, reusedFrom } = await storedOf(user, id, client, 'history.view');
      return presentHistoryDetail(lookup, result, { answeredAt, reusedFrom });
    },

    /**
     * One of the user's own lookups as a download, from its stored result (the same 404 and 410 as
     * `open`), free, written to the audit trail as `lookup.export` with the format.
     */
    async exportResult(
      user: UserRow,
      id: string,
      format: ExportFormat,
      client: ClientContext,
    ): Promise<{ fileName: string; mediaType: string; body: string }> {
      const { lookup, result, answeredAt, reusedFrom } = await storedOf(user, id, client, 'lookup.export', {
        format,
      });
      const fileName = resultFileName(lookup.kind, lookup.query, lookup.createdAt, format);
      if (format === 'csv') {
        return { fileName, mediaType: 'text/csv; charset=utf-8', body: resultCsv(lookup.kind, result) };
      }
      const document = {
        lookup_id: lookup.id,
        kind: lookup.kind,
        query: lookup.query,
        query_typed: lookup.queryTyped,
        created_at: lookup.createdAt.toISOString(),
        case_reference: lookup.caseReference,
        result: presentStoredResult(lookup.kind, result, presentAnswerTime(answeredAt, reusedFrom)),
      };
      return {
        fileName,
        mediaType: 'application/json; charset=utf-8',
        body: `${JSON.stringify(document, null, 2)}\n`,
      };
    },

    /**
     * The user's lookups list as CSV, newest first, with the kind filter of `list`, read in keyset
     * batches so memory stays flat however long the history is. The export is written to the trail
     * (`history.export`, with the filter and the row count) before the file is streamed.
     */
    async exportList(
      user: UserRow,
      query: { kind?: string | undefined },
      client: ClientContext,
      batchSize = 1000,
    ): Promise<{ fileName: string; rows: number; chunks: AsyncGenerator<string> }> {
      const where = historyWhere(user, query.kind);
      const [counted] = await db.select({ n: count() }).from(lookups).where(where);
      const rows = Number(counted?.n ?? 0);
      const fileName = historyCsvFileName(query.kind, now());
      await recordAudit(db, {
        action: 'history.export',
        outcome: 'success',
        user,
        client,
        target: fileName,
        cost: 0,
        details: { kind: query.kind ?? null, rows },
      });
      async function* chunks(): AsyncGenerator<string> {
        yield csvLine(HISTORY_CSV_COLUMNS);
        let after: { at: string; id: string } | undefined;
        for (;;) {
          const batch = await db
            .select({
              ...entryColumns,
              // The exact timestamp (microseconds), for the next batch's key.
              at: sql<string>`${lookups.createdAt}::text`,
              refunded: refundedSql,
            })
            .from(lookups)
            // Joined as in `list`: with two tables Drizzle names every column with its table, which
            // `refundedSql`'s subquery (credit_entries has an id too) needs.
            .leftJoin(original, and(eq(original.id, lookups.cacheOf), eq(original.userId, lookups.userId)))
            .where(
              after
                ? and(
                    where,
                    sql`(${lookups.createdAt}, ${lookups.id}) < (${after.at}::timestamptz, ${after.id}::uuid)`,
                  )
                : where,
            )
            .orderBy(desc(lookups.createdAt), desc(lookups.id))
            .limit(batchSize);
          if (batch.length === 0) return;
          yield batch
            .map((row) =>
              csvLine(
                [
                  row.id,
                  row.createdAt.toISOString(),
                  row.kind,
                  row.queryTyped,
                  row.query,
                  row.cost,
                  row.status,
                  row.cacheOf !== null,
                  row.caseReference,
                  Boolean(row.refunded),
                ],
                PLAIN_HISTORY_COLUMNS,
              ),
            )
            .join('');
          if (batch.length < batchSize) return;
          const last = batch[batch.length - 1]!;
          after = { at: last.at, id: last.id };
        }
      }
      return { fileName, rows, chunks: chunks() };
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
