import { randomUUID } from 'node:crypto';
import { messages, type SearchKind } from '@footprint/domain';
import { and, eq, sql } from 'drizzle-orm';
import { membershipRow, membershipsOf } from '../../access/policy.ts';
import type { Database, Executor, Transaction } from '../../db/client.ts';
import { executeNamed } from '../../db/named-statement.ts';
import { rowsOf } from '../../db/rows.ts';
import { creditEntries, lookups, unitMembers, units, users } from '../../db/schema.ts';

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

/** A charge made: its lookups row, the searcher's own balance after it and, when a pool paid, which. */
export interface ChargeMade {
  lookupId: string;
  credits: number;
  /** The unit whose pool paid; null: the searcher's own balance did. */
  unitId: string | null;
  /** That pool's balance after the charge. */
  poolCredits: number | null;
}

/**
 * Many charges in one statement, several users' and several of one user among them, through the
 * database function footprint_charge_lookups (migration 0033): it locks the pools, then the users,
 * then the memberships, each in id order, so that batches from several server processes cannot
 * deadlock, and decides the charges in the order of `charges` (queue order):
 *   - a searcher with a monthly allowance in a unit draws on that unit's pool while their charges so far
 *     stay within the allowance left this month and the pool's charges so far within its balance;
 *   - every other charge is paid from the searcher's own balance while their charges so far fit it;
 * once one does not fit, the later ones of the same payer do not either, as if made one after the
 * other. Each charge gets its lookups row and a ledger row naming the pool that paid (or none) with
 * that payer's balance after it. A pre-assigned lookup id already in use, or given twice in one
 * statement, charges nothing. Answers, by index into `charges`, the charges that were made; a charge
 * missing from the map found neither payer able to cover it.
 */
export async function chargeLookups(db: Executor, charges: LookupCharge[]): Promise<Map<number, ChargeMade>> {
  // The ids are chosen here rather than by gen_random_uuid() in the statement, so that the lookups
  // row, its ledger row and the answer can be tied to their charge by id and index alone. One array a
  // column: the statement's text is the same for any number of charges, prepared once per connection.
  const column = <T>(value: (c: LookupCharge) => T) => sql.param(charges.map(value));
  const result = await executeNamed(
    db,
    'footprint_charge_lookups',
    sql`select idx, lookup_id, credits, unit_id, pool_credits from footprint_charge_lookups(
      ${sql.param(charges.map((c) => c.id ?? randomUUID()))}::uuid[], ${column((c) => c.id !== undefined)}::boolean[],
      ${column((c) => c.userId)}::uuid[], ${column((c) => c.cost)}::int[], ${column((c) => c.kind)}::text[],
      ${column((c) => c.query)}::text[], ${column((c) => c.queryTyped)}::text[], ${column((c) => c.ip)}::text[],
      ${column((c) => c.deviceId)}::text[], ${column((c) => c.caseReference)}::text[],
      ${column((c) => c.apiKeyId ?? null)}::uuid[], ${column((c) => c.at.toISOString())}::timestamptz[])`,
  );
  const charged = new Map<number, ChargeMade>();
  type Row = {
    idx: number;
    lookup_id: string;
    credits: number;
    unit_id: string | null;
    pool_credits: number | null;
  };
  for (const row of rowsOf<Row>(result)) {
    charged.set(Number(row.idx), {
      lookupId: row.lookup_id,
      credits: Number(row.credits),
      unitId: row.unit_id,
      poolCredits: row.pool_credits === null ? null : Number(row.pool_credits),
    });
  }
  return charged;
}

export interface LedgerMismatch {
  /** user: a personal balance; pool: a unit's pool; allowance: a member's use of their allowance this month. */
  holder: 'user' | 'pool' | 'allowance';
  /** The user's id, the unit's id, or "unit id/user id" for an allowance. */
  id: string;
  /** The user's e-mail, the unit's name, or "e-mail in unit name". */
  name: string;
  balance: number;
  ledgerSum: number;
}

