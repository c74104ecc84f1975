// Cases: who sees a case and what they may do with it, searches filing themselves under a case by
// their reference, append-only notes, the legal basis a deployment may require, and the typed
// entities read out of the searches' results.
import { ENTITY_TYPES, entitiesOf, legalBasisLine, legalBasisMessages } from '@footprint/domain';
import { and, count, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents, caseNotes, lookupEntities, lookups, users } from '../../src/db/schema.ts';
import { purgeExpiredResults } from '../../src/modules/lookup/retention.ts';
import { createTestApp, createUser, json, newDeviceId, signIn, type TestApp } from '../support/app.ts';
import { addLeakRecords } from '../support/leaks.ts';
import { pdfText } from '../support/pdf.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ env: { RATE_LIMIT_ENABLED: 'false', LOOKUP_PURGE_INTERVAL_MINUTES: '0' } });
  // The leak search needs an index that can answer (an empty one, with no leak vendor, is a 503).
  await addLeakRecords(t.db, { name: 'Fixture Breach' }, [{ name: 'Fixture Person' }]);
});
afterAll(() => t.close());

async function signedIn(options: Parameters<typeof createUser>[1] = {}) {
  const deviceId = newDeviceId();
  const user = await createUser(t.db, { appMode: 'live', trustedDevice: deviceId, ...options });
  const { token } = await signIn(t, user.email, user.password, deviceId);
  const headers = { authorization: `Bearer ${token}`, 'x-device-id': deviceId };
  const send = (method: 'POST' | 'PATCH' | 'DELETE', url: string, body?: unknown) =>
    t.app.inject({ method, url, ...(body === undefined ? { headers } : json(body, deviceId, token)) });
  return {
    user,
    get: (url: string) => t.app.inject({ method: 'GET', url, headers }),
    post: (url: string, body: unknown) => send('POST', url, body),
    patch: (url: string, body: unknown) => send('PATCH', url, body),
    del: (url: string) => send('DELETE', url),
  };
}
type Client = Awaited<ReturnType<typeof signedIn>>;

async function openCase(
  who: Client,
  body: Record<string, unknown> = { title: 'Op Falcon', reference: `FIR ${Math.random()}` },
) {
  const res = await who.post('/api/cases', body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: string; reference: string };
}

async function balanceOf(userId: string) {
  const [row] = await t.db.select({ credits: users.credits }).from(users).where(eq(users.id, userId));
  return row!.credits;
}

async function setSettings(patch: Record<string, unknown>) {
  const admin = await signedIn({ role: 'admin' });
  const res = await admin.patch('/api/admin/settings', patch);
  expect(res.statusCode, res.body).toBe(200);
}

