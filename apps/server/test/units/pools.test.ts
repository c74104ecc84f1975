// Credit pools: a unit holds credits, its members draw on them within a monthly allowance, and the
// ledger says which pool paid. Through the HTTP API (top-ups, allowances, searches, statements, the 402
// that says what ran out) and through the ledger's charge statement itself, 500 charges at once from
// several connections against a small pool, against a real database.
import { randomUUID } from 'node:crypto';
import { unitsMessages } from '@footprint/domain';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents, creditEntries, lookups, unitMembers, units, users } from '../../src/db/schema.ts';
import {
  chargeLookups,
  findLedgerMismatches,
  type LookupCharge,
  refundPendingLookup,
} from '../../src/modules/credits/service.ts';
import { createTestApp, createUser, type TestApp } from '../support/app.ts';
import { caller, type Session, signedInAccount } from '../support/units.ts';

let t: TestApp;
const call = caller(() => t);
type Person = { id: string; email: string; session: Session };
const people = {} as Record<'admin' | 'unitAdmin' | 'member' | 'spender' | 'outsider', Person>;
let unitId = '';
let number = 919876510000;
const nextNumber = () => String(++number);

beforeAll(async () => {
  t = await createTestApp({ env: { RATE_LIMIT_ENABLED: 'false', COST_TEL: '2', COST_EMAIL: '1' } });
  for (const who of ['admin', 'unitAdmin', 'member', 'spender', 'outsider'] as const) {
    const account = await signedInAccount(t, {
      role: who === 'admin' ? 'admin' : 'user',
      credits: who === 'spender' ? 3 : 0,
    });
    people[who] = { id: account.id, email: account.email, session: account.session };
  }
  const created = await call('POST', '/api/units', people.admin.session, {
    name: `Cyber cell ${randomUUID().slice(0, 6)}`,
    parent_id: null,
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  unitId = created.body.id;
  for (const [who, role] of [
    ['unitAdmin', 'unit_admin'],
    ['member', 'investigator'],
    ['spender', 'investigator'],
  ] as const) {
    const res = await call('POST', `/api/units/${unitId}/members`, people.admin.session, {
      email: people[who].email,
      role,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
  }
});
afterAll(() => t?.close());

const pool = () => call('GET', `/api/units/${unitId}/credits`, people.admin.session);
const allowance = (who: Person, member: Person, monthly_allowance: number) =>
  call('PUT', `/api/units/${unitId}/members/${member.id}/allowance`, who.session, { monthly_allowance });

describe("a unit's pool", () => {
  it('is topped up and deducted by admins only, never below zero, each change in the ledger and the trail', async () => {
    expect(
      (
        await call('POST', `/api/units/${unitId}/credits`, people.unitAdmin.session, {
          amount: 5,
          reason: 'x',
        })
      ).status,
    ).toBe(403);
    expect(
      (
        await call('POST', `/api/units/${unitId}/credits`, people.outsider.session, {
          amount: 5,
          reason: 'x',
        })
      ).status,
    ).toBe(404);
    const bad = await call('POST', `/api/units/${unitId}/credits`, people.admin.session, {
      amount: 0,
      reason: '',
    });
    expect(bad.status).toBe(422);

    const topped = await call('POST', `/api/units/${unitId}/credits`, people.admin.session, {
      amount: 9,
      reason: 'FY budget',
    });
    expect(topped.status, JSON.stringify(topped.body)).toBe(200);
    expect(topped.body.balance).toBe(9);
    expect(topped.body.data[0]).toMatchObject({ delta: 9, balance_after: 9, kind: 'grant', unit_id: unitId });

    const below = await call('POST', `/api/units/${unitId}/credits`, people.admin.session, {
      amount: -10,
      reason: 'too much',
    });
    expect(below.status).toBe(409);
    expect(below.body.message).toBe(unitsMessages.poolTooSmall(9));
    expect((await pool()).body.balance).toBe(9);

    const trail = await t.db
      .select({ action: auditEvents.action, details: auditEvents.details })
      .from(auditEvents)
      .where(and(eq(auditEvents.target, unitId), eq(auditEvents.action, 'unit.credits.grant')));
    expect(trail).toEqual([
      { action: 'unit.credits.grant', details: expect.objectContaining({ amount: 9, balance_after: 9 }) },
    ]);
    expect(await findLedgerMismatches(t.db)).toEqual([]);
  });

  it('gives allowances set by admins and unit admins, never by oneself, audited', async () => {
    expect((await allowance(people.member, people.spender, 4)).status).toBe(404);
    expect((await allowance(people.unitAdmin, people.unitAdmin, 40)).status).toBe(403);
    const set = await allowance(people.unitAdmin, people.member, 4);
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    expect(set.body).toMatchObject({ user_id: people.member.id, monthly_allowance: 4, used_this_month: 0 });
    expect((await allowance(people.admin, people.spender, 100)).status).toBe(200);
    expect((await allowance(people.admin, people.spender, -1)).status).toBe(422);
    const [row] = await t.db
      .select({ details: auditEvents.details })
      .from(auditEvents)
      .where(and(eq(auditEvents.target, unitId), eq(auditEvents.action, 'unit.member.allowance')))
      .limit(1);
    expect(row?.details).toMatchObject({ member_id: people.member.id, monthly_allowance: 4, from: 0 });
    const me = await call('GET', '/api/user', people.member.session);
    expect(me.body.pool).toMatchObject({ unit_id: unitId, balance: 9, monthly_allowance: 4, available: 4 });
    expect((await call('GET', '/api/user', people.outsider.session)).body.pool).toBeNull();
  });

  it('pays a member’s searches within the allowance, then says the allowance ran out', async () => {
    for (let i = 0; i < 2; i++) {
      const search = await call('GET', `/api/tel?number=${nextNumber()}`, people.member.session);
      expect(search.status, JSON.stringify(search.body)).toBe(200);
    }
    const after = await pool();
    expect(after.body.balance).toBe(5);
    expect(after.body.members.find((m: { user_id: string }) => m.user_id === people.member.id)).toMatchObject(
      {
        used_this_month: 4,
      },
    );
    const refused = await call('GET', `/api/tel?number=${nextNumber()}`, people.member.session);
    expect(refused.status).toBe(402);
    expect(refused.body.message).toContain('Your monthly allowance from');
    expect(refused.body.pool).toMatchObject({
      ran_out: 'allowance',
      used_this_month: 4,
      monthly_allowance: 4,
    });

    // The member's own statement names the pool; the pool's, filtered to them, holds their two charges.
    const own = await call('GET', '/api/credits/statement', people.member.session);
    expect(own.status, JSON.stringify(own.body)).toBe(200);
    expect(own.body.balance).toBe(0);
    expect(own.body.data.map((e: { delta: number; unit_id: string }) => [e.delta, e.unit_id])).toEqual([
      [-2, unitId],
      [-2, unitId],
    ]);
    const theirs = await call(
      'GET',
      `/api/units/${unitId}/credits?user=${people.member.id}`,
      people.unitAdmin.session,
    );
    expect(theirs.body.total).toBe(2);
    expect(theirs.body.data[0].user).toMatchObject({ id: people.member.id, email: people.member.email });
    expect(theirs.body.sets_allowances).toBe(true);
    expect(theirs.body.tops_up).toBe(false);
  });

  it('falls back to the own balance when the pool runs out, then says the pool ran out', async () => {
    // The pool holds 5: the spender's two searches take 4, the third (1 left) falls to their own 3.
    for (let i = 0; i < 3; i++) {
      const search = await call('GET', `/api/tel?number=${nextNumber()}`, people.spender.session);
      expect(search.status, JSON.stringify(search.body)).toBe(200);
    }
    const [spender] = await t.db
      .select({ credits: users.credits })
      .from(users)
      .where(eq(users.id, people.spender.id));
    expect(spender?.credits).toBe(1);
    expect((await pool()).body.balance).toBe(1);
    const refused = await call('GET', `/api/tel?number=${nextNumber()}`, people.spender.session);
    expect(refused.status).toBe(402);
    expect(refused.body.message).toContain('has run out (1 left)');
    expect(refused.body.pool).toMatchObject({ ran_out: 'pool', balance: 1 });
    // A search of cost 1 still fits the pool's last credit.
    const email = await call(
      'GET',
      `/api/email?email=pool-${randomUUID().slice(0, 8)}@example.test`,
      people.spender.session,
    );
    expect(email.status, JSON.stringify(email.body)).toBe(200);
    expect((await pool()).body.balance).toBe(0);
    expect(await findLedgerMismatches(t.db)).toEqual([]);
  });

  it('takes a refund back to the pool that paid, and to the allowance', async () => {
    await call('POST', `/api/units/${unitId}/credits`, people.admin.session, { amount: 2, reason: 'refill' });
    await allowance(people.admin, people.member, 6);
    const [made] = [
      ...(
        await chargeLookups(t.db, [
          {
            userId: people.member.id,
            cost: 2,
            kind: 'tel',
            query: nextNumber(),
            queryTyped: String(number),
            ip: null,
            deviceId: null,
            caseReference: null,
            at: new Date(),
          },
        ])
      ).values(),
    ];
    expect(made).toMatchObject({ unitId, poolCredits: 0 });
    const refunded = await t.db.transaction((tx) =>
      refundPendingLookup(tx, {
        userId: people.member.id,
        lookupId: made!.lookupId,
        cost: 2,
        reason: 'failed',
        at: new Date(),
      }),
    );
    expect(refunded).toBe(0);
    const after = await pool();
    expect(after.body.balance).toBe(2);
    expect(
      after.body.members.find((m: { user_id: string }) => m.user_id === people.member.id).used_this_month,
    ).toBe(4);
    expect(after.body.data[0]).toMatchObject({ kind: 'refund', delta: 2, balance_after: 2, unit_id: unitId });
    expect(await findLedgerMismatches(t.db)).toEqual([]);
  });

  it('is checked by ledger:check: a pool or an allowance that drifts from its ledger rows is named', async () => {
    await t.db.update(units).set({ credits: 7 }).where(eq(units.id, unitId));
    await t.db
      .update(unitMembers)
      .set({ allowanceUsed: 1 })
      .where(and(eq(unitMembers.unitId, unitId), eq(unitMembers.userId, people.member.id)));
    const found = await findLedgerMismatches(t.db);
    expect(found).toEqual([
      expect.objectContaining({ holder: 'pool', id: unitId, balance: 7, ledgerSum: 2 }),
      expect.objectContaining({
        holder: 'allowance',
        id: `${unitId}/${people.member.id}`,
        balance: 1,
        ledgerSum: 4,
      }),
    ]);
    await t.db.update(units).set({ credits: 2 }).where(eq(units.id, unitId));
    await t.db
      .update(unitMembers)
      .set({ allowanceUsed: 4 })
      .where(and(eq(unitMembers.unitId, unitId), eq(unitMembers.userId, people.member.id)));
    expect(await findLedgerMismatches(t.db)).toEqual([]);
  });

  it('keeps a unit with a pool history from being deleted', async () => {
    const removed = await call('DELETE', `/api/units/${unitId}`, people.admin.session);
    expect(removed.status).toBe(409);
  });
});

describe('500 charges at once against a small pool', () => {
  it('spends exactly what the pool and each allowance allow, and the books balance', async () => {
    const [unit] = await t.db
      .insert(units)
      .values({ name: `Busy station ${randomUUID().slice(0, 6)}` })
      .returning({ id: units.id });
    const POOL = 150;
    await t.db.transaction((tx) =>
      import('../../src/modules/credits/service.ts').then(({ applyPoolChange }) =>
        applyPoolChange(tx, { unitId: unit!.id, delta: POOL, kind: 'grant', reason: 'test' }),
      ),
    );
    // Ten members: six with allowances (summing past the pool), four without, all with a little of their own.
    const members: { id: string; allowance: number; own: number }[] = [];
    for (let i = 0; i < 10; i++) {
      const own = 5 + i;
      const user = await createUser(t.db, { appMode: 'live', credits: own });
      const allowed = i < 6 ? 20 + 10 * i : 0;
      await t.db
        .insert(unitMembers)
        .values({ unitId: unit!.id, userId: user.id, role: 'investigator', monthlyAllowance: allowed });
      members.push({ id: user.id, allowance: allowed, own });
    }
    const at = new Date();
    const charges: LookupCharge[] = Array.from({ length: 500 }, (_, i) => ({
      userId: members[i % members.length]!.id,
      cost: 1 + (i % 3),
      kind: i % 2 ? 'tel' : 'email',
      query: `q-${i}-${randomUUID()}`,
      queryTyped: `q-${i}`,
      ip: null,
      deviceId: null,
      caseReference: null,
      at,
    }));
    // 50 statements of 10, all at once: on PostgreSQL from several pooled connections.
    const batches = Array.from({ length: 50 }, (_, b) => charges.slice(b * 10, b * 10 + 10));
    const results = await Promise.all(batches.map((batch) => chargeLookups(t.db, batch)));
    const made = results.flatMap((result) => [...result.values()]);

    const entries = await t.db
      .select({ userId: creditEntries.userId, unitId: creditEntries.unitId, delta: creditEntries.delta })
      .from(creditEntries)
      .innerJoin(lookups, eq(lookups.id, creditEntries.lookupId))
      .where(eq(creditEntries.kind, 'charge'));
    const mine = entries.filter((e) => members.some((m) => m.id === e.userId));
    expect(mine).toHaveLength(made.length);
    const drawn = mine.filter((e) => e.unitId === unit!.id).reduce((sum, e) => sum - e.delta, 0);
    const [after] = await t.db.select({ credits: units.credits }).from(units).where(eq(units.id, unit!.id));
    expect(after!.credits).toBe(POOL - drawn);
    expect(after!.credits).toBeGreaterThanOrEqual(0);
    // Demand (about 1,000 credits) is far past the pool: it ends with less than the dearest charge left.
    expect(after!.credits).toBeLessThan(3);
    const rows = await t.db.select().from(unitMembers).where(eq(unitMembers.unitId, unit!.id));
    for (const member of members) {
      const row = rows.find((r) => r.userId === member.id)!;
      const theirs = mine
        .filter((e) => e.userId === member.id && e.unitId === unit!.id)
        .reduce((s, e) => s - e.delta, 0);
      const own = mine
        .filter((e) => e.userId === member.id && e.unitId === null)
        .reduce((s, e) => s - e.delta, 0);
      expect(row.allowanceUsed).toBe(theirs);
      expect(theirs).toBeLessThanOrEqual(member.allowance);
      const [user] = await t.db.select({ credits: users.credits }).from(users).where(eq(users.id, member.id));
      expect(user!.credits).toBe(member.own - own);
      expect(user!.credits).toBeGreaterThanOrEqual(0);
    }
    expect(await findLedgerMismatches(t.db)).toEqual([]);
  }, 120_000);
});
