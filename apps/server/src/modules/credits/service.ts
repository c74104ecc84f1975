import { randomUUID } from 'node:crypto';
import { messages, type SearchKind } from '@footprint/domain';
import { and, eq, sql } from 'drizzle-orm';
import type { Database, Executor, Transaction } from '../../db/client.ts';
import { executeNamed } from '../../db/named-statement.ts';
import { rowsOf } from '../../db/rows.ts';
import { creditEntries, lookups, users } from '../../db/schema.ts';

/*
 * The ledger: the only module whose SQL writes `users.credits` or `credit_entries`
 * (test/credits/ledger-writers.test.ts holds every other server file to that). Three writers, one
 * rule — a balance never goes below zero and every change has its ledger row in the same commit:
 *   - applyCreditChange: grants, deductions and refunds, inside the caller's transaction;
 *   - chargeForLookup: one paid search's charge and its lookups row in one statement;
 *   - chargeLookups: many charges, several users' and several of a user, in one statement (the
 *     searches module's group commit).
 */

export type CreditKind = 'grant' | 'charge' | 'refund' | 'adjustment';

export interface CreditChange {
  userId: string;
  /** Positive adds credits, negative takes them. */
  delta: number;
  kind: CreditKind;
  reason: string;
  lookupId?: string | null;
  actorId?: string | null;
}

export class InsufficientCreditsError extends Error {
  constructor(readonly balance: number) {
    super(messages.credits.insufficient);
  }
}

/**
 * Any credit change other than a search's charge. Inside the caller's transaction: a guarded UPDATE (zero rows means
 * the balance is short, or the user is gone) and its ledger row. Returns the balance after.
 */
export async function applyCreditChange(tx: Transaction, change: CreditChange): Promise<number> {
  if (!Number.isInteger(change.delta)) throw new Error('credit delta must be an integer');
  const [row] = await tx
    .update(users)
    .set({ credits: sql`${users.credits} + ${change.delta}`, updatedAt: new Date() })
    .where(and(eq(users.id, change.userId), sql`${users.credits} + ${change.delta} >= 0`))
    .returning({ credits: users.credits });
  if (!row) {
    const [current] = await tx
      .select({ credits: users.credits })
      .from(users)
      .where(eq(users.id, change.userId));
    if (!current) throw new Error(`user ${change.userId} does not exist`);
    throw new InsufficientCreditsError(current.credits);
  }
  await tx.insert(creditEntries).values({
    userId: change.userId,
    delta: change.delta,
    balanceAfter: row.credits,
    kind: change.kind,
    reason: change.reason,
    lookupId: change.lookupId ?? null,
    actorId: change.actorId ?? null,
  });
  return row.credits;
}

export interface LookupCharge {
  userId: string;
  cost: number;
  kind: SearchKind;
  query: string;
  /** The query as the user typed it, cleaned (domain cleanTypedQuery): shown in history and the trail. */
  queryTyped: string;
  ip: string | null;
  deviceId: string | null;
  /** Stored with the lookup; shown in history, the audit trail and reports. */
  caseReference: string | null;
  /** The API key the search was made with (its monthly cap counts these rows); null from the web app. */
  apiKeyId?: string | null;
  at: Date;
  /**
   * The lookups row's id when the caller chose it beforehand (a bulk row, so that a retry finds its
   * charge); a new random id otherwise. An id already in use charges nothing (answers as a short balance).
   */
  id?: string;
}

/**
 * The hot path of every paid lookup in one statement, so one round trip and one commit: debit the
 * balance if it covers the cost, create the lookups row, and write the ledger row that ties them.
 * A single statement is atomic, so the three exist together or not at all, exactly like
 * applyCreditChange inside a transaction. Returns null when the balance is short.
 */