describe('POST and GET /api/cases', () => {
  it('opens a case, lists it, and answers it with its items and entities', async () => {
    const me = await signedIn();
    const created = await openCase(me, { title: 'Extortion calls', reference: 'FIR 214/2026' });
    expect(created).toMatchObject({
      title: 'Extortion calls',
      reference: 'FIR 214/2026',
      status: 'open',
      role: 'owner',
      items_count: 0,
      legal_basis: null,
    });
    const list = await me.get('/api/cases');
    expect(list.json().data.map((c: { id: string }) => c.id)).toEqual([created.id]);
    const one = await me.get(`/api/cases/${created.id}`);
    expect(one.statusCode).toBe(200);
    expect(one.json()).toMatchObject({ id: created.id, items: [], entities: [], notes: [], members: [] });
  });

  it('gives a case without a reference one of its own, and refuses a reference the user already has', async () => {
    const me = await signedIn();
    const created = await openCase(me, { title: 'No reference yet' });
    expect(created.reference).toMatch(/^CASE-[A-Z2-9]{8}$/);
    await openCase(me, { title: 'First', reference: 'Op Heron' });
    const again = await me.post('/api/cases', { title: 'Second', reference: 'op heron' });
    expect(again.statusCode).toBe(422);
    expect(again.json().errors.reference).toEqual(['You already have a case with this reference.']);
  });

  it('refuses bad input with a 4xx and writes nothing', async () => {
    const me = await signedIn();
    for (const body of [
      {},
      { title: '' },
      { title: '   ' },
      { title: 'x'.repeat(201) },
      { title: 'ok', reference: 'r'.repeat(101) },
      { title: 'ok', legal_basis: { kind: 'rumour', number: '1', purpose: 'p' } },
      { title: 'ok', legal_basis: { kind: 'fir', number: '', purpose: 'p' } },
      // A kind from before kinds had facts is no longer given as new.
      { title: 'ok', legal_basis: { kind: 'warrant', number: '12', purpose: 'p' } },
      { title: 'ok', extra: true },
      { title: 'bad\u0000title' },
      { title: 'bad\u001btitle' },
    ]) {
      const res = await me.post('/api/cases', body);
      expect([400, 422], JSON.stringify(body)).toContain(res.statusCode);
      expect(res.json().message).toEqual(expect.any(String));
    }
    expect((await me.get('/api/cases')).json().data).toEqual([]);
  });

  it('takes a legal basis of each kind with its facts checked, and answers the reference made of them', async () => {
    const me = await signedIn();
    const today = new Date().toISOString().slice(0, 10);
    const good: Array<[Record<string, unknown>, string]> = [
      [
        {
          kind: 'fir',
          police_station: 'Kothrud',
          fir_number: '0214',
          year: 2026,
          sections: ['BNS 318(4)', 'IT Act 66D'],
          purpose: 'Tracing a caller',
        },
        'FIR 0214/2026, Kothrud police station, BNS 318(4); IT Act 66D: Tracing a caller',
      ],
      [
        {
          kind: 'notice',
          provision: 'Section 94 BNSS',
          authority: 'SHO, Cyber Police Station',
          reference: 'CPS/94/17',
          date: today,
          purpose: 'Records of a number',
        },
        `Notice or order under Section 94 BNSS, SHO, Cyber Police Station, ref. CPS/94/17 of ${today}: Records of a number`,
      ],
      [
        {
          kind: 'ncrp_complaint',
          acknowledgement_number: '31504260012345',
          purpose: 'A UPI fraud complaint',
        },
        'NCRP complaint acknowledgement 31504260012345: A UPI fraud complaint',
      ],
      [
        {
          kind: 'preliminary_enquiry',
          reference: 'PE-12/2026',
          officer: 'SI R. Kulkarni',
          purpose: 'Verifying a tip',
        },
        'Preliminary enquiry PE-12/2026, by SI R. Kulkarni: Verifying a tip',
      ],
    ];
    for (const [basis, line] of good) {
      const res = await me.post('/api/cases', { title: `Basis ${basis.kind}`, legal_basis: basis });
      expect(res.statusCode, res.body).toBe(201);
      const answered = res.json().legal_basis;
      expect(legalBasisLine(answered)).toBe(line);
      const { kind: _, purpose: __, ...facts } = basis;
      expect(answered.fields).toMatchObject(facts);
    }
    // Past the latest day anywhere (UTC+14): the day after tomorrow in UTC.
    const tomorrow = new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10);
    const bad: Array<[Record<string, unknown>, string]> = [
      [
        {
          kind: 'fir',
          police_station: 'Kothrud',
          fir_number: '214',
          year: 2026,
          sections: ['Section 420'],
          purpose: 'p',
        },
        'is not a section of an act',
      ],
      [
        {
          kind: 'fir',
          police_station: 'Kothrud',
          fir_number: '21A',
          year: 2026,
          sections: ['BNS 318'],
          purpose: 'p',
        },
        legalBasisMessages.firNumber,
      ],
      [
        {
          kind: 'fir',
          police_station: 'Kothrud',
          fir_number: '214',
          year: 3026,
          sections: ['BNS 318'],
          purpose: 'p',
        },
        'The year must be from 1950',
      ],
      [
        { kind: 'fir', police_station: 'Kothrud', fir_number: '214', year: 2026, sections: [], purpose: 'p' },
        legalBasisMessages.sectionsRequired,
      ],
      [
        { kind: 'notice', provision: 'some rule', authority: 'A', reference: 'R', date: today, purpose: 'p' },
        legalBasisMessages.provision,
      ],
      [
        {
          kind: 'notice',
          provision: '94 BNSS',
          authority: 'A',
          reference: 'R',
          date: tomorrow,
          purpose: 'p',
        },
        legalBasisMessages.date,
      ],
      [
        {
          kind: 'notice',
          provision: '94 BNSS',
          authority: 'A',
          reference: 'R',
          date: '2026-02-30x',
          purpose: 'p',
        },
        legalBasisMessages.date,
      ],
      [
        { kind: 'ncrp_complaint', acknowledgement_number: '12345', purpose: 'p' },
        legalBasisMessages.acknowledgement,
      ],
      [
        { kind: 'preliminary_enquiry', reference: 'PE-1', purpose: 'p' },
        'The enquiry officer field is required.',
      ],
      [{ kind: 'court_order', number: '5', purpose: 'p' }, legalBasisMessages.kind],
    ];
    for (const [basis, message] of bad) {
      const res = await me.post('/api/cases', { title: 'Refused basis', legal_basis: basis });
      expect(res.statusCode, JSON.stringify(basis)).toBe(422);
      expect(Object.values(res.json().errors).flat().join(' '), JSON.stringify(basis)).toContain(message);
    }
    expect((await me.get('/api/cases')).json().data.map((c: { title: string }) => c.title)).not.toContain(
      'Refused basis',
    );
  });

  it('filters the list by status', async () => {
    const me = await signedIn();
    const open = await openCase(me, { title: 'Open one', reference: 'A-1' });
    const closed = await openCase(me, { title: 'Closed one', reference: 'A-2' });
    expect((await me.patch(`/api/cases/${closed.id}`, { status: 'closed' })).statusCode).toBe(200);
    const ids = async (q: string) =>
      (await me.get(`/api/cases${q}`)).json().data.map((c: { id: string }) => c.id);
    expect(await ids('?status=open')).toEqual([open.id]);
    expect(await ids('?status=closed')).toEqual([closed.id]);
    expect((await me.get('/api/cases?status=lost')).statusCode).toBe(422);
  });
});

