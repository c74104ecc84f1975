import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../src/db/client.ts';
import { auditEvents, creditEntries, lookups, users } from '../../src/db/schema.ts';
import {
  chargeLookups,
  findLedgerMismatches,
  refundPendingLookup,
} from '../../src/modules/credits/service.ts';
import { refundAbandonedLookups } from '../../src/modules/searches/recovery.ts';
import { createUser } from '../support/app.ts';
import { createTestDatabase } from '../support/db.ts';

let handle: DatabaseHandle;
beforeAll(async () => {
  handle = await createTestDatabase();
});
afterAll(() => handle.close());

const charge = (userId: string, at: Date) =>
  chargeLookups(handle.db, [
    {
      userId,
      cost: 2,
      kind: 'tel',
      query: '919876543210',
      queryTyped: '+91 98765 43210',
      ip: '127.0.0.1',
      deviceId: 'device-1',
      caseReference: 'CASE-7',
      at,
    },
  ]).then((made) => made.get(0) ?? null);

describe('recovery of lookups a stopped server left pending', () => {
  it('refunds an abandoned lookup once, and a late refund or settle then changes nothing', async () => {
    const user = await createUser(handle.db, { credits: 10 });
    const old = await charge(user.id, new Date(Date.now() - 10 * 60_000));
    const fresh = await charge(user.id, new Date());
    expect(old && fresh).toBeTruthy();

    const cutoff = new Date(Date.now() - 5 * 60_000);
    expect(await refundAbandonedLookups(handle.db, { olderThan: cutoff })).toBe(1);
    expect(await refundAbandonedLookups(handle.db, { olderThan: cutoff })).toBe(0);

    const [row] = await handle.db.select().from(lookups).where(eq(lookups.id, old!.lookupId));
    expect(row?.status).toBe('refunded');
    // The still-running lookup is untouched.
    const [running] = await handle.db.select().from(lookups).where(eq(lookups.id, fresh!.lookupId));
    expect(running?.status).toBe('pending');

    // The process that owned it comes back late and tries to refund it too: nothing happens.
    const late = await handle.db.transaction((tx) =>
      refundPendingLookup(tx, {
        userId: user.id,
        lookupId: old!.lookupId,
        cost: 2,
        reason: 'late',
        at: new Date(),
      }),
    );
    expect(late).toBeNull();

    const refunds = await handle.db
      .select()
      .from(creditEntries)
      .where(and(eq(creditEntries.lookupId, old!.lookupId), eq(creditEntries.kind, 'refund')));
    expect(refunds).toHaveLength(1);
    const [balance] = await handle.db
      .select({ credits: users.credits })
      .from(users)
      .where(eq(users.id, user.id));
    expect(balance?.credits).toBe(8); // 10 − 2 − 2 + 2
    expect(await findLedgerMismatches(handle.db)).toEqual([]);

    const audit = await handle.db.select().from(auditEvents).where(eq(auditEvents.userId, user.id));
    expect(audit).toEqual([
      expect.objectContaining({
        action: 'lookup.tel',
        outcome: 'failure',
        caseReference: 'CASE-7',
        deviceId: 'device-1',
        details: expect.objectContaining({ reason: 'abandoned', refunded: 2 }),
      }),
    ]);
  });
});
