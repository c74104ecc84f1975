// Sensitive searches wait for a supervisor: held (202) with nothing charged, the supervisors told by
// e-mail (a real SMTP server on loopback), approved by a supervisor of the requester's unit and run then
// as the requester's search, charged to their unit's pool; rejected with a reason and never charged;
// refused to the requester themself and to a supervisor of an unrelated unit; expired when nobody
// decides; and the same 202 for an API key, which follows its request where the 202 says.
import { randomUUID } from 'node:crypto';
import { approvalsMessages, messages } from '@footprint/domain';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  auditEvents,
  creditEntries,
  lookups,
  searchApprovals,
  units,
  users,
  watches,
} from '../../src/db/schema.ts';
import { findLedgerMismatches } from '../../src/modules/credits/service.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { caller, type Session, signedInAccount } from '../support/units.ts';

let t: TestApp;
const call = caller(() => t);
type Person = { id: string; email: string; session: Session };
const people = {} as Record<
  'admin' | 'investigator' | 'supervisor' | 'districtSupervisor' | 'stranger',
  Person
>;
const tree = {} as Record<'district' | 'station' | 'other', string>;
let upi = 0;
const nextUpi = () => ({ upi_id: `held${++upi}${randomUUID().slice(0, 4)}@oksbi` });

