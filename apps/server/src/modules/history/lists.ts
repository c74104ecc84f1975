/** A user's lookups: a page of the list, the whole list as CSV, and the credit statement. */
import type { CreditStatement, HistoryEntry, Page } from '@footprint/domain';
import { and, count, desc, eq, sql } from 'drizzle-orm';
import { heldBy } from '../../access/policy.ts';
import type { Database } from '../../db/client.ts';
import { creditEntries, lookups, type UserRow, users } from '../../db/schema.ts';
import type { ClientContext } from '../../http/context.ts';
import { recordAudit } from '../audit/service.ts';
import { presentLedgerEntry } from '../credits/present.ts';
import { csvLine, HISTORY_CSV_COLUMNS, historyCsvFileName } from './export.ts';
import { presentHistoryEntry } from './present.ts';
import { entryColumns, historyWhere, keptSql, original, refundedSql, reusedJoin } from './queries.ts';

/** The history CSV's cost and time columns: written by the server, never neutralised. */
const PLAIN_HISTORY_COLUMNS: ReadonlySet<number> = new Set([0, 1, 5]);

/** A page of the user's own lookups, newest first, of one kind or family when given. */
export async function listLookups(
  db: Database,
  since: Date,
  user: UserRow,
  query: { page: number; per_page: number; kind?: string | undefined },
): Promise<Page<HistoryEntry>> {
  const where = historyWhere(user, query.kind);
  const [rows, [counted]] = await Promise.all([
    db
      .select({ ...entryColumns, sandbox: lookups.sandbox, kept: keptSql(since), refunded: refundedSql })
      .from(lookups)
      .leftJoin(original, reusedJoin)
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
}

/**
 * The user's lookups list as CSV, newest first, with the kind filter of the list, read in keyset
 * batches so memory stays flat however long the history is. The export is written to the trail
 * (`history.export`, with the filter and the row count) before the file is streamed.
 */
export async function exportLookups(
  db: Database,
  today: Date,
  user: UserRow,
  query: { kind?: string | undefined },
  client: ClientContext,
  batchSize = 1000,
): Promise<{ fileName: string; rows: number; chunks: AsyncGenerator<string> }> {
  const where = historyWhere(user, query.kind);
  const [counted] = await db.select({ n: count() }).from(lookups).where(where);
  const rows = Number(counted?.n ?? 0);
  const fileName = historyCsvFileName(query.kind, today);
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
        // Joined as in the list: with two tables Drizzle names every column with its table, which
        // `refundedSql`'s subquery (credit_entries has an id too) needs.
        .leftJoin(original, reusedJoin)
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
}

/** The user's ledger, newest first, with the balance it adds up to. */
export async function creditStatement(
  db: Database,
  user: UserRow,
  query: { page: number; per_page: number },
): Promise<CreditStatement> {
  const mine = heldBy(creditEntries, user.id);
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
}
