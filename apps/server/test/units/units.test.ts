// Units: the tree an admin builds, who belongs where, what a supervisor sees of their people's work,
// cases shared with a unit, and the refusals that keep the tree whole. Through the HTTP API, against a
// real database (the closure table is the migration's triggers').
import { randomUUID } from 'node:crypto';
import { unitsMessages } from '@footprint/domain';
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents, unitMembers, unitPaths, units } from '../../src/db/schema.ts';
import { createTestApp, createUser, type TestApp } from '../support/app.ts';
import { caller, type Session, signedInAccount } from '../support/units.ts';

let t: TestApp;
const people = {} as Record<
  'admin' | 'investigator' | 'colleague' | 'supervisor' | 'districtSupervisor' | 'stranger' | 'unitAdmin',
  { id: string; email: string; session: Session }
>;

const call = caller(() => t);

const tree = {} as Record<'state' | 'district' | 'station' | 'otherState', string>;

beforeAll(async () => {
  t = await createTestApp({ env: { RATE_LIMIT_ENABLED: 'false' } });
  for (const who of Object.keys({
    admin: 1,
    investigator: 1,
    colleague: 1,
    supervisor: 1,
    districtSupervisor: 1,
    stranger: 1,
    unitAdmin: 1,
  }) as (keyof typeof people)[]) {
    const account = await signedInAccount(t, { role: who === 'admin' ? 'admin' : 'user', credits: 20 });
    people[who] = { id: account.id, email: account.email, session: account.session };
  }
  const suffix = randomUUID().slice(0, 6);
  const unit = async (name: string, parent_id: string | null) => {
    const res = await call('POST', '/api/units', people.admin.session, {
      name: `${name} ${suffix}`,
      parent_id,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.id as string;
  };
  tree.state = await unit('State', null);
  tree.district = await unit('District', tree.state);
  tree.station = await unit('Station', tree.district);
  tree.otherState = await unit('Other state', null);
  const place = async (unitId: string, who: keyof typeof people, role: string) => {
    const res = await call('POST', `/api/units/${unitId}/members`, people.admin.session, {
      email: people[who].email,
      role,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
  };
  await place(tree.station, 'investigator', 'investigator');
  await place(tree.station, 'colleague', 'investigator');
  await place(tree.station, 'supervisor', 'supervisor');
  await place(tree.district, 'districtSupervisor', 'supervisor');
  await place(tree.district, 'unitAdmin', 'unit_admin');
  await place(tree.otherState, 'stranger', 'supervisor');
}, 120_000);
afterAll(() => t?.close());

describe('the tree', () => {
  it('puts every new account in the default unit, and keeps the closure of the tree', async () => {
    const fresh = await createUser(t.db);
    const held = await t.db
      .select({ isDefault: units.isDefault, role: unitMembers.role })
      .from(unitMembers)
      .innerJoin(units, eq(units.id, unitMembers.unitId))
      .where(eq(unitMembers.userId, fresh.id));
    expect(held).toEqual([{ isDefault: true, role: 'investigator' }]);
    const above = await t.db
      .select({ ancestor: unitPaths.ancestorId, distance: unitPaths.distance })
      .from(unitPaths)
      .where(eq(unitPaths.descendantId, tree.station));
    expect(new Map(above.map((row) => [row.ancestor, row.distance]))).toEqual(
      new Map([
        [tree.station, 0],
        [tree.district, 1],
        [tree.state, 2],
      ]),
    );
  });

  it('lists the tree parents first with level names, and shows an investigator only their own branch', async () => {
    const all = await call('GET', '/api/units', people.admin.session);
    expect(all.status).toBe(200);
    const order = all.body.units.map((u: { id: string }) => u.id);
    expect(order.indexOf(tree.state)).toBeLessThan(order.indexOf(tree.district));
    expect(order.indexOf(tree.district)).toBeLessThan(order.indexOf(tree.station));
    const station = all.body.units.find((u: { id: string }) => u.id === tree.station);
    expect(station).toMatchObject({ level: 2, level_name: all.body.levels[2], member_count: 3 });
    expect(all.body.edits_tree).toBe(true);

    const mine = await call('GET', '/api/units', people.investigator.session);
    const seen = mine.body.units.map((u: { id: string }) => u.id);
    expect(seen).toEqual(expect.arrayContaining([tree.state, tree.district, tree.station]));
    expect(seen).not.toContain(tree.otherState);
    expect(mine.body.edits_tree).toBe(false);
    expect(mine.body.memberships.map((m: { role: string }) => m.role)).toContain('investigator');
  });

  it('refuses what would break the tree, and changes nothing', async () => {
    const moveInside = await call('PATCH', `/api/units/${tree.state}`, people.admin.session, {
      parent_id: tree.station,
    });
    expect(moveInside).toMatchObject({ status: 409, body: { message: unitsMessages.moveIntoItself } });
    const levels = (await call('GET', '/api/units', people.admin.session)).body.levels as string[];
    // The station is on the last level but one of the four: one more level fits, not two.
    const desk = await call('POST', '/api/units', people.admin.session, {
      name: 'Desk',
      parent_id: tree.station,
    });
    expect(desk.status).toBe(201);
    const tooDeep = await call('POST', '/api/units', people.admin.session, {
      name: 'Shelf',
      parent_id: desk.body.id,
    });
    expect(tooDeep).toMatchObject({ status: 409, body: { message: unitsMessages.tooDeep(levels.length) } });
    const shrink = await call('PUT', '/api/units/levels', people.admin.session, {
      levels: ['State', 'District'],
    });
    expect(shrink.status).toBe(409);
    const twin = await call('POST', '/api/units', people.admin.session, {
      name: 'desk',
      parent_id: tree.station,
    });
    expect(twin).toMatchObject({ status: 409, body: { errors: { name: [unitsMessages.nameTaken] } } });
    const notEmpty = await call('DELETE', `/api/units/${tree.district}`, people.admin.session);
    expect(notEmpty).toMatchObject({ status: 409, body: { message: unitsMessages.notEmpty } });
    const [fallback] = await t.db.select({ id: units.id }).from(units).where(eq(units.isDefault, true));
    const keepDefault = await call('DELETE', `/api/units/${fallback!.id}`, people.admin.session);
    expect(keepDefault).toMatchObject({ status: 409, body: { message: unitsMessages.defaultUnit } });
    const control = await call('POST', '/api/units', people.admin.session, {
      name: 'Bad\u0007name',
      parent_id: null,
    });
    expect(control.status).toBe(400);
    expect((await call('DELETE', `/api/units/${desk.body.id}`, people.admin.session)).status).toBe(204);
    const after = await t.db
      .select({ id: units.id })
      .from(units)
      .where(inArray(units.id, [desk.body.id]));
    expect(after).toEqual([]);
  });

  it('moves a branch and renames levels, and writes each change to the audit trail', async () => {
    const branch = await call('POST', '/api/units', people.admin.session, {
      name: `Cell ${randomUUID()}`,
      parent_id: tree.otherState,
    });
    const moved = await call('PATCH', `/api/units/${branch.body.id}`, people.admin.session, {
      parent_id: tree.district,
    });
    expect(moved).toMatchObject({ status: 200, body: { parent_id: tree.district, level: 2 } });
    const levels = await call('PUT', '/api/units/levels', people.admin.session, {
      levels: ['State', 'Range or Commissionerate', 'District', 'Police station / Cyber cell', 'Desk'],
    });
    expect(levels.body.levels).toHaveLength(5);
    const rows = await t.db
      .select({ action: auditEvents.action, target: auditEvents.target })
      .from(auditEvents)
      .where(inArray(auditEvents.action, ['unit.create', 'unit.update', 'unit.levels', 'unit.member.add']));
    const actions = new Set(rows.map((row) => row.action));
    expect(actions).toEqual(new Set(['unit.create', 'unit.update', 'unit.levels', 'unit.member.add']));
    expect(rows.some((row) => row.action === 'unit.update' && row.target === branch.body.id)).toBe(true);
  });

  it('lets only admins build the tree', async () => {
    for (const who of ['supervisor', 'unitAdmin', 'investigator'] as const) {
      const res = await call('POST', '/api/units', people[who].session, { name: 'Mine', parent_id: null });
      expect(res).toMatchObject({ status: 403, body: { message: unitsMessages.treeAdminOnly } });
    }
  });
});

describe('membership', () => {
  it('lets a unit admin above manage members of people already in their units, never themself or an outsider', async () => {
    const admin = people.unitAdmin.session;
    const promote = await call('POST', `/api/units/${tree.station}/members`, admin, {
      email: people.colleague.email,
      role: 'supervisor',
    });
    expect(promote).toMatchObject({ status: 201, body: { role: 'supervisor' } });
    const back = await call('PATCH', `/api/units/${tree.station}/members/${people.colleague.id}`, admin, {
      role: 'investigator',
    });
    expect(back).toMatchObject({ status: 200, body: { role: 'investigator' } });
    const outsider = await call('POST', `/api/units/${tree.station}/members`, admin, {
      email: people.stranger.email,
      role: 'investigator',
    });
    expect(outsider).toMatchObject({ status: 403, body: { message: unitsMessages.outsideUnits } });
    const self = await call('PATCH', `/api/units/${tree.district}/members/${people.unitAdmin.id}`, admin, {
      role: 'supervisor',
    });
    expect(self).toMatchObject({ status: 403, body: { message: unitsMessages.ownMembership } });
  });

  it('lets supervisors read members but not change them, and hides a unit from everyone else', async () => {
    const read = await call('GET', `/api/units/${tree.station}/members`, people.districtSupervisor.session);
    expect(read).toMatchObject({ status: 200, body: { manages: false } });
    expect(read.body.members.map((m: { email: string }) => m.email)).toContain(people.investigator.email);
    const change = await call('POST', `/api/units/${tree.station}/members`, people.supervisor.session, {
      email: people.colleague.email,
      role: 'supervisor',
    });
    expect(change.status).toBe(403);
    for (const who of ['stranger', 'investigator'] as const) {
      const res = await call('GET', `/api/units/${tree.station}/members`, people[who].session);
      expect(res, who).toMatchObject({ status: 404, body: { message: unitsMessages.notFound } });
    }
  });

  it('keeps every account in at least one unit', async () => {
    const lone = await createUser(t.db);
    const [held] = await t.db
      .select({ unitId: unitMembers.unitId })
      .from(unitMembers)
      .where(eq(unitMembers.userId, lone.id));
    const res = await call('DELETE', `/api/units/${held!.unitId}/members/${lone.id}`, people.admin.session);
    expect(res).toMatchObject({ status: 409, body: { message: unitsMessages.lastUnit } });
    expect(await t.db.select().from(unitMembers).where(eq(unitMembers.userId, lone.id))).toHaveLength(1);
  });
});

describe("a supervisor and their people's work", () => {
  it('lets the supervisors of the unit and above read a search and list it under their units, no one else', async () => {
    const search = await call('GET', '/api/tel?number=919876500001', people.investigator.session);
    expect(search.status, JSON.stringify(search.body)).toBe(200);
    const id = search.body.lookup_id as string;
    expect((await call('GET', `/api/history/${id}`, people.investigator.session)).body.user).toBeUndefined();
    for (const who of ['supervisor', 'districtSupervisor'] as const) {
      const read = await call('GET', `/api/history/${id}`, people[who].session);
      expect(read.status, who).toBe(200);
      expect(read.body.user, who).toMatchObject({ id: people.investigator.id });
      const listed = await call('GET', '/api/history?scope=unit', people[who].session);
      const entry = listed.body.data.find((row: { id: string }) => row.id === id);
      expect(entry?.user, who).toMatchObject({
        id: people.investigator.id,
        email: people.investigator.email,
      });
      const own = await call('GET', '/api/history', people[who].session);
      expect(
        own.body.data.map((row: { id: string }) => row.id),
        who,
      ).not.toContain(id);
    }
    for (const who of ['colleague', 'stranger', 'unitAdmin', 'admin'] as const) {
      expect((await call('GET', `/api/history/${id}`, people[who].session)).status, who).toBe(404);
      const listed = await call('GET', '/api/history?scope=unit', people[who].session);
      expect(
        listed.body.data.map((row: { id: string }) => row.id),
        who,
      ).not.toContain(id);
    }
  });

  it('shows a case to the owner’s supervisors, and to a unit it is shared with; the owner or a supervisor shares it', async () => {
    const created = await call('POST', '/api/cases', people.investigator.session, { title: 'Unit case' });
    expect(created.status).toBe(201);
    const caseId = created.body.id as string;
    const seenBy = async (who: keyof typeof people) =>
      (await call('GET', `/api/cases/${caseId}`, people[who].session)).status;
    expect(await seenBy('districtSupervisor')).toBe(200);
    expect((await call('GET', `/api/cases/${caseId}`, people.supervisor.session)).body).toMatchObject({
      role: 'supervisor',
      shares: true,
    });
    expect(await seenBy('stranger')).toBe(404);
    expect(await seenBy('colleague')).toBe(404);

    const refused = await call('POST', `/api/cases/${caseId}/units`, people.stranger.session, {
      unit_id: tree.otherState,
    });
    expect(refused.status).toBe(404);
    const [everyone] = await t.db.select({ id: units.id }).from(units).where(eq(units.isDefault, true));
    const toEveryone = await call('POST', `/api/cases/${caseId}/units`, people.supervisor.session, {
      unit_id: everyone!.id,
    });
    expect(toEveryone).toMatchObject({
      status: 422,
      body: { errors: { unit_id: [unitsMessages.shareDefault] } },
    });
    const shared = await call('POST', `/api/cases/${caseId}/units`, people.supervisor.session, {
      unit_id: tree.otherState,
    });
    expect(shared).toMatchObject({ status: 201, body: { unit_id: tree.otherState } });
    expect(await seenBy('stranger')).toBe(200);
    const asUnit = await call('GET', `/api/cases/${caseId}`, people.stranger.session);
    expect(asUnit.body).toMatchObject({ role: 'unit', shares: false });
    expect(asUnit.body.units.map((u: { unit_id: string }) => u.unit_id)).toEqual([tree.otherState]);
    const list = await call('GET', '/api/cases', people.stranger.session);
    expect(list.body.data.map((c: { id: string }) => c.id)).toContain(caseId);
    const notTheirs = await call(
      'DELETE',
      `/api/cases/${caseId}/units/${tree.otherState}`,
      people.stranger.session,
    );
    expect(notTheirs).toMatchObject({ status: 403, body: { message: unitsMessages.shareNotAllowed } });

    expect(
      (await call('DELETE', `/api/cases/${caseId}/units/${tree.otherState}`, people.investigator.session))
        .status,
    ).toBe(204);
    expect(await seenBy('stranger')).toBe(404);
    const audit = await t.db
      .select({ action: auditEvents.action })
      .from(auditEvents)
      .where(inArray(auditEvents.action, ['case.unit.share', 'case.unit.unshare']));
    expect(new Set(audit.map((row) => row.action))).toEqual(
      new Set(['case.unit.share', 'case.unit.unshare']),
    );
  });

  it('never lets a supervisor change the work they see', async () => {
    const bulk = await call('POST', '/api/bulk', people.investigator.session, {
      type: 'tel',
      values: ['919811100009'],
    });
    expect(bulk.status, JSON.stringify(bulk.body)).toBe(202);
    expect((await call('GET', `/api/bulk/${bulk.body.id}`, people.supervisor.session)).status).toBe(200);
    expect((await call('POST', `/api/bulk/${bulk.body.id}/cancel`, people.supervisor.session)).status).toBe(
      404,
    );
  });

  it("lists the unit's bulk jobs and watches for its supervisors when asked (scope=unit), naming whose", async () => {
    const bulk = await call('POST', '/api/bulk', people.investigator.session, {
      type: 'tel',
      values: ['919811100010'],
    });
    const watch = await call('POST', '/api/watches', people.investigator.session, {
      kind: 'tel',
      query: '919811100011',
      schedule: 'weekly',
    });
    expect(watch.status, JSON.stringify(watch.body)).toBe(201);
    for (const [path, id] of [
      ['/api/bulk', bulk.body.id],
      ['/api/watches', watch.body.id],
    ] as const) {
      const own = await call('GET', path, people.supervisor.session);
      expect(
        own.body.data.map((e: { id: string }) => e.id),
        path,
      ).not.toContain(id);
      for (const who of ['supervisor', 'districtSupervisor'] as const) {
        const listed = await call('GET', `${path}?scope=unit`, people[who].session);
        const entry = listed.body.data.find((e: { id: string }) => e.id === id);
        expect(entry?.user, `${who} ${path}`).toMatchObject({ id: people.investigator.id });
      }
      for (const who of ['stranger', 'colleague'] as const) {
        const listed = await call('GET', `${path}?scope=unit`, people[who].session);
        expect(
          listed.body.data.map((e: { id: string }) => e.id),
          `${who} ${path}`,
        ).not.toContain(id);
      }
      // Their own list holds it unnamed; the unit list is of the people one supervises: none for them.
      const mine = await call('GET', path, people.investigator.session);
      expect(mine.body.data.find((e: { id: string }) => e.id === id).user).toBeUndefined();
      const theirs = await call('GET', `${path}?scope=unit`, people.investigator.session);
      expect(theirs.body.data.map((e: { id: string }) => e.id)).not.toContain(id);
      expect((await call('GET', `${path}?scope=all`, people.supervisor.session)).status).toBe(422);
    }
  });
});