/**
 * Every balance that differs from the sum of its ledger rows. Empty means the books balance:
 *   - a user's own balance is the sum of their rows without a unit;
 *   - a pool's balance is the sum of its rows;
 *   - a member's allowance used this month is what they drew from the pool this month, less the
 *     refunds of those charges.
 */
export async function findLedgerMismatches(db: Executor): Promise<LedgerMismatch[]> {
  type Row = {
    holder: LedgerMismatch['holder'];
    id: string;
    name: string;
    balance: number;
    ledger_sum: string | number;
  };
  const result = await db.execute(sql`
    select 'user' as holder, u.id::text as id, u.email as name, u.credits as balance, coalesce(sum(c.delta), 0) as ledger_sum
    from ${users} u left join ${creditEntries} c on c.user_id = u.id and c.unit_id is null
    group by u.id, u.email, u.credits
    having u.credits <> coalesce(sum(c.delta), 0)
    union all
    select 'pool', n.id::text, n.name, n.credits, coalesce(sum(c.delta), 0)
    from ${units} n left join ${creditEntries} c on c.unit_id = n.id
    group by n.id, n.name, n.credits
    having n.credits <> coalesce(sum(c.delta), 0)
    union all
    select 'allowance', m.unit_id || '/' || m.user_id, u.email || ' in ' || n.name, m.allowance_used, d.drawn
    from ${unitMembers} m join ${users} u on u.id = m.user_id join ${units} n on n.id = m.unit_id
    cross join lateral (
      select coalesce(-sum(e.delta), 0) as drawn
      from ${creditEntries} ch
      join ${creditEntries} e on e.lookup_id = ch.lookup_id and e.unit_id = ch.unit_id and e.kind in ('charge', 'refund')
      where ch.unit_id = m.unit_id and ch.user_id = m.user_id and ch.kind = 'charge'
        and ch.created_at >= m.allowance_month::timestamp at time zone 'UTC'
        and ch.created_at < (m.allowance_month + interval '1 month')::timestamp at time zone 'UTC'
    ) d
    where m.allowance_month is not null and m.allowance_used <> d.drawn
  `);
  return rowsOf<Row>(result).map((r) => ({
    holder: r.holder,
    id: r.id,
    name: r.name,
    balance: Number(r.balance),
    ledgerSum: Number(r.ledger_sum),
  }));
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
  const [paid] = await tx
    .select({ unitId: creditEntries.unitId, at: creditEntries.createdAt })
    .from(creditEntries)
    .where(and(eq(creditEntries.lookupId, refund.lookupId), eq(creditEntries.kind, 'charge')))
    .limit(1);
  if (paid?.unitId) {
    // Back to the pool that paid, and to the allowance of the month it was drawn in.
    await applyPoolChange(tx, {
      unitId: paid.unitId,
      userId: refund.userId,
      delta: refund.cost,
      kind: 'refund',
      reason: refund.reason,
      lookupId: refund.lookupId,
      drawnAt: paid.at,
    });
    const [own] = await tx.select({ credits: users.credits }).from(users).where(eq(users.id, refund.userId));
    return own?.credits ?? 0;
  }
  return applyCreditChange(tx, {
    userId: refund.userId,
    delta: refund.cost,
    kind: 'refund',
    reason: refund.reason,
    lookupId: refund.lookupId,
  });
}

export interface PoolChange {
  unitId: string;
  /** Positive adds credits to the pool, negative takes them. */
  delta: number;
  kind: CreditKind;
  reason: string;
  /** The member whose search it refunds; null for a top-up or an adjustment of the pool itself. */
  userId?: string | null;
  lookupId?: string | null;
  actorId?: string | null;
  /** A refund: when the charge was drawn, so the allowance of that month gets it back. */
  drawnAt?: Date;
}

export class PoolTooSmallError extends Error {
  constructor(readonly balance: number) {
    super('pool balance too small');
  }
}

