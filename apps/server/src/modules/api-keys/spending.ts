import type { Database } from '../../db/client.ts';
import type { KeySpending } from '../searches/ports.ts';
import { keySpendSince, monthStartOf } from './service.ts';

/**
 * The monthly credit cap of API keys, for the paid search (its KeySpending port, wired in app.ts).
 * A key's capped searches take turns in this process (check, then charge), so concurrent calls of one
 * key cannot both pass the check; across server processes they can overshoot by the searches in flight.
 */
export function createKeySpending(deps: { db: Database; now?: (() => Date) | undefined }): KeySpending {
  const { db } = deps;
  const now = deps.now ?? (() => new Date());
  const keyTurns = new Map<string, Promise<unknown>>();

  return {
    async reserve(key, price, steps) {
      if (key.monthlyCreditCap === null || price === 0) return steps.charge();
      const cap = key.monthlyCreditCap;
      const turn = async () => {
        const spent = await keySpendSince(db, key.id, monthStartOf(now()));
        if (spent + price > cap) return steps.refuse(cap, spent);
        return steps.charge();
      };
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
