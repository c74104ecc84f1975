// Retention by policy, proven by running the purge: a unit keeps its members' results for less than
// the deployment's period, never more; a legal hold keeps a case's results (and the originals its free
// repeats show) past every period until it is released; the lookups rows and the audit trail stay.
import { count, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents, caseItems, lookups } from '../../src/db/schema.ts';
import { purgeExpiredResults } from '../../src/modules/lookup/retention.ts';
import { deploymentDefaults } from '../../src/modules/settings/service.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { caller, signedInAccount } from '../support/units.ts';

let t: TestApp;
const DAY = 86_400_000;

const call = caller(() => t);

const person = (role: 'user' | 'admin' = 'user') => signedInAccount(t, { role });

/** A stored search of `userId`, `days` old (a free repeat of `cacheOf` when given). */
async function searchOf(userId: string, days: number, cacheOf?: string) {
  const at = new Date(Date.now() - days * DAY);
  const [row] = await t.db
    .insert(lookups)
    .values({
      userId,
      kind: 'tel',
      query: '919876543210',
      queryTyped: '9876543210',
      cost: cacheOf ? 0 : 1,
      status: 'complete',
      result: cacheOf ? null : { demo: true },
      cacheOf: cacheOf ?? null,
      createdAt: at,
      completedAt: at,
    })
    .returning();
  return row!.id;
}

const kept = async (ids: string[]) =>
  new Map(
    (
      await t.db
        .select({ id: lookups.id, result: lookups.result })
        .from(lookups)
        .where(inArray(lookups.id, ids))
    ).map((row) => [row.id, row.result !== null]),
  );

beforeAll(async () => {
  t = await createTestApp({ env: { RATE_LIMIT_ENABLED: 'false', LOOKUP_RETENTION_DAYS: '180' } });
}, 120_000);
afterAll(() => t?.close());

describe('retention by policy', () => {
  it("purges on the shortest period of the searcher's units within the ceiling, and keeps what a legal hold holds until it is released", async () => {
    const admin = await person('admin');
    const short = await person();
    const plain = await person();
    const unit = await call('POST', '/api/units', admin.session, {
      name: 'Short retention cell',
      parent_id: null,
    });
    expect(unit.status).toBe(201);
    const set = await call('PATCH', `/api/units/${unit.body.id}`, admin.session, { retention_days: 30 });
    expect(set).toMatchObject({ status: 200, body: { retention_days: 30 } });
    // A unit may not keep longer than the ceiling: 400 days is taken, and the ceiling (180) applies.
    const long = await call('POST', '/api/units', admin.session, {
      name: 'Long retention cell',
      parent_id: null,
    });
    expect(
      (await call('PATCH', `/api/units/${long.body.id}`, admin.session, { retention_days: 400 })).status,
    ).toBe(200);
    for (const [who, unitId] of [
      [short, unit.body.id],
      [plain, long.body.id],
    ] as const) {
      const placed = await call('POST', `/api/units/${unitId}/members`, admin.session, {
        email: who.email,
        role: 'investigator',
      });
      expect(placed.status).toBe(201);
    }
    expect(
      (await call('PATCH', `/api/units/${unit.body.id}`, admin.session, { retention_days: 0 })).status,
    ).toBe(422);
    expect(
      (await call('PATCH', `/api/units/${unit.body.id}`, short.session, { retention_days: 1 })).status,
    ).toBe(403);

    const shortOld = await searchOf(short.id, 40);
    const shortYoung = await searchOf(short.id, 10);
    const plainOld = await searchOf(plain.id, 40);
    const plainAncient = await searchOf(plain.id, 200);
    const heldOriginal = await searchOf(short.id, 200);
    const heldRepeat = await searchOf(short.id, 1, heldOriginal);
    const heldDirect = await searchOf(short.id, 300);

    const theCase = await call('POST', '/api/cases', short.session, { title: 'Held evidence' });
    expect(theCase.status).toBe(201);
    await t.db.insert(caseItems).values([
      { caseId: theCase.body.id, lookupId: heldRepeat, addedBy: short.id },
      { caseId: theCase.body.id, lookupId: heldDirect, addedBy: short.id },
    ]);
    const hold = await call('PUT', `/api/cases/${theCase.body.id}/hold`, short.session, {
      reason: 'Court proceedings pending',
    });
    expect(hold).toMatchObject({
      status: 200,
      body: { legal_hold: { reason: 'Court proceedings pending', by: { id: short.id } } },
    });
    expect(
      (await call('PUT', `/api/cases/${theCase.body.id}/hold`, plain.session, { reason: 'x' })).status,
    ).toBe(404);

    const [audit] = await t.db.select({ n: count() }).from(auditEvents);
    const defaults = deploymentDefaults(t.config);
    const first = await purgeExpiredResults(t.db, defaults);
    expect(first.retentionDays).toBe(180);
    expect(await kept([shortOld, shortYoung, plainOld, plainAncient, heldOriginal, heldDirect])).toEqual(
      new Map([
        [shortOld, false],
        [shortYoung, true],
        [plainOld, true],
        [plainAncient, false],
        [heldOriginal, true],
        [heldDirect, true],
      ]),
    );
    // Past the ceiling, a held result still opens; an unheld one is gone (410).
    expect((await call('GET', `/api/history/${heldDirect}`, short.session)).status).toBe(200);
    expect((await call('GET', `/api/history/${heldRepeat}`, short.session)).status).toBe(200);
    expect((await call('GET', `/api/history/${shortOld}`, short.session)).status).toBe(410);

    const released = await call('DELETE', `/api/cases/${theCase.body.id}/hold`, short.session);
    expect(released).toMatchObject({ status: 200, body: { legal_hold: null } });
    expect((await call('DELETE', `/api/cases/${theCase.body.id}/hold`, short.session)).status).toBe(404);
    await purgeExpiredResults(t.db, defaults);
    expect(await kept([heldOriginal, heldDirect, shortYoung])).toEqual(
      new Map([
        [heldOriginal, false],
        [heldDirect, false],
        [shortYoung, true],
      ]),
    );
    expect((await call('GET', `/api/history/${heldDirect}`, short.session)).status).toBe(410);

    // The rows of who searched what stay, and the audit trail only grew.
    expect(
      await t.db.select({ id: lookups.id }).from(lookups).where(eq(lookups.userId, short.id)),
    ).toHaveLength(5);
    const [after] = await t.db.select({ n: count() }).from(auditEvents);
    expect(Number(after!.n)).toBeGreaterThan(Number(audit!.n));
    const actions = await t.db
      .select({ action: auditEvents.action })
      .from(auditEvents)
      .where(inArray(auditEvents.action, ['case.hold', 'case.release']));
    expect(new Set(actions.map((row) => row.action))).toEqual(new Set(['case.hold', 'case.release']));
  });
});
