import type { Database } from '../../db/client.ts';
import { chargeForLookup, chargeLookups, type LookupCharge } from '../credits/service.ts';

export type ChargeResult = { lookupId: string; credits: number } | null;

const MAX_PER_STATEMENT = 200;

/**
 * Group commit for search charges. Charges that arrive while one statement is in flight are written
 * together by the next, through the ledger's chargeLookups: each debit still needs `credits >= cost`
 * on its own row, each charged search still gets its lookups row and its ledger row in the same
 * statement, so the money rules are the ones chargeForLookup keeps, at a fraction of the round trips
 * and commits under load.
 *
 * A batch holds at most one charge per user; a user's further charges wait for the next batch. If
 * PostgreSQL rolls a batch back anyway (a deadlock), its charges are retried one by one.
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
