import { sql } from 'drizzle-orm';
import { type Database, type Executor, isEmbedded } from '../../db/client.ts';
import type { KeySpending } from '../searches/ports.ts';
import { keySpendSince, monthStartOf } from './service.ts';

/**
 * Capped searches of different keys that may hold their key's lock at once in this process: each
 * holds a pooled connection while its charge takes another (the pool has 20, db/client.ts; the charge
 * batcher takes up to 3), so they are few, and a key's turn is short (one sum and one charge).
 */
const CAP_LOCKS_IN_FLIGHT = 4;

/**
 * The monthly credit cap of API keys, for the paid search (its KeySpending port, wired in app.ts).
 * A key's capped searches take turns from the check to the end of the charge: in this process by a
 * queue per key, and across server processes on one PostgreSQL database by a transaction-scoped
 * advisory lock on the key, held until the charge has committed, so the next turn's sum sees it.
 * The embedded PGlite serves one process, and its one connection cannot hold a lock while the charge
 * runs, so there the queue alone decides.
 */
export function createKeySpending(deps: { db: Database; now?: (() => Date) | undefined }): KeySpending {
  const { db } = deps;
  const now = deps.now ?? (() => new Date());
  const keyTurns = new Map<string, Promise<unknown>>();
  const shared = !isEmbedded(db);
  let locksHeld = 0;
  const lockWaiters: Array<() => void> = [];

  /** Runs `fn` holding the key's lock across processes (a slot of CAP_LOCKS_IN_FLIGHT first). */
  async function underKeyLock<R>(keyId: string, fn: (reader: Executor) => Promise<R>): Promise<R> {
    if (!shared) return fn(db);
    // A slot is handed from one holder straight to the next waiter, so none is taken twice.
    if (locksHeld < CAP_LOCKS_IN_FLIGHT) locksHeld++;
    else await new Promise<void>((resolve) => lockWaiters.push(resolve));
    try {
      return await db.transaction(async (tx) => {
        await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`api_key_cap:${keyId}`}, 0))`);
        return fn(tx);
      });
    } finally {
      const next = lockWaiters.shift();
      if (next) next();
      else locksHeld--;
    }
  }

  return {
    async reserve(key, price, steps) {
      if (key.monthlyCreditCap === null || price === 0) return steps.charge();
      const cap = key.monthlyCreditCap;
      const turn = () =>
        underKeyLock(key.id, async (reader) => {
          const spent = await keySpendSince(reader, key.id, monthStartOf(now()));
          if (spent + price > cap) return steps.refuse(cap, spent);
          return steps.charge();
        });
      const previous = keyTurns.get(key.id) ?? Promise.resolve();
      const mine = previous.catch(() => {}).then(turn);
      keyTurns.set(key.id, mine);
      try {
        return await mine;
      } finally {
        if (keyTurns.get(key.id) === mine) keyTurns.delete(key.id);
      }
    },
  };
}
