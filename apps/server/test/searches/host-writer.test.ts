import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DatabaseHandle, openDatabase } from '../../src/db/client.ts';
import { auditEvents, lookups, users } from '../../src/db/schema.ts';
import type { LookupCharge } from '../../src/modules/credits/service.ts';
import { hostWriters } from '../../src/modules/searches/host-writer.ts';
import type { SettledSearch } from '../../src/modules/searches/settle.ts';
import { createUser } from '../support/app.ts';
import { createTestDatabase } from '../support/db.ts';

// The host's writer for the server processes on one database (modules/searches/host-writer.ts). Each
// "process" here is one hostWriters() on its own database handle, in this test's process: they meet on
// the same abstract socket, as processes of one host do. A handle on a database that does not exist
// cannot write anything: a write through it that succeeds went through the host's writer.

let handle: DatabaseHandle;
let nowhere: DatabaseHandle;
beforeAll(async () => {
  handle = await createTestDatabase();
  // Nothing listens on port 9: every statement through this handle fails to connect.
  nowhere = await openDatabase({ url: 'postgres://postgres@127.0.0.1:9/nowhere', poolSize: 1 });
});
afterAll(async () => {
  await nowhere.close();
  await handle.close();
});

const KEY = 'host-writer-test-key-0123456789abcdef';
const until = async (ok: () => boolean, ms = 5000) => {
  const end = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
};

const charge = (userId: string, query: string): LookupCharge => ({
  userId,
  cost: 1,
  kind: 'tel',
  query,
  queryTyped: query,
  ip: '127.0.0.1',
  deviceId: null,
  caseReference: null,
  apiKeyId: null,
  at: new Date(),
});

const settle = (id: string, email: string, query: string): SettledSearch => ({
  mode: 'settle',
  id,
  noRecord: false,
  answered: ['sandbox'],
  errors: {},
  result: { payloads: { sandbox: { name: 'A Synthetic Person' } }, at: new Date('2026-12-04T10:00:00Z') },
  sandbox: true,
  at: new Date(),
  actorEmail: email,
  action: 'lookup.tel',
  target: query,
  details: { query, query_typed: query },
});

const auditRowsOf = async (lookupId: string) =>
  (
    await handle.db
      .select({ id: auditEvents.id })
      .from(auditEvents)
      .where(sql`${auditEvents.details}->>'lookup_id' = ${lookupId}`)
  ).length;

describe('the host writer', () => {
  it("writes a second process's charges and answers through the first, with the first's database", async () => {
    const name = `test-${randomUUID()}`;
    const first = hostWriters(handle.db, { databaseUrl: name, key: KEY });
    await until(() => first.role() === 'writer');
    const second = hostWriters(nowhere.db, { databaseUrl: name, key: KEY });
    try {
      await until(() => second.role() === 'joined');
      const user = await createUser(handle.db, { credits: 2, email: `hw-${randomUUID()}@example.test` });
      const results = await Promise.all([
        second.charge(charge(user.id, '919000000001')),
        second.charge(charge(user.id, '919000000002')),
        second.charge(charge(user.id, '919000000003')),
      ]);
      // Two credits: two charged, the third refused, decided by the one writer in arrival order.
      expect(results.map((r) => r?.credits ?? null)).toEqual([1, 0, null]);
      const lookupId = results[0]!.lookupId;
      const written = await second.write(settle(lookupId, user.email, '919000000001'));
      expect(written).toEqual({ written: true, credits: null });
      const [row] = await handle.db.select().from(lookups).where(eq(lookups.id, lookupId));
      expect(row?.status).toBe('complete');
      // The answer crossed the socket as JSON, as the settle writer would have stored it anyway.
      expect(row?.result).toEqual({
        payloads: { sandbox: { name: 'A Synthetic Person' } },
        at: '2026-12-04T10:00:00.000Z',
      });
      expect(await auditRowsOf(lookupId)).toBe(1);
      const [balance] = await handle.db
        .select({ credits: users.credits })
        .from(users)
        .where(eq(users.id, user.id));
      expect(balance?.credits).toBe(0);
    } finally {
      await second.close();
      await first.close();
    }
  });

  it('is not joined by a process without the key: that process writes alone', async () => {
    const name = `test-${randomUUID()}`;
    const first = hostWriters(handle.db, { databaseUrl: name, key: KEY });
    await until(() => first.role() === 'writer');
    const logged: string[] = [];
    const stranger = hostWriters(nowhere.db, {
      databaseUrl: name,
      key: 'another-key-0123456789abcdef0123456789',
      log: (message) => logged.push(message),
    });
    try {
      await until(() => logged.length > 0);
      expect(logged[0]).toMatch(/did not prove the key/);
      expect(stranger.role()).toBe('alone');
      const user = await createUser(handle.db, { credits: 5, email: `hw-${randomUUID()}@example.test` });
      // Alone, it writes through its own database, which cannot be reached.
      await expect(stranger.charge(charge(user.id, '919000000004'))).rejects.toThrow();
      const [balance] = await handle.db
        .select({ credits: users.credits })
        .from(users)
        .where(eq(users.id, user.id));
      expect(balance?.credits).toBe(5);
    } finally {
      await stranger.close();
      await first.close();
    }
  });

  it('when the writer goes: charges in flight fail as a lost connection, answers are written anyway, another process takes over', async () => {
    const name = `test-${randomUUID()}`;
    const first = hostWriters(handle.db, { databaseUrl: name, key: KEY });
    await until(() => first.role() === 'writer');
    const second = hostWriters(handle.db, { databaseUrl: name, key: KEY });
    let third: ReturnType<typeof hostWriters> | undefined;
    try {
      await until(() => second.role() === 'joined');
      const user = await createUser(handle.db, { credits: 10, email: `hw-${randomUUID()}@example.test` });
      const charged = await second.charge(charge(user.id, '919000000005'));
      expect(charged?.credits).toBe(9);

      // The writer stops with a charge and an answer of the second process in flight.
      const inFlightCharge = second.charge(charge(user.id, '919000000006'));
      const inFlightAnswer = second.write(settle(charged!.lookupId, user.email, '919000000005'));
      await first.close();
      await expect(inFlightCharge).rejects.toMatchObject({ code: 'ECONNRESET' });
      await inFlightAnswer;
      const [row] = await handle.db.select().from(lookups).where(eq(lookups.id, charged!.lookupId));
      expect(row?.status).toBe('complete');
      expect(await auditRowsOf(charged!.lookupId)).toBe(1);

      // The second process stands for the writer, and a new process joins it.
      await until(() => second.role() === 'writer');
      third = hostWriters(nowhere.db, { databaseUrl: name, key: KEY });
      await until(() => third!.role() === 'joined');
      const again = await third.charge(charge(user.id, '919000000007'));
      expect(again).not.toBeNull();
    } finally {
      await third?.close();
      await second.close();
      await first.close();
    }
  });
});