describe('who sees a case', () => {
  it("answers another user's case 404 on every route, as if it did not exist, and changes nothing", async () => {
    const owner = await signedIn();
    const stranger = await signedIn({ credits: 5 });
    const c = await openCase(owner);
    const own = await stranger.get('/api/history');
    expect(own.statusCode).toBe(200);
    const missing = await stranger.get('/api/cases/00000000-0000-4000-8000-000000000000');
    for (const res of [
      await stranger.get(`/api/cases/${c.id}`),
      await stranger.get(`/api/cases/${c.id}/items`),
      await stranger.get(`/api/cases/${c.id}/bundle`),
      await stranger.patch(`/api/cases/${c.id}`, { title: 'mine now' }),
      await stranger.post(`/api/cases/${c.id}/notes`, { body: 'hello' }),
      await stranger.post(`/api/cases/${c.id}/members`, { email: stranger.user.email }),
      await stranger.del(`/api/cases/${c.id}/members/${owner.user.id}`),
    ]) {
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual(missing.json());
    }
    expect((await stranger.get('/api/cases/not-a-uuid')).statusCode).toBe(404);
    const detail = (await owner.get(`/api/cases/${c.id}`)).json();
    expect(detail).toMatchObject({ title: 'Op Falcon', notes: [], members: [] });
    expect((await stranger.get('/api/cases')).json().data).toEqual([]);
  });

  it('lets a member see the case and add notes, not change it; a removed member sees nothing again', async () => {
    const owner = await signedIn();
    const member = await signedIn();
    const c = await openCase(owner);
    const added = await owner.post(`/api/cases/${c.id}/members`, { email: member.user.email.toUpperCase() });
    expect(added.statusCode, added.body).toBe(201);
    expect(added.json().data.map((m: { id: string }) => m.id)).toEqual([member.user.id]);
    expect((await owner.post(`/api/cases/${c.id}/members`, { email: member.user.email })).statusCode).toBe(
      422,
    );
    expect((await owner.post(`/api/cases/${c.id}/members`, { email: owner.user.email })).statusCode).toBe(
      422,
    );
    expect(
      (await owner.post(`/api/cases/${c.id}/members`, { email: 'nobody@example.test' })).statusCode,
    ).toBe(422);

    const seen = await member.get(`/api/cases/${c.id}`);
    expect(seen.statusCode).toBe(200);
    expect(seen.json().role).toBe('member');
    expect((await member.get('/api/cases')).json().data.map((x: { id: string }) => x.id)).toEqual([c.id]);
    const note = await member.post(`/api/cases/${c.id}/notes`, {
      body: 'Caller used two SIMs.\nSecond one unregistered.',
    });
    expect(note.statusCode, note.body).toBe(201);
    expect(note.json()).toMatchObject({
      author: { id: member.user.id },
      body: 'Caller used two SIMs.\nSecond one unregistered.',
    });

    const edit = await member.patch(`/api/cases/${c.id}`, { title: 'Renamed by a member' });
    expect(edit.statusCode).toBe(403);
    expect((await member.post(`/api/cases/${c.id}/members`, { email: 'x@example.test' })).statusCode).toBe(
      403,
    );
    expect((await member.del(`/api/cases/${c.id}/members/${owner.user.id}`)).statusCode).toBe(403);

    const removed = await owner.del(`/api/cases/${c.id}/members/${member.user.id}`);
    expect(removed.statusCode).toBe(200);
    expect(removed.json().data).toEqual([]);
    expect((await member.get(`/api/cases/${c.id}`)).statusCode).toBe(404);
    expect((await member.post(`/api/cases/${c.id}/notes`, { body: 'still here?' })).statusCode).toBe(404);
    expect((await member.get('/api/cases')).json().data).toEqual([]);

    // The note stays, attributed; every change is in the audit trail under the case.
    const detail = (await owner.get(`/api/cases/${c.id}`)).json();
    expect(detail.notes.map((n: { author: { id: string } }) => n.author.id)).toEqual([member.user.id]);
    const actions = await t.db
      .select({ action: auditEvents.action, userId: auditEvents.userId })
      .from(auditEvents)
      .where(eq(auditEvents.target, c.id))
      .orderBy(auditEvents.id);
    expect(actions).toEqual([
      { action: 'case.create', userId: owner.user.id },
      { action: 'case.member.add', userId: owner.user.id },
      { action: 'case.note.add', userId: member.user.id },
      { action: 'case.member.remove', userId: owner.user.id },
    ]);
  });

  it('lets a member leave, and an admin see and manage any case', async () => {
    const owner = await signedIn();
    const member = await signedIn();
    const admin = await signedIn({ role: 'admin' });
    const c = await openCase(owner);
    await owner.post(`/api/cases/${c.id}/members`, { email: member.user.email });
    expect((await member.del(`/api/cases/${c.id}/members/${member.user.id}`)).statusCode).toBe(200);
    expect((await member.get(`/api/cases/${c.id}`)).statusCode).toBe(404);

    const seen = await admin.get(`/api/cases/${c.id}`);
    expect(seen.statusCode).toBe(200);
    expect(seen.json().role).toBe('admin');
    expect((await admin.patch(`/api/cases/${c.id}`, { status: 'closed' })).json().status).toBe('closed');
    // An admin's own list holds only their own cases.
    expect((await admin.get('/api/cases')).json().data).toEqual([]);
  });

  it("finds a case's audit rows (for its bundle) by index, not by reading the whole trail", async () => {
    const plan = await t.db.transaction(async (tx) => {
      await tx.execute(sql`set local enable_seqscan = off`);
      const id = '00000000-0000-4000-8000-000000000000';
      return JSON.stringify(
        await tx.execute(
          sql`explain select id from audit_events where (details->>'case_id' = ${id}) or (action like 'case.%' and target = ${id})`,
        ),
      );
    });
    expect(plan).toContain('audit_events_case_idx');
    expect(plan).toContain('audit_events_case_target_idx');
  });

  it('keeps notes append-only in the database itself', async () => {
    const owner = await signedIn();
    const c = await openCase(owner);
    await owner.post(`/api/cases/${c.id}/notes`, { body: 'first' });
    const refusal = (promise: Promise<unknown>) =>
      promise.then(
        () => 'allowed',
        (error: Error & { cause?: Error }) => `${error.message} ${error.cause?.message ?? ''}`,
      );
    expect(await refusal(t.db.update(caseNotes).set({ body: 'rewritten' }))).toMatch(/append-only/);
    expect(await refusal(t.db.delete(caseNotes))).toMatch(/append-only/);
    const [{ n }] = (await t.db.select({ n: count() }).from(caseNotes).where(eq(caseNotes.caseId, c.id))) as [
      { n: number },
    ];
    expect(n).toBe(1);
  });

  it('refuses notes that are empty, too long or hold control characters', async () => {
    const owner = await signedIn();
    const c = await openCase(owner);
    for (const body of [
      { body: '' },
      { body: 'x'.repeat(5001) },
      { body: 'a\u0007b' },
      { note: 'wrong key' },
    ]) {
      expect([400, 422]).toContain((await owner.post(`/api/cases/${c.id}/notes`, body)).statusCode);
    }
    expect((await owner.get(`/api/cases/${c.id}`)).json().notes).toEqual([]);
  });
});