beforeAll(async () => {
  t = await createTestApp({ env: { RATE_LIMIT_ENABLED: 'false', COST_UPI: '3' } });
  for (const who of ['admin', 'investigator', 'supervisor', 'districtSupervisor', 'stranger'] as const) {
    const account = await signedInAccount(t, { role: who === 'admin' ? 'admin' : 'user', credits: 10 });
    people[who] = { id: account.id, email: account.email, session: account.session };
  }
  const unit = async (name: string, parent_id: string | null) => {
    const res = await call('POST', '/api/units', people.admin.session, {
      name: `${name} ${randomUUID().slice(0, 6)}`,
      parent_id,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.id as string;
  };
  tree.district = await unit('District', null);
  tree.station = await unit('Station', tree.district);
  tree.other = await unit('Other district', null);
  for (const [unitId, who, role] of [
    [tree.station, 'investigator', 'investigator'],
    [tree.station, 'supervisor', 'supervisor'],
    [tree.district, 'districtSupervisor', 'supervisor'],
    [tree.other, 'stranger', 'supervisor'],
  ] as const) {
    const res = await call('POST', `/api/units/${unitId}/members`, people.admin.session, {
      email: people[who].email,
      role,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
  }
  // The station's pool pays its investigator's searches (up to 20 credits a month).
  expect(
    (
      await call('POST', `/api/units/${tree.station}/credits`, people.admin.session, {
        amount: 30,
        reason: 'budget',
      })
    ).status,
  ).toBe(200);
  expect(
    (
      await call(
        'PUT',
        `/api/units/${tree.station}/members/${people.investigator.id}/allowance`,
        people.admin.session,
        { monthly_allowance: 20 },
      )
    ).status,
  ).toBe(200);
  const settings = await call('PATCH', '/api/admin/settings', people.admin.session, {
    approval_kinds: ['upi'],
    approval_hours: 2,
  });
  expect(settings.status, JSON.stringify(settings.body)).toBe(200);
  expect(settings.body).toMatchObject({ approval_kinds: ['upi'], approval_hours: 2 });
});
afterAll(() => t?.close());

const ask = (who: Person, body = nextUpi()) => call('POST', '/api/upifull-details', who.session, body);
const pool = async () =>
  (await t.db.select({ credits: units.credits }).from(units).where(eq(units.id, tree.station)))[0]!.credits;
const own = async (id: string) =>
  (await t.db.select({ credits: users.credits }).from(users).where(eq(users.id, id)))[0]!.credits;

describe('a sensitive search', () => {
  let held = '';

  it('is held with a 202, charges nothing, runs nothing, and mails the supervisors of the unit and above', async () => {
    const lookupsBefore = (
      await t.db.select().from(lookups).where(eq(lookups.userId, people.investigator.id))
    ).length;
    const res = await ask(people.investigator);
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    expect(res.body.message).toBe(approvalsMessages.held('UPI'));
    expect(res.body.status).toBe('pending');
    held = res.body.approval.id;
    expect(res.body.poll).toBe(`/api/approvals/${held}`);
    expect(res.body.approval).toMatchObject({ status: 'pending', kind: 'upi', cost: 3, lookup_id: null });
    expect(await pool()).toBe(30);
    expect(await own(people.investigator.id)).toBe(10);
    expect((await t.db.select().from(lookups).where(eq(lookups.userId, people.investigator.id))).length).toBe(
      lookupsBefore,
    );

    for (const who of ['supervisor', 'districtSupervisor'] as const) {
      const mail = await t.smtp.waitFor(
        (m) => m.to.includes(people[who].email) && m.subject.includes('asks to run'),
      );
      expect(mail.text).toContain('/approvals');
    }
    const trail = await t.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, 'approval.request'), eq(auditEvents.target, held)));
    expect(trail).toHaveLength(1);
  });

  it('is seen by the supervisors above the requester, not by one of an unrelated unit, who cannot decide it either', async () => {
    for (const who of ['supervisor', 'districtSupervisor'] as const) {
      const queue = await call('GET', '/api/approvals', people[who].session);
      expect(queue.body.data.map((r: { id: string }) => r.id)).toContain(held);
    }
    const strangers = await call('GET', '/api/approvals', people.stranger.session);
    expect(strangers.body.data.map((r: { id: string }) => r.id)).not.toContain(held);
    expect((await call('GET', `/api/approvals/${held}`, people.stranger.session)).status).toBe(404);
    expect(
      (await call('POST', `/api/approvals/${held}`, people.stranger.session, { decision: 'approve' })).status,
    ).toBe(404);
    // An admin decides only for someone with no supervisor: this requester has two.
    expect(
      (await call('POST', `/api/approvals/${held}`, people.admin.session, { decision: 'approve' })).status,
    ).toBe(404);
    expect(
      (await call('POST', `/api/approvals/${held}`, people.investigator.session, { decision: 'approve' }))
        .status,
    ).toBe(403);
    expect((await call('GET', `/api/approvals/${held}`, people.investigator.session)).body.status).toBe(
      'pending',
    );
  });

  it('runs when a supervisor approves it, as the requester’s search, charged to their unit’s pool, and tells them', async () => {
    const res = await call('POST', `/api/approvals/${held}`, people.districtSupervisor.session, {
      decision: 'approve',
      note: 'FIR on file',
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({
      status: 'approved',
      note: 'FIR on file',
      decided_by: { id: people.districtSupervisor.id },
    });
    expect(res.body.lookup_id).toEqual(expect.any(String));
    expect(await pool()).toBe(27);
    expect(await own(people.investigator.id)).toBe(10);
    const [charge] = await t.db
      .select()
      .from(creditEntries)
      .where(eq(creditEntries.lookupId, res.body.lookup_id));
    expect(charge).toMatchObject({ userId: people.investigator.id, unitId: tree.station, delta: -3 });
    // The requester reads the result as their own search.
    const result = await call('GET', `/api/history/${res.body.lookup_id}`, people.investigator.session);
    expect(result.status).toBe(200);
    const mail = await t.smtp.waitFor(
      (m) => m.to.includes(people.investigator.email) && m.subject.includes('approved'),
    );
    expect(mail.text).toContain(`/history/${res.body.lookup_id}`);
    const again = await call('POST', `/api/approvals/${held}`, people.supervisor.session, {
      decision: 'reject',
      note: 'late',
    });
    expect(again.status).toBe(409);
    const [approveRow] = await t.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, 'approval.approve'), eq(auditEvents.target, held)));
    expect(approveRow?.userId).toBe(people.districtSupervisor.id);
  });

  it('charges nothing when rejected, which needs a reason', async () => {
    const res = await ask(people.investigator);
    expect(res.status).toBe(202);
    const id = res.body.approval.id;
    const noReason = await call('POST', `/api/approvals/${id}`, people.supervisor.session, {
      decision: 'reject',
    });
    expect(noReason.status).toBe(422);
    const rejected = await call('POST', `/api/approvals/${id}`, people.supervisor.session, {
      decision: 'reject',
      note: 'No FIR yet',
    });
    expect(rejected.status, JSON.stringify(rejected.body)).toBe(200);
    expect(rejected.body).toMatchObject({ status: 'rejected', note: 'No FIR yet', lookup_id: null });
    expect(await pool()).toBe(27);
    expect(await own(people.investigator.id)).toBe(10);
    await t.smtp.waitFor((m) => m.to.includes(people.investigator.email) && m.subject.includes('rejected'));
    const mine = await call('GET', '/api/approvals/mine', people.investigator.session);
    expect(mine.body.data.map((r: { status: string }) => r.status)).toEqual(['rejected', 'approved']);
  });

  it('expires when nobody decides it in time', async () => {
    const res = await ask(people.investigator);
    const id = res.body.approval.id;
    await t.db
      .update(searchApprovals)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(searchApprovals.id, id));
    const late = await call('POST', `/api/approvals/${id}`, people.supervisor.session, {
      decision: 'approve',
    });
    expect(late.status).toBe(409);
    expect((await call('GET', `/api/approvals/${id}`, people.investigator.session)).body.status).toBe(
      'expired',
    );
    expect(await pool()).toBe(27);
    // The requester is told, though nobody decided it.
    const mail = await t.smtp.waitFor(
      (m) => m.to.includes(people.investigator.email) && m.subject.endsWith(': expired'),
    );
    expect(mail.text).toContain('was not decided in time, so nothing was run or charged');
  });

  it('answers an API key 202 too, and the key follows its request where the answer says', async () => {
    const created = await call('POST', '/api/api-keys', people.investigator.session, {
      name: `held ${randomUUID().slice(0, 6)}`,
      scopes: ['lookups'],
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const key = { authorization: `Bearer ${created.body.key ?? created.body.token}` };
    const res = await call('POST', '/api/upifull-details', key, nextUpi());
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    const polled = await call('GET', res.body.poll, key);
    expect(polled.status, JSON.stringify(polled.body)).toBe(200);
    expect(polled.body.status).toBe('pending');
    await call('POST', res.body.poll, people.supervisor.session, { decision: 'approve' });
    const done = await call('GET', res.body.poll, key);
    expect(done.body.status).toBe('approved');
    expect(
      (await call('GET', `/api/history/${done.body.lookup_id}`, people.investigator.session)).status,
    ).toBe(200);
    // It ran with the key: the lookup names it, so the key's monthly cap counts it.
    const [ran] = await t.db.select().from(lookups).where(eq(lookups.id, done.body.lookup_id));
    expect(ran!.apiKeyId).toBe(created.body.id);

    // A key revoked while its request waits: the approved request does not run, and charges nothing.
    const waiting = await call('POST', '/api/upifull-details', key, nextUpi());
    expect(waiting.status).toBe(202);
    expect(
      (await call('DELETE', `/api/api-keys/${created.body.id}`, people.investigator.session)).status,
    ).toBe(200);
    const poolBefore = await pool();
    const refused = await call('POST', waiting.body.poll, people.supervisor.session, { decision: 'approve' });
    expect(refused.status, JSON.stringify(refused.body)).toBe(200);
    expect(refused.body).toMatchObject({
      status: 'failed',
      failure: approvalsMessages.keyGone,
      lookup_id: null,
    });
    expect(await pool()).toBe(poolBefore);
  });

  it('is settled by the sweep when the server stopped between its approval and its answer', async () => {
    const long = new Date(Date.now() - 20 * 60_000);
    // One whose search never answered: it fails, and the requester is told.
    const res = await ask(people.investigator);
    const lost = res.body.approval.id as string;
    await t.db
      .update(searchApprovals)
      .set({ status: 'approved', deciderId: people.supervisor.id, decidedAt: long })
      .where(eq(searchApprovals.id, lost));
    // One whose search answered, the server stopping before it noted the lookup: it gets its lookup back.
    const [answered] = await t.db.select().from(searchApprovals).where(eq(searchApprovals.id, held));
    await t.db
      .update(searchApprovals)
      .set({ lookupId: null, decidedAt: long })
      .where(eq(searchApprovals.id, held));
    // A recent approval is left alone: its search may still be running.
    const recent = (await ask(people.investigator)).body.approval.id as string;
    await t.db
      .update(searchApprovals)
      .set({ status: 'approved', deciderId: people.supervisor.id, decidedAt: new Date() })
      .where(eq(searchApprovals.id, recent));

    await t.app.approvals.sweep();
    const read = async (id: string) =>
      (await t.db.select().from(searchApprovals).where(eq(searchApprovals.id, id)))[0]!;
    expect(await read(lost)).toMatchObject({ status: 'failed', failure: approvalsMessages.interrupted });
    expect(await read(held)).toMatchObject({ status: 'approved', lookupId: answered!.lookupId });
    expect(await read(recent)).toMatchObject({ status: 'approved', lookupId: null, failure: null });
    const mail = await t.smtp.waitFor(
      (m) => m.to.includes(people.investigator.email) && m.text.includes(approvalsMessages.interrupted),
    );
    expect(mail.subject).toContain('approved, but it could not run');
    // A second sweep changes nothing.
    await t.app.approvals.sweep();
    expect(await read(lost)).toMatchObject({ status: 'failed' });
    await t.db
      .update(searchApprovals)
      .set({ status: 'rejected', note: 'test over' })
      .where(eq(searchApprovals.id, recent));
  });

  it('holds a bulk job of more rows than approval_bulk_rows until a supervisor approves it; a rejected one never runs', async () => {
    const settings = await call('PATCH', '/api/admin/settings', people.admin.session, {
      approval_bulk_rows: 2,
    });
    expect(settings.status, JSON.stringify(settings.body)).toBe(200);
    expect(settings.body.approval_bulk_rows).toBe(2);
    try {
      const list = (suffix: string) => ({
        type: 'tel',
        values: [`98765200${suffix}1`, `98765200${suffix}2`, `98765200${suffix}3`],
      });
      const poolBefore = await pool();
      const held = await call('POST', '/api/bulk', people.investigator.session, list('1'));
      expect(held.status, JSON.stringify(held.body)).toBe(202);
      expect(held.body).toMatchObject({
        status: 'awaiting_approval',
        total: 3,
        approval_id: expect.any(String),
      });
      const request = await call('GET', `/api/approvals/${held.body.approval_id}`, people.supervisor.session);
      expect(request.body).toMatchObject({
        status: 'pending',
        kind: 'bulk:tel',
        kind_label: 'Bulk phone',
        query: 'Pasted list (3 rows)',
        job_id: held.body.id,
        decides: true,
      });
      await t.smtp.waitFor(
        (m) => m.to.includes(people.supervisor.email) && m.text.includes('Pasted list (3 rows)'),
      );
      // Nothing runs while it waits, and its owner cannot resume it past the approval.
      await new Promise((resolve) => setTimeout(resolve, 300));
      const waiting = await call('GET', `/api/bulk/${held.body.id}`, people.investigator.session);
      expect(waiting.body).toMatchObject({ status: 'awaiting_approval', done: 0 });
      expect(
        (await call('POST', `/api/bulk/${held.body.id}/resume`, people.investigator.session, {})).status,
      ).toBe(409);
      expect(await pool()).toBe(poolBefore);

      const approved = await call(
        'POST',
        `/api/approvals/${held.body.approval_id}`,
        people.supervisor.session,
        {
          decision: 'approve',
        },
      );
      expect(approved.status, JSON.stringify(approved.body)).toBe(200);
      expect(approved.body).toMatchObject({ status: 'approved', lookup_id: null, job_id: held.body.id });
      let job = { status: '', done: 0 };
      for (let i = 0; i < 100 && job.status !== 'done'; i += 1) {
        job = (await call('GET', `/api/bulk/${held.body.id}`, people.investigator.session)).body;
        if (job.status !== 'done') await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(job).toMatchObject({ status: 'done', done: 3 });
      const [release] = await t.db
        .select()
        .from(auditEvents)
        .where(and(eq(auditEvents.action, 'bulk.release'), eq(auditEvents.target, held.body.id)));
      expect(release?.details).toMatchObject({
        approval_id: held.body.approval_id,
        approved_by: people.supervisor.id,
      });

      // Rejected: not approved, every row skipped, nothing charged, the owner told.
      const second = await call('POST', '/api/bulk', people.investigator.session, list('2'));
      expect(second.status).toBe(202);
      const spent = await pool();
      const rejected = await call(
        'POST',
        `/api/approvals/${second.body.approval_id}`,
        people.supervisor.session,
        {
          decision: 'reject',
          note: 'Too broad',
        },
      );
      expect(rejected.body.status).toBe('rejected');
      const refused = await call('GET', `/api/bulk/${second.body.id}`, people.investigator.session);
      expect(refused.body).toMatchObject({ status: 'not_approved', done: 3, charged: 0 });
      expect(await pool()).toBe(spent);

      // At the threshold, a job is queued at once.
      const small = await call('POST', '/api/bulk', people.investigator.session, {
        type: 'tel',
        values: ['9876520031', '9876520032'],
      });
      expect(small.body).toMatchObject({ status: 'queued', approval_id: null });
    } finally {
      await call('PATCH', '/api/admin/settings', people.admin.session, { approval_bulk_rows: 0 });
    }
  });

  it('is not watched: a watch of a sensitive kind is refused, and one made before is paused, not run', async () => {
    const kinds = (approval_kinds: string[]) =>
      call('PATCH', '/api/admin/settings', people.admin.session, { approval_kinds });
    const earlier = await call('POST', '/api/watches', people.investigator.session, {
      kind: 'tel',
      query: '919876520077',
      schedule: 'daily',
    });
    expect(earlier.status, JSON.stringify(earlier.body)).toBe(201);
    expect((await kinds(['tel', 'upi'])).status).toBe(200);
    try {
      const refused = await call('POST', '/api/watches', people.investigator.session, {
        kind: 'tel',
        query: '919876520078',
        schedule: 'daily',
      });
      expect(refused.status).toBe(422);
      expect(refused.body.message).toBe(messages.watchlist.needsApproval('Phone'));
      const lookupsBefore = (await t.db.select().from(lookups).where(eq(lookups.query, '919876520077')))
        .length;
      const now = await call('POST', `/api/watches/${earlier.body.id}/run`, people.investigator.session, {});
      expect(now.status).toBe(422);
      await t.app.watchlists.runOne(earlier.body.id);
      const [watch] = await t.db.select().from(watches).where(eq(watches.id, earlier.body.id));
      expect(watch!.status).toBe('paused');
      expect((await t.db.select().from(lookups).where(eq(lookups.query, '919876520077'))).length).toBe(
        lookupsBefore,
      );
      const resume = await call('PATCH', `/api/watches/${earlier.body.id}`, people.investigator.session, {
        status: 'active',
      });
      expect(resume.status).toBe(422);
    } finally {
      await kinds(['upi']);
    }
  });

  it('is not held when its kind is not sensitive, and the books balance', async () => {
    const tel = await call('GET', '/api/tel?number=919876520001', people.investigator.session);
    expect(tel.status).toBe(200);
    expect(await findLedgerMismatches(t.db)).toEqual([]);
  });
});