export async function chargeForLookup(
  db: Executor,
  charge: LookupCharge,
): Promise<{ lookupId: string; credits: number } | null> {
  const result = await db.execute(sql`
    with debit as (
      update ${users} set credits = credits - ${charge.cost}, updated_at = ${charge.at}
      where id = ${charge.userId} and credits >= ${charge.cost}
        and not exists (select 1 from lookups where id = ${charge.id ?? null}::uuid)
      returning credits
    ), lookup as (
      insert into lookups (id, user_id, kind, query, query_typed, cost, ip, device_id, case_reference, api_key_id, created_at)
      select coalesce(${charge.id ?? null}::uuid, gen_random_uuid()), ${charge.userId}, ${charge.kind}, ${charge.query}, ${charge.queryTyped}, ${charge.cost}, ${charge.ip}, ${charge.deviceId}, ${charge.caseReference}, ${charge.apiKeyId ?? null}::uuid, ${charge.at}
      from debit
      returning id
    ), entry as (
      insert into ${creditEntries} (user_id, delta, balance_after, kind, reason, lookup_id, created_at)
      select ${charge.userId}, ${-charge.cost}, debit.credits, 'charge', ${`${charge.kind} lookup`}, lookup.id, ${charge.at}
      from debit, lookup
      where ${charge.cost} > 0
      returning id
    )
    select lookup.id as lookup_id, debit.credits as credits, (select count(*) from entry) as entries
    from debit, lookup
  `);
  const [row] = rowsOf<{ lookup_id: string; credits: number }>(result);
  return row ? { lookupId: row.lookup_id, credits: Number(row.credits) } : null;
}

/**
 * Many charges in one statement, several of one user among them: the rules of chargeForLookup for
 * each, rows locked in id order so that batches from several server processes cannot deadlock.
 * A user's charges are decided in the order of `charges` (queue order): each needs the running sum of
 * that user's costs so far to stay within the locked balance, so once one does not fit, the later ones
 * are refused too, as they would be if made one after the other. Each charge gets its lookups row and
 * a ledger row whose balance_after is the balance before the statement less that running sum; the
 * users row is updated once, by the total (UPDATE … FROM touches a row once). A pre-assigned lookup
 * id already in use, or given twice in one statement, charges nothing. Answers, by index into
 * `charges`, the charges that were made; a charge missing from the map found its balance short.
 */
export async function chargeLookups(
  db: Executor,
  charges: LookupCharge[],
): Promise<Map<number, { lookupId: string; credits: number }>> {
  // The ids are chosen here rather than by gen_random_uuid() in the statement, so that the lookups
  // row, its ledger row and the answer can be tied to their charge by id and index alone. One array a
  // column: the statement's text is the same for any number of charges, prepared once per connection.
  const column = <T>(value: (c: LookupCharge) => T) => sql.param(charges.map(value));
  const result = await executeNamed(
    db,
    'footprint_charge_lookups',
    sql`
    with req(idx, lookup_id, assigned, user_id, cost, kind, query, query_typed, ip, device_id, case_reference, api_key_id, at) as (
      select (ord - 1)::int, lookup_id, assigned, user_id, cost, kind, query, query_typed, ip, device_id, case_reference, api_key_id, at
      from unnest(${sql.param(charges.map((c) => c.id ?? randomUUID()))}::uuid[], ${column((c) => c.id !== undefined)}::boolean[],
        ${column((c) => c.userId)}::uuid[], ${column((c) => c.cost)}::int[], ${column((c) => c.kind)}::text[],
        ${column((c) => c.query)}::text[], ${column((c) => c.queryTyped)}::text[], ${column((c) => c.ip)}::text[],
        ${column((c) => c.deviceId)}::text[], ${column((c) => c.caseReference)}::text[],
        ${column((c) => c.apiKeyId ?? null)}::uuid[], ${column((c) => c.at.toISOString())}::timestamptz[])
        with ordinality as r(lookup_id, assigned, user_id, cost, kind, query, query_typed, ip, device_id, case_reference, api_key_id, at, ord)
    ),
    locked as (
      select u.id, u.credits from users u where u.id in (select user_id from req) order by u.id for update of u
    ),
    fresh as (
      select r.idx, r.user_id, r.cost from req r
      where not (r.assigned and exists (select 1 from lookups l where l.id = r.lookup_id))
        and not exists (select 1 from req e where e.lookup_id = r.lookup_id and e.idx < r.idx)
    ),
    fits as (
      select idx, user_id, spent from (
        select f.idx, f.user_id, lk.credits as balance,
          sum(f.cost) over (partition by f.user_id order by f.idx rows unbounded preceding) as spent
        from fresh f join locked lk on lk.id = f.user_id
      ) running
      where spent <= balance
    ),
    total as (
      select f.user_id, max(f.spent) as total, max(r.at) as at
      from fits f join req r on r.idx = f.idx
      group by f.user_id
    ),
    debit as (
      update users u set credits = u.credits - t.total, updated_at = t.at
      from total t
      where u.id = t.user_id and u.credits >= t.total
      returning u.id, u.credits + t.total as before
    ),
    made as (
      select r.*, (d.before - f.spent)::int as balance_after
      from req r join fits f on f.idx = r.idx join debit d on d.id = r.user_id
    ),
    ins as (
      insert into lookups (id, user_id, kind, query, query_typed, cost, ip, device_id, case_reference, api_key_id, created_at)
      select lookup_id, user_id, kind, query, query_typed, cost, ip, device_id, case_reference, api_key_id, at
      from made order by idx
      returning id
    ),
    entry as (
      insert into credit_entries (user_id, delta, balance_after, kind, reason, lookup_id, created_at)
      select user_id, -cost, balance_after, 'charge', kind || ' lookup', lookup_id, at
      from made
      where cost > 0
      order by idx
      returning id
    )
    select idx, lookup_id, balance_after as credits, (select count(*) from ins) as lookups, (select count(*) from entry) as entries
    from made
  `,
  );
  const charged = new Map<number, { lookupId: string; credits: number }>();
  for (const row of rowsOf<{ idx: number; lookup_id: string; credits: number }>(result)) {
    charged.set(Number(row.idx), { lookupId: row.lookup_id, credits: Number(row.credits) });
  }
  return charged;
}