describe('searches under a case', () => {
  it('files a search carrying a reference under the case of that reference, opening it when absent', async () => {
    const me = await signedIn({ credits: 10 });
    const tel = await me.get('/api/tel?number=919876543210&case_reference=Op%20Falcon');
    expect(tel.statusCode, tel.body).toBe(200);
    const email = await me.get('/api/email?email=rich.demo%40example.test&case_reference=op%20falcon');
    expect(email.statusCode).toBe(200);
    const leak = await me.post('/api/leak-data-finder', {
      fields: [{ type: 'name', value: 'Rohan Deshmukh' }],
      case_reference: 'OP FALCON',
    });
    expect(leak.statusCode, leak.body).toBe(200);

    const [c] = (await me.get('/api/cases')).json().data;
    expect(c).toMatchObject({ title: 'Op Falcon', reference: 'Op Falcon', items_count: 3 });
    const items = (await me.get(`/api/cases/${c.id}/items`)).json().data;
    expect(items.map((i: { kind: string }) => i.kind)).toEqual(['tel', 'email', 'leak']);
    // Every search row and its audit row carry the case's reference as the case spells it.
    const rows = await t.db
      .select({ ref: lookups.caseReference })
      .from(lookups)
      .where(eq(lookups.userId, me.user.id));
    expect(rows.map((r) => r.ref)).toEqual(['Op Falcon', 'Op Falcon', 'Op Falcon']);
    const audit = await t.db
      .select({ details: auditEvents.details, ref: auditEvents.caseReference })
      .from(auditEvents)
      .where(and(eq(auditEvents.userId, me.user.id), sql`${auditEvents.action} like 'lookup.%'`));
    expect(audit).toHaveLength(3);
    for (const row of audit) expect(row).toMatchObject({ ref: 'Op Falcon', details: { case_id: c.id } });
  });

  it('files a free repeat too, and "Add to case" files an earlier search once', async () => {
    const me = await signedIn({ credits: 10 });
    const first = await me.get('/api/tel?number=919876543210');
    const lookupId = first.json().lookup_id ?? first.headers['x-lookup-id'];
    const c = await openCase(me, { title: 'Later case', reference: 'LATER-1' });
    const [row] = await t.db.select({ id: lookups.id }).from(lookups).where(eq(lookups.userId, me.user.id));
    const added = await me.post(`/api/cases/${c.id}/items`, { lookup_id: row!.id });
    expect(added.statusCode, added.body).toBe(201);
    expect(added.json().data.map((i: { lookup_id: string }) => i.lookup_id)).toEqual([row!.id]);
    expect((await me.post(`/api/cases/${c.id}/items`, { lookup_id: row!.id })).statusCode).toBe(422);
    expect(lookupId === undefined || typeof lookupId === 'string').toBe(true);

    const repeat = await me.get('/api/tel?number=919876543210&case_reference=LATER-1');
    expect(repeat.statusCode).toBe(200);
    expect(await balanceOf(me.user.id)).toBe(9);
    const items = (await me.get(`/api/cases/${c.id}/items`)).json().data;
    expect(items).toHaveLength(2);
    expect(items.map((i: { cost: number }) => i.cost)).toEqual([1, 0]);

    // Someone else's search is not theirs to file.
    const other = await signedIn({ credits: 5 });
    await other.get('/api/tel?number=919123456780');
    const [theirs] = await t.db
      .select({ id: lookups.id })
      .from(lookups)
      .where(eq(lookups.userId, other.user.id));
    expect((await me.post(`/api/cases/${c.id}/items`, { lookup_id: theirs!.id })).statusCode).toBe(404);
    expect((await me.post(`/api/cases/${c.id}/items`, { lookup_id: 'nope' })).statusCode).toBe(422);
  });

  it("files a member's search under the shared case of that reference", async () => {
    const owner = await signedIn();
    const member = await signedIn({ credits: 5 });
    const c = await openCase(owner, { title: 'Shared', reference: 'SHARED-7' });
    await owner.post(`/api/cases/${c.id}/members`, { email: member.user.email });
    expect((await member.get('/api/tel?number=919876543210&case_reference=shared-7')).statusCode).toBe(200);
    const items = (await owner.get(`/api/cases/${c.id}`)).json().items;
    expect(items.map((i: { user: { id: string } }) => i.user.id)).toEqual([member.user.id]);
    expect((await member.get('/api/cases')).json().data).toHaveLength(1);
  });

  it('opens no case for a search refused before its charge (a short balance)', async () => {
    const broke = await signedIn({ credits: 0 });
    const res = await broke.get('/api/tel?number=919876543210&case_reference=NEVER-OPENED');
    expect(res.statusCode).toBe(402);
    expect((await broke.get('/api/cases')).json().data).toEqual([]);
  });

  it('refuses a search under a closed case before anything is charged', async () => {
    const me = await signedIn({ credits: 5 });
    const c = await openCase(me, { title: 'Done', reference: 'DONE-1' });
    await me.patch(`/api/cases/${c.id}`, { status: 'closed' });
    const res = await me.get('/api/tel?number=919876543210&case_reference=DONE-1');
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe('The case DONE-1 is closed: reopen it to search under it.');
    expect(await balanceOf(me.user.id)).toBe(5);
    const [{ n }] = (await t.db
      .select({ n: count() })
      .from(lookups)
      .where(eq(lookups.userId, me.user.id))) as [{ n: number }];
    expect(n).toBe(0);
    expect((await me.post(`/api/cases/${c.id}/notes`, { body: 'late' })).statusCode).toBe(409);
  });

  it('with the legal basis required, refuses searches outside a case that names one, and keeps it on the audit rows', async () => {
    const me = await signedIn({ credits: 5 });
    const bare = await openCase(me, { title: 'No basis', reference: 'BARE-1' });
    const based = await openCase(me, {
      title: 'With basis',
      reference: 'BASED-1',
      legal_basis: {
        kind: 'fir',
        police_station: 'Kothrud',
        fir_number: '214',
        year: 2026,
        sections: ['BNS 308(2)', 'IT  Act 66D'],
        purpose: 'Tracing the caller of an extortion complaint',
      },
    });
    await setSettings({ legal_basis_required: true });
    try {
      const none = await me.get('/api/tel?number=919876543210');
      expect(none.statusCode).toBe(422);
      expect(none.json().errors.case_reference[0]).toMatch(
        /^Every search needs a legal basis: file it under a case that has one/,
      );
      const missing = await me.get('/api/tel?number=919876543210&case_reference=BARE-1');
      expect(missing.statusCode).toBe(422);
      expect(missing.json().message).toContain('BARE-1 has no legal basis');
      const fresh = await me.get('/api/tel?number=919876543210&case_reference=NEW-REF');
      expect(fresh.statusCode).toBe(422);
      expect((await me.get('/api/cases')).json().data).toHaveLength(2);
      expect(await balanceOf(me.user.id)).toBe(5);

      const ok = await me.get('/api/tel?number=919876543210&case_reference=BASED-1');
      expect(ok.statusCode, ok.body).toBe(200);
      const [row] = await t.db
        .select({ details: auditEvents.details })
        .from(auditEvents)
        .where(and(eq(auditEvents.userId, me.user.id), eq(auditEvents.action, 'lookup.tel')));
      expect(row!.details).toMatchObject({
        case_id: based.id,
        legal_basis:
          'FIR 214/2026, Kothrud police station, BNS 308(2); IT Act 66D: Tracing the caller of an extortion complaint',
        legal_basis_kind: 'fir',
        legal_basis_fields: { police_station: 'Kothrud', fir_number: '214', year: 2026 },
      });
      expect(bare.id).not.toBe(based.id);

      // The report of a search under the case prints its legal basis on the cover.
      const report = await me.post('/api/generate-report', {
        userInput: '9876543210',
        type: 'tel',
        results: ok.json(),
      });
      expect(report.statusCode, report.body.slice(0, 200)).toBe(200);
      const text = (await pdfText(report.rawPayload)).replace(/\s+/g, ' ');
      expect(text).toContain('Legal basis');
      // Two columns of facts: pdftotext reads the value's wrapped second line after the next fact.
      expect(text).toContain('FIR 214/2026, Kothrud police station');
    } finally {
      await setSettings({ legal_basis_required: false });
    }
  });
});

