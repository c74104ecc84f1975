import type { Database } from '../../db/client.ts';
import { type ChargeMade, chargeLookups, type LookupCharge } from '../credits/service.ts';

export type ChargeResult = ChargeMade | null;

const MAX_PER_STATEMENT = 200;

/**
 * How many charge statements may be in flight at once (each holds one pooled connection until its
 * commit). With one, every charge that arrives during a commit waits for it and the next; with a few,
 * the next batch goes out while the last one commits. The pool has 20 connections (db/client.ts);
 * the settle writer takes at most 2 per batch in flight, the token check and refunds one each.
 */
export const CHARGE_BATCHES_IN_FLIGHT = 3;

/**
 * A statement goes out beside others already in flight only with at least this many charges queued;
 * fewer wait for a statement to end (one commit, a millisecond or two). With several server
 * processes each group-committing alone, every process sees a fraction of the load: without this,
 * its queue would go out as many batches of one or two, each a statement and a commit of its own
 * on the shared database, and the database's work per lookup would grow with the process count.
 */
export const MIN_BATCH_BESIDE = 8;

type Entry = { charge: LookupCharge; done: (result: ChargeResult, error?: unknown) => void };

/**
 * Pipelined group commit for search charges. Charges that arrive while statements are in flight are
 * written together by the next one, through the ledger's chargeLookups: each debit still needs
 * `credits >= cost` on its own row, each charged search still gets its lookups row and its ledger row
 * in the same statement, so the money rules are the ones chargeForLookup keeps, at a fraction of the
 * round trips and commits under load.
 *
 * Up to `inFlight` statements run at once. A user is in at most one of them: a batch takes every
 * queued charge (up to the statement cap) of each user with nothing in flight, and a user whose
 * charges are in flight is left in the queue until that statement has committed or failed. So no two
 * statements in flight touch the same users row and their row locks never wait on each other, while
 * a user with many charges queued (a bulk job) has them made together rather than one statement
 * each: chargeLookups decides them in queue order, each against what the earlier ones left. If
 * PostgreSQL rolls a batch back anyway (a deadlock with some other writer), its charges are retried
 * one by one in queue order, their users still held out of other batches.
 */
export function createChargeBatcher(db: Database, inFlight = CHARGE_BATCHES_IN_FLIGHT) {
  let queue: Entry[] = [];
  /** Users with a charge in a statement in flight. */
  const busy = new Set<string>();
  let running = 0;
  let scheduled = false;

  /** Starts statements while a slot is free and the queue holds a charge of a user not in flight. */
  function pump() {
    while (running < inFlight && queue.length > 0) {
      if (running > 0 && queue.length < MIN_BATCH_BESIDE) return;
      const batch: Entry[] = [];
      const rest: Entry[] = [];
      const users = new Set<string>();
      // In queue order, so each user's charges keep the order they arrived in. A user cut off by the
      // cap is busy now: the rest of their charges wait for the next statement, still in order.
      for (const entry of queue) {
        const user = entry.charge.userId;
        if (batch.length < MAX_PER_STATEMENT && !busy.has(user)) {
          users.add(user);
          batch.push(entry);
        } else rest.push(entry);
      }
      if (batch.length === 0) return;
      queue = rest;
      for (const user of users) busy.add(user);
      running++;
      void write(batch).finally(() => {
        for (const user of users) busy.delete(user);
        running--;
        pump();
      });
    }
  }

  // A batch of one goes through the same statement: one text, prepared once per connection, whatever
  // the batch's size (several processes each group-committing alone make many small batches).
  async function write(batch: Entry[]) {
    try {
      const results = await chargeLookups(
        db,
        batch.map((entry) => entry.charge),
      );
      for (const [index, entry] of batch.entries()) entry.done(results.get(index) ?? null);
    } catch (error) {
      // Only a statement the database itself rolled back is safe to retry; after any other error
      // (a connection lost after the commit) a retry could charge twice, so those charges fail.
      if (!isRolledBack(error)) {
        for (const entry of batch) entry.done(null, error);
        return;
      }
      if (batch.length === 1) {
        batch[0]!.done(null, error);
        return;
      }
      for (const entry of batch) {
        await chargeLookups(db, [entry.charge]).then(
          (results) => entry.done(results.get(0) ?? null),
          (err) => entry.done(null, err),
        );
      }
    }
  }

  return (charge: LookupCharge): Promise<ChargeResult> =>
    new Promise((resolve, reject) => {
      queue.push({ charge, done: (result, error) => (error ? reject(error) : resolve(result)) });
      // Start on the next turn of the event loop, so that the charges of requests that arrived
      // together go out in one statement rather than one each while a slot is free.
      if (!scheduled) {
        scheduled = true;
        setImmediate(() => {
          scheduled = false;
          pump();
        });
      }
    });
}

/** Deadlock and serialization failures: PostgreSQL rolled the statement back, nothing was written. */
function isRolledBack(error: unknown): boolean {
  const err = error as { code?: string; cause?: { code?: string } } | undefined;
  const code = err?.code ?? err?.cause?.code;
  return code === '40P01' || code === '40001';
}
