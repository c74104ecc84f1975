import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { chargeForLookup, type LookupCharge, rowsOf } from './service.ts';

export type ChargeResult = { lookupId: string; credits: number } | null;

const MAX_PER_STATEMENT = 200;

/**
 * Group commit for lookup charges. Charges that arrive while one statement is in flight are written
 * together by the next: each debit still needs `credits >= cost` on its own row, each charged lookup
 * still gets its lookups row and its ledger row in the same statement, so the money rules are the
 * ones chargeForLookup keeps, at a fraction of the round trips and commits under load.
 *
 * A batch holds at most one charge per user (UPDATE … FROM touches a row once); a user's further
 * charges wait for the next batch. Rows are locked in id order so that batches from several server
 * processes cannot deadlock; if PostgreSQL rolls a batch back anyway, its charges are retried one by one.
 */
export function createChargeBatcher(db: Database) {
  let queue: Array<{ charge: LookupCharge; done: (result: ChargeResult, error?: unknown) => void }> = [];
  let running = false;

  async function drain() {
    running = true;
    while (queue.length > 0) {
      const batch: typeof queue = [];
      const rest: typeof queue = [];
      const users = new Set<string>();
      for (const entry of queue) {
        if (batch.length < MAX_PER_STATEMENT && !users.has(entry.charge.userId)) {
          users.add(entry.charge.userId);
          batch.push(entry);
        } else rest.push(entry);
      }
      queue = rest;
      if (batch.length === 1) {
        const [only] = batch;
        await chargeForLookup(db, only!.charge).then(
          (result) => only!.done(result),
          (error) => only!.done(null, error),
        );
        continue;
      }
      try {
        const results = await chargeMany(batch.map((entry) => entry.charge));
        for (const [index, entry] of batch.entries()) entry.done(results.get(index) ?? null);
      } catch (error) {
        // Only a statement the database itself rolled back is safe to retry; after any other error
        // (a connection lost after the commit) a retry could charge twice, so those charges fail.
        if (!isRolledBack(error)) {
          for (const entry of batch) entry.done(null, error);
          continue;
        }
        for (const entry of batch) {
          await chargeForLookup(db, entry.charge).then(
            (result) => entry.done(result),
            (err) => entry.done(null, err),
          );
        }
      }
    }
    running = false;
  }

  async function chargeMany(
    charges: LookupCharge[],
  ): Promise<Map<number, { lookupId: string; credits: number }>> {
    const values = sql.join(
      charges.map(
        (c, index) =>
          sql`(${index}::int, ${c.userId}::uuid, ${c.cost}::int, ${c.kind}::text, ${c.query}::text, ${c.ip}::text, ${c.deviceId}::text, ${c.caseReference}::text, ${c.at.toISOString()}::timestamptz)`,
      ),
      sql`, `,
    );
    const result = await db.execute(sql`
      with req(idx, user_id, cost, kind, query, ip, device_id, case_reference, at) as (values ${values}),
      locked as (
        select u.id from users u join req r on r.user_id = u.id order by u.id for update of u
      ),
      debit as (
        update users u set credits = u.credits - r.cost, updated_at = r.at
        from req r
        where u.id = r.user_id and u.credits >= r.cost and u.id in (select id from locked)
        returning r.idx, u.credits
      ),
      ins as (
        insert into lookups (user_id, kind, query, cost, ip, device_id, case_reference, created_at)
        select r.user_id, r.kind, r.query, r.cost, r.ip, r.device_id, r.case_reference, r.at
        from req r join debit d on d.idx = r.idx
        returning id, user_id
      ),
      entry as (
        insert into credit_entries (user_id, delta, balance_after, kind, reason, lookup_id, created_at)
        select r.user_id, -r.cost, d.credits, 'charge', r.kind || ' lookup', i.id, r.at
        from req r join debit d on d.idx = r.idx join ins i on i.user_id = r.user_id
        where r.cost > 0
        returning id
      )
      select r.idx, i.id as lookup_id, d.credits, (select count(*) from entry) as entries
      from req r join debit d on d.idx = r.idx join ins i on i.user_id = r.user_id
    `);
    const charged = new Map<number, { lookupId: string; credits: number }>();
    for (const row of rowsOf<{ idx: number; lookup_id: string; credits: number }>(result)) {
      charged.set(Number(row.idx), { lookupId: row.lookup_id, credits: Number(row.credits) });
    }
    return charged;
  }

  return (charge: LookupCharge): Promise<ChargeResult> =>
    new Promise((resolve, reject) => {
      queue.push({ charge, done: (result, error) => (error ? reject(error) : resolve(result)) });
      if (!running) void drain();
    });
}

/** Deadlock and serialization failures: PostgreSQL rolled the statement back, nothing was written. */
function isRolledBack(error: unknown): boolean {
  const err = error as { code?: string; cause?: { code?: string } } | undefined;
  const code = err?.code ?? err?.cause?.code;
  return code === '40P01' || code === '40001';
}
