import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../src/db/client.ts';
import { creditEntries, lookups, users } from '../../src/db/schema.ts';
import { findLedgerMismatches } from '../../src/modules/credits/service.ts';
import { createChargeBatcher } from '../../src/modules/searches/charge-batcher.ts';
import { createUser } from '../support/app.ts';
import { createTestDatabase } from '../support/db.ts';

let handle: DatabaseHandle;
beforeAll(async () => {
  handle = await createTestDatabase();
});
afterAll(() => handle.close());

describe.each([1, 3, 8])('grouped lookup charges, %i statements in flight', (inFlight) => {
  it('charge each user exactly what their balance allows, with a lookup and a ledger row per charge', async () => {
    const people = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        createUser(handle.db, { credits: i % 3, email: `batch${inFlight}-${i}@example.test` }),
      ),
    );
    const charge = createChargeBatcher(handle.db, inFlight);
    const at = new Date();
    // Three charges per user, all at once: users with 0, 1 and 2 credits. Half of them arrive while
    // the first statements are in flight, so later statements are started beside earlier ones.
    const later = new Promise((resolve) => setTimeout(resolve, 2));
    const attempts = people.flatMap((person, i) =>
      [0, 1, 2].map(async (n) => {
        if ((i + n) % 2 === 1) await later;
        return charge({
          userId: person.id,
          cost: 1,
          kind: 'tel',
          query: `9190000000${n}`,
          queryTyped: `+91 90000 000${n}`,
          ip: '127.0.0.1',
          deviceId: null,
          caseReference: `CASE-${i}`,
          at,
        }).then((result) => ({ person, result }));
      }),
    );
    const results = await Promise.all(attempts);

    for (const [i, person] of people.entries()) {
      const mine = results.filter((r) => r.person.id === person.id && r.result);
      expect(mine, person.email).toHaveLength(i % 3);
      const [row] = await handle.db.select().from(users).where(eq(users.id, person.id));
      expect(row!.credits).toBe(0);
      const rows = await handle.db.select().from(lookups).where(eq(lookups.userId, person.id));
      expect(rows).toHaveLength(i % 3);
      for (const r of mine) {
        const [lookup] = await handle.db.select().from(lookups).where(eq(lookups.id, r.result!.lookupId));
        expect(lookup?.userId).toBe(person.id);
        expect(lookup?.caseReference).toBe(`CASE-${i}`);
        const ledger = await handle.db
          .select()
          .from(creditEntries)
          .where(eq(creditEntries.lookupId, r.result!.lookupId));
        expect(ledger).toEqual([expect.objectContaining({ userId: person.id, delta: -1, kind: 'charge' })]);
      }
    }
    expect(await findLedgerMismatches(handle.db)).toEqual([]);
  });

  it('writes no ledger row for a free lookup', async () => {
    const person = await createUser(handle.db, { credits: 0 });
    const charge = createChargeBatcher(handle.db, inFlight);
    const result = await charge({
      userId: person.id,
      cost: 0,
      kind: 'tel',
      query: '919000000009',
      queryTyped: '919000000009',
      ip: null,
      deviceId: null,
      caseReference: null,
      at: new Date(),
    });
    expect(result).toMatchObject({ credits: 0 });
    expect(
      await handle.db.select().from(creditEntries).where(eq(creditEntries.userId, person.id)),
    ).toHaveLength(0);
  });
});
