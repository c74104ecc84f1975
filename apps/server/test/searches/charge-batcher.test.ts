import { randomUUID } from 'node:crypto';
import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../src/db/client.ts';
import { apiKeys, creditEntries, lookups, users } from '../../src/db/schema.ts';
import { chargeLookups, findLedgerMismatches, type LookupCharge } from '../../src/modules/credits/service.ts';
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

function telCharge(userId: string, n: number, extra: Partial<LookupCharge> = {}): LookupCharge {
  return {
    userId,
    cost: 1,
    kind: 'tel',
    query: `91900000${String(n).padStart(4, '0')}`,
    queryTyped: `+91 900000 ${n}`,
    ip: '127.0.0.1',
    deviceId: null,
    caseReference: `ROW-${n}`,
    at: new Date(),
    ...extra,
  };
}

/** The user's ledger, oldest first, and their balance. */
async function books(userId: string) {
  const ledger = await handle.db
    .select()
    .from(creditEntries)
    .where(eq(creditEntries.userId, userId))
    .orderBy(asc(creditEntries.id));
  const [row] = await handle.db.select().from(users).where(eq(users.id, userId));
  return { ledger, credits: row!.credits };
}

describe('several charges of one user in one statement', () => {
  it('charges the first ones the balance covers, in order, and refuses the rest', async () => {
    const person = await createUser(handle.db, { credits: 5 });
    const other = await createUser(handle.db, { credits: 1 });
    const [key] = await handle.db
      .insert(apiKeys)
      .values({ userId: person.id, name: 'bulk', keyHash: randomUUID(), prefix: 'fp_test', scopes: [] })
      .returning();
    const ids: string[] = Array.from({ length: 8 }, () => randomUUID());
    // Eight of one user's charges (pre-assigned ids, as a bulk job's rows), another user's two between them.
    const charges = [
      ...ids.slice(0, 3).map((id, n) => telCharge(person.id, n, { id, apiKeyId: key!.id })),
      telCharge(other.id, 100),
      ...ids.slice(3).map((id, n) => telCharge(person.id, n + 3, { id, apiKeyId: key!.id })),
      telCharge(other.id, 101),
    ];
    const made = await chargeLookups(handle.db, charges);

    // The person's first five (indexes 0-2 and 4-5) fit a balance of 5, the other's first fits 1.
    expect([...made.keys()].sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5]);
    expect([0, 1, 2, 4, 5].map((index) => made.get(index))).toEqual(
      [0, 1, 2, 3, 4].map((n) => ({ lookupId: ids[n], credits: 4 - n, unitId: null, poolCredits: null })),
    );
    expect(made.get(3)).toMatchObject({ credits: 0 });

    const mine = await books(person.id);
    expect(mine.credits).toBe(0);
    expect(mine.ledger.map((r) => [r.kind, r.delta, r.balanceAfter, r.lookupId])).toEqual([
      ['grant', 5, 5, null],
      ...[0, 1, 2, 3, 4].map((n) => ['charge', -1, 4 - n, ids[n]]),
    ]);
    const rows = await handle.db.select().from(lookups).where(eq(lookups.userId, person.id));
    expect(rows.map((r) => r.id).sort()).toEqual(ids.slice(0, 5).sort());
    for (const row of rows) {
      expect(row.apiKeyId).toBe(key!.id);
      expect(row.caseReference).toBe(`ROW-${ids.indexOf(row.id)}`);
    }
    expect((await books(other.id)).ledger.map((r) => r.balanceAfter)).toEqual([1, 0]);
    expect(await findLedgerMismatches(handle.db)).toEqual([]);
  });

  it('refuses every later charge once one does not fit, even a cheaper one', async () => {
    const person = await createUser(handle.db, { credits: 5 });
    const made = await chargeLookups(
      handle.db,
      [2, 2, 2, 1].map((cost, n) => telCharge(person.id, n, { cost })),
    );
    expect([...made.entries()].map(([index, r]) => [index, r.credits])).toEqual([
      [0, 3],
      [1, 1],
    ]);
    const mine = await books(person.id);
    expect(mine.credits).toBe(1);
    expect(mine.ledger.map((r) => [r.delta, r.balanceAfter])).toEqual([
      [5, 5],
      [-2, 3],
      [-2, 1],
    ]);
  });

  it('charges a pre-assigned id once, whether it is in use or given twice in the statement', async () => {
    const person = await createUser(handle.db, { credits: 10 });
    const used = randomUUID();
    const twice = randomUUID();
    expect((await chargeLookups(handle.db, [telCharge(person.id, 0, { id: used })])).size).toBe(1);
    const made = await chargeLookups(handle.db, [
      telCharge(person.id, 1, { id: used }),
      telCharge(person.id, 2, { id: twice }),
      telCharge(person.id, 3, { id: twice }),
      telCharge(person.id, 4),
    ]);
    expect([...made.entries()].map(([index, r]) => [index, r.credits])).toEqual([
      [1, 8],
      [3, 7],
    ]);
    expect(made.get(1)!.lookupId).toBe(twice);
    const mine = await books(person.id);
    expect(mine.credits).toBe(7);
    expect(mine.ledger.map((r) => r.balanceAfter)).toEqual([10, 9, 8, 7]);
    expect(await handle.db.select().from(lookups).where(eq(lookups.userId, person.id))).toHaveLength(3);
  });

  it.each([1, 3])(
    "a burst of one user's charges goes out in a few statements (%i in flight), in arrival order",
    async (inFlight) => {
      const person = await createUser(handle.db, { credits: 150 });
      // Counts the statements the batcher sends: a burst of 250 must not take one each.
      let statements = 0;
      const counted = new Proxy(handle.db, {
        get(target, prop, receiver) {
          // Named statements (db/named-statement.ts) go through the session's prepareQuery.
          if (prop === 'session') {
            const session = Reflect.get(target, prop, receiver) as object;
            return new Proxy(session, {
              get(inner, key) {
                const value = Reflect.get(inner, key, inner);
                if (typeof value !== 'function') return value;
                return (...args: unknown[]) => {
                  if (key === 'prepareQuery') statements++;
                  return value.apply(inner, args);
                };
              },
            });
          }
          if (prop === 'execute') {
            return (...args: Parameters<typeof target.execute>) => {
              statements++;
              return target.execute(...args);
            };
          }
          return Reflect.get(target, prop, receiver);
        },
      });
      const charge = createChargeBatcher(counted, inFlight);
      const results = await Promise.all(
        Array.from({ length: 250 }, (_, n) => charge(telCharge(person.id, n))),
      );

      expect(results.slice(0, 150).map((r) => r?.credits)).toEqual(
        Array.from({ length: 150 }, (_, n) => 149 - n),
      );
      expect(results.slice(150)).toEqual(Array(100).fill(null));
      expect(statements).toBeGreaterThanOrEqual(1);
      expect(statements).toBeLessThanOrEqual(3);
      const mine = await books(person.id);
      expect(mine.credits).toBe(0);
      expect(mine.ledger.slice(1).map((r) => r.balanceAfter)).toEqual(
        Array.from({ length: 150 }, (_, n) => 149 - n),
      );
      const charged = await handle.db.select().from(lookups).where(eq(lookups.userId, person.id));
      expect(charged.map((r) => r.caseReference).sort()).toEqual(
        Array.from({ length: 150 }, (_, n) => `ROW-${n}`).sort(),
      );
      expect(await findLedgerMismatches(handle.db)).toEqual([]);
    },
  );
});