describe('entities', () => {
  it('reads every entity type out of the rich demo phone and e-mail results, with exact counts', async () => {
    const me = await signedIn({ credits: 10 });
    await me.get('/api/tel?number=919876543210&case_reference=ENT-1');
    await me.get('/api/email?email=rich.demo%40example.test&case_reference=ENT-1');
    const [c] = (await me.get('/api/cases')).json().data;
    const { entities, items } = (await me.get(`/api/cases/${c.id}`)).json();
    const byType: Record<string, number> = {};
    for (const e of entities as Array<{ type: string }>) byType[e.type] = (byType[e.type] ?? 0) + 1;
    expect(Object.keys(byType).sort()).toEqual([...ENTITY_TYPES].sort());
    // The analysis's merged values, as the results page shows them: one name (every spelling the
    // sources gave folds into ROHAN SURESH DESHMUKH), and the places beside the verified addresses.
    expect(byType).toEqual({
      address: 8,
      bank_account: 1,
      domain: 3,
      email: 3,
      employer: 3,
      ifsc: 1,
      name: 1,
      pan: 1,
      phone: 3,
      upi: 2,
      username: 4,
      vehicle_rc: 2,
    });
    const find = (type: string, value: string) =>
      entities.find((e: { type: string; value: string }) => e.type === type && e.value === value);
    // Found by both lookups: corroborated, and linked to both.
    const phone = find('phone', '+919876543210');
    expect(phone.items.sort()).toEqual(items.map((i: { lookup_id: string }) => i.lookup_id).sort());
    expect(phone.corroborated).toBe(true);
    expect(find('pan', 'BQZPD4821K')).toMatchObject({ corroborated: false, items: [items[0].lookup_id] });
    expect(find('vehicle_rc', 'MH12FP1234')).toBeDefined();
    expect(find('upi', '9876543210@ybl')).toBeDefined();

    // Read once: the rows stay as they are on a second read.
    const [{ n }] = (await t.db.select({ n: count() }).from(lookupEntities)) as [{ n: number }];
    await me.get(`/api/cases/${c.id}`);
    const [{ n: again }] = (await t.db.select({ n: count() }).from(lookupEntities)) as [{ n: number }];
    expect(again).toBe(n);
  });

  it('flags an entity seen in another case of the same user, never in a case of someone else', async () => {
    const me = await signedIn({ credits: 10 });
    const stranger = await signedIn({ credits: 10 });
    await me.get('/api/tel?number=919876543210&case_reference=SEEN-A');
    await me.get('/api/email?email=rich.demo%40example.test&case_reference=SEEN-B');
    await stranger.get('/api/tel?number=919876543210&case_reference=SEEN-C');
    const cases = (await me.get('/api/cases')).json().data as Array<{ id: string; reference: string }>;
    const a = cases.find((c) => c.reference === 'SEEN-A')!;
    const b = cases.find((c) => c.reference === 'SEEN-B')!;
    // Case B's entities are read when it is first opened.
    await me.get(`/api/cases/${b.id}`);
    const { entities } = (await me.get(`/api/cases/${a.id}`)).json();
    const phone = entities.find(
      (e: { type: string; value: string }) => e.type === 'phone' && e.value === '+919876543210',
    );
    expect(phone.other_cases).toEqual([{ id: b.id, title: 'SEEN-B', reference: 'SEEN-B' }]);
    const theirs = (await stranger.get('/api/cases')).json().data[0];
    const seenByStranger = (await stranger.get(`/api/cases/${theirs.id}`)).json().entities;
    for (const e of seenByStranger) expect(e.other_cases).toEqual([]);
  });

  it('forgets the entities of a result the retention purge removed', async () => {
    const me = await signedIn({ credits: 10 });
    await me.get('/api/tel?number=919876543210&case_reference=PURGE-1');
    const [c] = (await me.get('/api/cases')).json().data;
    expect((await me.get(`/api/cases/${c.id}`)).json().entities.length).toBeGreaterThan(0);
    await t.db.execute(
      sql`update lookups set created_at = now() - interval '400 days' where user_id = ${me.user.id}`,
    );
    await purgeExpiredResults(
      t.db,
      { registrationMode: 'open', lookupRetentionDays: 30 },
      { retentionDays: 30 },
    );
    expect((await me.get(`/api/cases/${c.id}`)).json().entities).toEqual([]);
  });

  it('reads nothing out of shapes it does not know (answers are untrusted input)', () => {
    expect(entitiesOf('tel', null)).toEqual([]);
    expect(entitiesOf('tel', { payloads: 'x' })).toEqual([]);
    expect(
      entitiesOf('leak', { data: [null, 1, { name: '\u0000', email: 'not-an-email', phone: '12' }] }),
    ).toEqual([]);
    // A yes/no flag or a bare number in a field called a name names nobody.
    expect(
      entitiesOf('rc', { payloads: { rc: { owner_name: 'No', father_name: '12', name: 'N/A' } } }),
    ).toEqual([]);
    expect(
      entitiesOf('corporate:pan_to_uan', {
        payloads: {
          'corporate:pan_to_uan': { pan_number: 'abcde1234f', employer_name: 'Acme Widgets', uan: '100' },
        },
      }),
    ).toEqual([
      { type: 'pan', value: 'ABCDE1234F', sources: ['PAN to UAN'] },
      { type: 'employer', value: 'Acme Widgets', sources: ['PAN to UAN'] },
    ]);
  });
});