/**
 * A change of a unit's pool other than a search's charge (a top-up, a deduction, a refund), inside
 * the caller's transaction, with its ledger row. A refund also gives the member's allowance back
 * when the charge was drawn in the month the allowance now counts. Returns the pool's balance after.
 */
export async function applyPoolChange(tx: Transaction, change: PoolChange): Promise<number> {
  if (!Number.isInteger(change.delta)) throw new Error('credit delta must be an integer');
  const [row] = await tx
    .update(units)
    .set({ credits: sql`${units.credits} + ${change.delta}`, updatedAt: new Date() })
    .where(and(eq(units.id, change.unitId), sql`${units.credits} + ${change.delta} >= 0`))
    .returning({ credits: units.credits });
  if (!row) {
    const [current] = await tx
      .select({ credits: units.credits })
      .from(units)
      .where(eq(units.id, change.unitId));
    if (!current) throw new Error(`unit ${change.unitId} does not exist`);
    throw new PoolTooSmallError(current.credits);
  }
  if (change.kind === 'refund' && change.userId && change.drawnAt) {
    await tx
      .update(unitMembers)
      .set({ allowanceUsed: sql`greatest(${unitMembers.allowanceUsed} - ${change.delta}, 0)` })
      .where(
        and(
          membershipRow(change.unitId, change.userId),
          sql`${unitMembers.allowanceMonth} = date_trunc('month', ${change.drawnAt}::timestamptz at time zone 'UTC')::date`,
        ),
      );
  }
  await tx.insert(creditEntries).values({
    userId: change.userId ?? null,
    unitId: change.unitId,
    delta: change.delta,
    balanceAfter: row.credits,
    kind: change.kind,
    reason: change.reason,
    lookupId: change.lookupId ?? null,
    actorId: change.actorId ?? null,
  });
  return row.credits;
}

/** Sets a member's monthly allowance from the pool; the written row, or undefined for no membership. */
export async function setMonthlyAllowance(
  tx: Transaction,
  unitId: string,
  userId: string,
  allowance: number,
) {
  const [row] = await tx
    .update(unitMembers)
    .set({ monthlyAllowance: allowance })
    .where(membershipRow(unitId, userId))
    .returning();
  return row;
}

/** Why a searcher's charge found no payer: their pool ran out, or their allowance did (null: no pool). */
export interface PoolShortfall {
  unitId: string;
  unitName: string;
  ranOut: 'pool' | 'allowance';
  pool: number;
  allowance: number;
  used: number;
}

/** The searcher's pool as the charge would choose it (footprint_charge_lookups), and what of it is left. */
export async function poolOf(db: Executor, userId: string, at: Date) {
  const result = await db.execute(sql`
    select ${unitMembers.unitId} as unit_id, ${units.name} as name, ${units.credits} as pool,
      ${unitMembers.monthlyAllowance} as allowance,
      case when ${unitMembers.allowanceMonth} = date_trunc('month', ${at}::timestamptz at time zone 'UTC')::date
        then ${unitMembers.allowanceUsed} else 0 end as used
    from ${unitMembers} join ${units} on ${units.id} = ${unitMembers.unitId}
    where ${membershipsOf(userId)} and ${unitMembers.monthlyAllowance} > 0
    order by ${unitMembers.monthlyAllowance} desc, ${unitMembers.unitId}
    limit 1
  `);
  const [row] = rowsOf<{ unit_id: string; name: string; pool: number; allowance: number; used: number }>(
    result,
  );
  if (!row) return null;
  return {
    unitId: row.unit_id,
    unitName: row.name,
    pool: Number(row.pool),
    allowance: Number(row.allowance),
    used: Number(row.used),
  };
}

/** What of a price the pool could not cover, and why; null when the searcher has no pool. */
export async function shortfallOf(
  db: Executor,
  userId: string,
  price: number,
  at: Date,
): Promise<PoolShortfall | null> {
  const pool = await poolOf(db, userId, at);
  if (!pool) return null;
  const ranOut = pool.used + price > pool.allowance ? 'allowance' : 'pool';
  return { ...pool, ranOut };
}