describe('small batches while a statement is in flight', () => {
  it('waits for the statement in flight rather than sending one or two charges beside it', async () => {
    const people = await Promise.all(
      [0, 1, 2].map((i) => createUser(handle.db, { credits: 5, email: `beside-${i}@example.test` })),
    );
    // Every statement takes 50 ms more, so the first is still in flight when the others arrive.
    const sent: number[] = [];
    const slow = new Proxy(handle.db, {
      get(target, prop, receiver) {
        if (prop !== 'session') return Reflect.get(target, prop, receiver);
        const session = Reflect.get(target, prop, receiver) as object;
        return new Proxy(session, {
          get(inner, key) {
            const value = Reflect.get(inner, key, inner);
            if (key !== 'prepareQuery' || typeof value !== 'function') return value;
            return (...args: unknown[]) => {
              const prepared = value.apply(inner, args) as { execute(): Promise<unknown> };
              sent.push(Date.now());
              return {
                execute: () => new Promise((r) => setTimeout(r, 50)).then(() => prepared.execute()),
              };
            };
          },
        });
      },
    });
    const charge = createChargeBatcher(slow, 3);
    const first = charge(telCharge(people[0]!.id, 0));
    await new Promise((r) => setTimeout(r, 10));
    const second = charge(telCharge(people[1]!.id, 0));
    await new Promise((r) => setTimeout(r, 10));
    const third = charge(telCharge(people[2]!.id, 0));
    const results = await Promise.all([first, second, third]);
    expect(results.map((r) => r?.credits)).toEqual([4, 4, 4]);
    // The first alone, then the two that arrived while it was in flight, together.
    expect(sent).toHaveLength(2);
    expect(await findLedgerMismatches(handle.db)).toEqual([]);
  });
});