export interface LedgerMismatch {
  userId: string;
  email: string;
  balance: number;
  ledgerSum: number;
}

/** Every user whose balance differs from the sum of their ledger. Empty means the books balance. */
export async function findLedgerMismatches(db: Executor): Promise<LedgerMismatch[]> {
  const rows = await db.execute<{
    user_id: string;
    email: string;
    balance: number;
    ledger_sum: string | number;
  }>(sql`
    select u.id as user_id, u.email, u.credits as balance, coalesce(sum(c.delta), 0) as ledger_sum
    from ${users} u left join ${creditEntries} c on c.user_id = u.id
    group by u.id, u.email, u.credits
    having u.credits <> coalesce(sum(c.delta), 0)
  `);
  return rowsOf<{ user_id: string; email: string; balance: number; ledger_sum: string | number }>(rows).map(
    (r) => ({
      userId: r.user_id,
      email: r.email,
      balance: r.balance,
      ledgerSum: Number(r.ledger_sum),
    }),
  );
}

export const inTransaction = <T>(db: Database, work: (tx: Transaction) => Promise<T>): Promise<T> =>
  db.transaction(work);

/**
 * Closes a pending lookup as refunded and gives its charge back, inside the caller's transaction.
 * Only a row that is still pending is refunded: the recovery sweep (searches/recovery.ts) may have
 * refunded it already after a crash or a stall, and a charge must never come back twice. Returns the
 * balance after, or null when there was nothing to refund (free lookup, or no longer pending).
 */
export async function refundPendingLookup(
  tx: Transaction,
  refund: {
    userId: string;
    lookupId: string;
    cost: number;
    reason: string;
    at: Date;
    set?: Partial<
      Pick<
        typeof lookups.$inferInsert,
        'sourceErrors' | 'caseReference' | 'sourcesAnswered' | 'result' | 'sandbox'
      >
    >;
    /** The status the row closes with: 'refunded', or 'no_record' when the sources found nothing. */
    status?: 'refunded' | 'no_record';
  },
): Promise<number | null> {
  const closed = await tx
    .update(lookups)
    .set({ ...refund.set, status: refund.status ?? 'refunded', completedAt: refund.at })
    .where(and(eq(lookups.id, refund.lookupId), eq(lookups.status, 'pending')))
    .returning({ id: lookups.id });
  if (closed.length === 0 || refund.cost <= 0) return null;
  return applyCreditChange(tx, {
    userId: refund.userId,
    delta: refund.cost,
    kind: 'refund',
    reason: refund.reason,
    lookupId: refund.lookupId,
  });
}
