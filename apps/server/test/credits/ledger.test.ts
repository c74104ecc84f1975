import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../src/db/client.ts';
import { creditEntries, users } from '../../src/db/schema.ts';
import {
  applyCreditChange,
  findLedgerMismatches,
  InsufficientCreditsError,
} from '../../src/modules/credits/service.ts';
import { createUser } from '../support/app.ts';
import { createTestDatabase } from '../support/db.ts';

let handle: DatabaseHandle;
beforeAll(async () => {
  handle = await createTestDatabase();
});
afterAll(() => handle.close());

describe('credit ledger', () => {
  it('writes one ledger row per change and keeps balance equal to the sum', async () => {
    const user = await createUser(handle.db, { credits: 10 });
    const after = await handle.db.transaction((tx) =>
      applyCreditChange(tx, { userId: user.id, delta: -3, kind: 'charge', reason: 'test charge' }),
    );
    expect(after).toBe(7);
    const rows = await handle.db.select().from(creditEntries).where(eq(creditEntries.userId, user.id));
    expect(rows.map((r) => [r.kind, r.delta, r.balanceAfter])).toEqual([
      ['grant', 10, 10],
      ['charge', -3, 7],
    ]);
    expect(await findLedgerMismatches(handle.db)).toEqual([]);
  });

  it('refuses an overdraft and leaves no ledger row', async () => {
    const user = await createUser(handle.db, { credits: 2 });
    await expect(
      handle.db.transaction((tx) =>
        applyCreditChange(tx, { userId: user.id, delta: -3, kind: 'charge', reason: 'x' }),
      ),
    ).rejects.toBeInstanceOf(InsufficientCreditsError);
    const rows = await handle.db.select().from(creditEntries).where(eq(creditEntries.userId, user.id));
    expect(rows).toHaveLength(1);
  });

  it('is guarded by the database itself: credits cannot go below zero', async () => {
    const user = await createUser(handle.db, { credits: 1 });
    await expect(
      handle.db
        .update(users)
        .set({ credits: sql`${users.credits} - 5` })
        .where(eq(users.id, user.id)),
    ).rejects.toThrow();
  });

  it('finds a balance that no longer matches its ledger', async () => {
    const user = await createUser(handle.db, { credits: 5 });
    await handle.db.update(users).set({ credits: 6 }).where(eq(users.id, user.id));
    expect(await findLedgerMismatches(handle.db)).toEqual([
      { holder: 'user', id: user.id, name: user.email, balance: 6, ledgerSum: 5 },
    ]);
    await handle.db.update(users).set({ credits: 5 }).where(eq(users.id, user.id));
  });

  it('keeps e-mail addresses unique whatever their case', async () => {
    await createUser(handle.db, { email: 'case@example.test' });
    await expect(
      handle.db.insert(users).values({ email: 'CASE@example.test', name: 'x', passwordHash: 'x' }),
    ).rejects.toThrow();
  });
});
