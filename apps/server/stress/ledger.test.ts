// The ledger under concurrency, on the real PostgreSQL, over real HTTP on 127.0.0.1.
import type { AddressInfo } from 'node:net';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../src/db/rows.ts';
import { creditEntries, lookups, users } from '../src/db/schema.ts';
import { createTestApp, createUser, newDeviceId, signIn, type TestApp } from '../test/support/app.ts';
import { addLeakRecords } from '../test/support/leaks.ts';
import { bookProblems } from './books.ts';

let t: TestApp;
let base: string;

beforeAll(async () => {
  if (!process.env.TEST_DATABASE_URL)
    throw new Error('The stress suite runs on PostgreSQL: set TEST_DATABASE_URL.');
  t = await createTestApp({
    env: {
      // Some sources fail, so some lookups (the single-source detail calls most) are refunded.
      LOG_LEVEL: 'error',
      SANDBOX_FAILURES: '*=0.25',
      SANDBOX_LATENCY: '*=0-20',
      COST_TEL: '1',
      COST_EMAIL: '2',
      COST_RC: '1',
      COST_UPI: '1',
      COST_CHALLAN: '1',
      COST_LEAK: '3',
    },
  });
  // The leak index holds a record, so a leak search can answer (an empty index and no leak vendor is
  // a 503 before any charge); the searches below find nothing in it and are refunded.
  await addLeakRecords(t.db, { name: 'Ledger Fixture Breach' }, [{ name: 'Fixture Person' }]);
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
}, 120_000);

afterAll(async () => {
  await t?.close();
});

async function investigator(credits: number) {
  const deviceId = newDeviceId();
  const user = await createUser(t.db, { appMode: 'live', credits, trustedDevice: deviceId });
  const { token } = await signIn(t, user.email, user.password, deviceId);
  return { user, headers: { authorization: `Bearer ${token}`, 'x-device-id': deviceId } };
}

const balanceOf = async (id: string) =>
  (await t.db.select({ credits: users.credits }).from(users).where(eq(users.id, id)))[0]?.credits;

describe('the ledger under concurrency (PostgreSQL)', () => {
  it('1,000 concurrent paid lookups against 100 credits: exactly 100 charges, 900 answers of 402, balance 0', async () => {
    const { user, headers } = await investigator(100);
    // Distinct numbers: a repeat would be a free cache hit, not a paid lookup.
    const answers = await Promise.all(
      Array.from({ length: 1000 }, async (_, i) => {
        const res = await fetch(`${base}/api/tel?number=91${7000000000 + i}`, { headers });
        const body = (await res.json()) as { credits?: number; message?: string };
        return { status: res.status, body };
      }),
    );
    const by = (status: number) => answers.filter((a) => a.status === status);
    expect(by(200)).toHaveLength(100);
    expect(by(402)).toHaveLength(900);
    for (const a of by(402)) expect(a.body).toEqual({ message: 'Insufficient credits.', credits: 0 });
    expect(await balanceOf(user.id)).toBe(0);
    const charges = await t.db
      .select()
      .from(creditEntries)
      .where(and(eq(creditEntries.userId, user.id), eq(creditEntries.kind, 'charge')));
    expect(charges).toHaveLength(100);
    const paid = await t.db
      .select()
      .from(lookups)
      .where(and(eq(lookups.userId, user.id), sql`${lookups.cost} > 0`));
    expect(paid).toHaveLength(100);
    expect(await bookProblems(t.db)).toEqual([]);
  }, 120_000);

  it('20 users at once, mixed lookup kinds with refunds: every balance equals its ledger', async () => {
    const people = await Promise.all(Array.from({ length: 20 }, (_, i) => investigator(15 + i)));
    const calls: Array<(p: (typeof people)[number], i: number) => Promise<Response>> = [
      (p, i) => fetch(`${base}/api/tel?number=91${8100000000 + i}`, { headers: p.headers }),
      (p, i) => fetch(`${base}/api/email?email=stress${i}@example.test`, { headers: p.headers }),
      (p, i) =>
        fetch(`${base}/api/rcfull-details`, {
          method: 'POST',
          headers: { ...p.headers, 'content-type': 'application/json' },
          body: JSON.stringify({ id_number: `MH12FP${String(1000 + (i % 9000)).padStart(4, '0')}` }),
        }),
      (p, i) =>
        fetch(`${base}/api/upifull-details`, {
          method: 'POST',
          headers: { ...p.headers, 'content-type': 'application/json' },
          body: JSON.stringify({ upi_id: `stress${i}@oksbi` }),
        }),
      (p, i) =>
        fetch(`${base}/api/rc-challan-details`, {
          method: 'POST',
          headers: { ...p.headers, 'content-type': 'application/json' },
          body: JSON.stringify({ rc_number: `KA01FP${String(1000 + (i % 9000)).padStart(4, '0')}` }),
        }),
      (p, i) =>
        fetch(`${base}/api/leak-data-finder/?page=1&per_page=10`, {
          method: 'POST',
          headers: { ...p.headers, 'content-type': 'application/json' },
          body: JSON.stringify({
            fields: [{ id: 1, type: 'email', value: `leak${i}@example.test`, isValid: true, error: '' }],
          }),
        }),
    ];
    const statuses = new Map<number, number>();
    await Promise.all(
      people.flatMap((p, u) =>
        Array.from({ length: 30 }, async (_, k) => {
          const i = u * 1000 + k;
          const res = await (calls[k % calls.length] as (typeof calls)[number])(p, i);
          await res.arrayBuffer();
          statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        }),
      ),
    );
    // 600 requests against 390 credits: some are refused, and the failing sources cause refunds.
    expect(statuses.get(402) ?? 0).toBeGreaterThan(0);
    expect(
      [...statuses.keys()].every((s) => [200, 402, 502].includes(s)),
      JSON.stringify([...statuses]),
    ).toBe(true);
    const refunded = rowsOf<{ n: number }>(
      await t.db.execute(sql`select count(*)::int as n from credit_entries where kind = 'refund'`),
    )[0]?.n;
    expect(Number(refunded)).toBeGreaterThan(0);
    console.log(
      `20 users, 600 mixed requests: statuses ${JSON.stringify(Object.fromEntries(statuses))}, ${refunded} refunds`,
    );
    expect(await bookProblems(t.db)).toEqual([]);
  }, 120_000);
});
