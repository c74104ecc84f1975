// The operator API under /api/admin: admins only (checked on the server), every change through the
// same rules as the CLI, every bad input a 4xx that changes nothing.
import { and, count, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents, authTokens, creditEntries, leakSources, lookups, users } from '../../src/db/schema.ts';
import { findLedgerMismatches } from '../../src/modules/credits/service.ts';
import { createTestApp, createUser, json, newDeviceId, signIn, type TestApp } from '../support/app.ts';

let t: TestApp;
let admin: Awaited<ReturnType<typeof signedIn>>;
beforeAll(async () => {
  t = await createTestApp({ env: { RATE_LIMIT_ENABLED: 'false', LOOKUP_PURGE_INTERVAL_MINUTES: '0' } });
  admin = await signedIn({ role: 'admin', appMode: 'live', email: 'chief-admin@example.test' });
});
afterAll(() => t.close());

async function signedIn(options: Parameters<typeof createUser>[1] = {}) {
  const deviceId = newDeviceId();
  const user = await createUser(t.db, { trustedDevice: deviceId, ...options });
  const { token } = await signIn(t, user.email, user.password, deviceId);
  const call = (method: 'GET' | 'POST' | 'PATCH', url: string, body?: unknown) =>
    t.app.inject({
      method,
      url,
      ...(body === undefined
        ? { headers: { authorization: `Bearer ${token}`, 'x-device-id': deviceId } }
        : json(body, deviceId, token)),
    });
  return { user, token, deviceId, call };
}

/** Everything a refused admin call must leave as it was. */
async function snapshot() {
  const tally = async (table: typeof users | typeof creditEntries | typeof auditEvents | typeof authTokens) =>
    Number((await t.db.select({ n: count() }).from(table))[0]!.n);
  const everyone = await t.db.select().from(users).orderBy(users.id);
  return {
    users: everyone.map((u) => ({ ...u, lastLoginAt: null, updatedAt: null })),
    ledger: await tally(creditEntries),
    audit: await tally(auditEvents),
    tokens: Number(
      (await t.db.select({ n: count() }).from(authTokens).where(sql`${authTokens.revokedAt} is null`))[0]!.n,
    ),
  };
}

const auditOf = (action: string, target?: string) =>
  t.db
    .select()
    .from(auditEvents)
    .where(
      target
        ? and(eq(auditEvents.action, action), eq(auditEvents.target, target))
        : eq(auditEvents.action, action),
    )
    .orderBy(auditEvents.id);

const ADMIN_ENDPOINTS: Array<['GET' | 'POST' | 'PATCH', string, unknown?]> = [
  ['GET', '/api/admin/users'],
  ['POST', '/api/admin/users', { name: 'X', email: 'x-forbidden@example.test' }],
  ['GET', '/api/admin/users/00000000-0000-4000-8000-000000000000'],
  ['PATCH', '/api/admin/users/00000000-0000-4000-8000-000000000000', { role: 'admin' }],
  ['POST', '/api/admin/users/00000000-0000-4000-8000-000000000000/credits', { amount: 5, reason: 'x' }],
  ['GET', '/api/admin/audit'],
  ['GET', '/api/admin/audit.csv'],
  ['GET', '/api/admin/audit/chain'],
  ['GET', '/api/admin/settings'],
  ['PATCH', '/api/admin/settings', { case_reference_required: true }],
  ['GET', '/api/admin/providers'],
  ['GET', '/api/admin/leak-sources'],
];

describe('who may call /api/admin', () => {
  it('answers 401 without a token and 403 to live and trial non-admins on every endpoint, changing nothing', async () => {
    const live = await signedIn({ appMode: 'live', credits: 5 });
    const trial = await signedIn({ appMode: 'trial' });
    // The non-admins exist and are signed in before the snapshot.
    const before = await snapshot();
    for (const [method, url, body] of ADMIN_ENDPOINTS) {
      const anonymous = await t.app.inject({
        method,
        url,
        ...(body === undefined ? {} : json(body)),
      });
      expect(anonymous.statusCode, `${method} ${url}`).toBe(401);
      for (const caller of [live, trial]) {
        const res = await caller.call(method, url, body);
        expect(res.statusCode, `${method} ${url}`).toBe(403);
        expect(res.json().message).toBe('This action is unauthorized.');
      }
    }
    expect(await snapshot()).toEqual(before);
  });
});

describe('/api/admin/users', () => {
  it('creates a user with a generated password shown once and an opening balance through the ledger', async () => {
    const res = await admin.call('POST', '/api/admin/users', {
      name: '  Inspector Rao ',
      email: 'Inspector.Rao@Example.TEST',
      role: 'user',
      app_mode: 'live',
      credits: 40,
    });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body.user).toMatchObject({
      name: 'Inspector Rao',
      email: 'inspector.rao@example.test',
      role: 'user',
      app_mode: 'live',
      status: 'active',
      credits: 40,
      last_login_at: null,
    });
    expect(body.temporary_password).toMatch(/^[A-Za-z0-9_-]{16}$/);
    // The temporary password works (new device: OTP).
    const { token } = await signIn(t, 'inspector.rao@example.test', body.temporary_password);
    expect(token).toBeTruthy();
    const [row] = await t.db.select().from(users).where(eq(users.id, body.user.id));
    expect(row!.passwordHash).not.toContain(body.temporary_password);
    expect(row!.lastLoginAt).toBeInstanceOf(Date);

    const ledger = await t.db.select().from(creditEntries).where(eq(creditEntries.userId, body.user.id));
    expect(ledger).toEqual([
      expect.objectContaining({ delta: 40, kind: 'grant', balanceAfter: 40, actorId: admin.user.id }),
    ]);
    const [created] = await auditOf('admin.user.create', body.user.id);
    expect(created).toMatchObject({ userId: admin.user.id, actorEmail: admin.user.email, ip: '127.0.0.1' });
    expect(created!.details).toMatchObject({
      email: 'inspector.rao@example.test',
      password: 'generated',
      credits: 40,
    });
    expect(await auditOf('admin.credits.grant', body.user.id)).toHaveLength(1);

    const withPassword = await admin.call('POST', '/api/admin/users', {
      name: 'Second Admin',
      email: 'second-admin@example.test',
      password: 'chosen password',
      role: 'admin',
    });
    expect(withPassword.statusCode).toBe(201);
    expect(withPassword.json().temporary_password).toBeUndefined();
    expect(withPassword.json().user).toMatchObject({ role: 'admin', app_mode: 'trial', credits: 0 });
  });

  it('lists with search and pagination, and shows one user', async () => {
    for (const n of [1, 2, 3])
      await createUser(t.db, { email: `listme-${n}@example.test`, name: `List Me ${n}` });
    const page = await admin.call('GET', '/api/admin/users?q=listme&per_page=2');
    expect(page.statusCode).toBe(200);
    expect(page.json()).toMatchObject({ total: 3, page: 1, per_page: 2 });
    expect(page.json().data).toHaveLength(2);
    for (const user of page.json().data) {
      expect(Object.keys(user).sort()).toEqual(
        [
          'app_mode',
          'created_at',
          'credits',
          'email',
          'email_verified_at',
          'id',
          'last_login_at',
          'name',
          'role',
          'status',
          'updated_at',
          'organisation',
          'designation',
          'identity_reference',
        ].sort(),
      );
    }
    const second = await admin.call('GET', '/api/admin/users?q=listme&per_page=2&page=2');
    expect(second.json().data).toHaveLength(1);
    // '%' is a character to look for, not a wildcard.
    expect((await admin.call('GET', '/api/admin/users?q=%25')).json().total).toBe(0);

    const one = await admin.call('GET', `/api/admin/users/${page.json().data[0].id}`);
    expect(one.statusCode).toBe(200);
    expect(one.json().user.email).toMatch(/^listme-/);
    expect((await admin.call('GET', '/api/admin/users?per_page=500')).statusCode).toBe(422);
  });

  it('changes mode, role, name and status; disabling revokes sessions; all audited', async () => {
    const person = await signedIn({ appMode: 'trial' });
    const res = await admin.call('PATCH', `/api/admin/users/${person.user.id}`, {
      app_mode: 'live',
      name: 'Renamed Person',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().user).toMatchObject({ app_mode: 'live', name: 'Renamed Person', status: 'active' });
    const [update] = await auditOf('admin.user.update', person.user.id);
    expect(update!.details).toMatchObject({
      changes: {
        app_mode: { from: 'trial', to: 'live' },
        name: { from: person.user.name, to: 'Renamed Person' },
      },
    });

    // Still signed in, now live.
    expect((await person.call('GET', '/api/user')).json().app_mode).toBe('live');
    const disabled = await admin.call('PATCH', `/api/admin/users/${person.user.id}`, { status: 'disabled' });
    expect(disabled.json().user.status).toBe('disabled');
    expect((await person.call('GET', '/api/user')).statusCode).toBe(401);
    const [revoked] = await auditOf('admin.user.sessions.revoke', person.user.id);
    expect(revoked!.details).toMatchObject({ revoked: 1, reason: 'account disabled' });
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      ...json({ email: person.user.email, password: person.user.password }, person.deviceId),
    });
    expect(login.statusCode).toBe(403);

    // Sessions can be revoked on their own.
    const other = await signedIn();
    const revoke = await admin.call('PATCH', `/api/admin/users/${other.user.id}`, { revoke_sessions: true });
    expect(revoke.statusCode).toBe(200);
    expect((await other.call('GET', '/api/user')).statusCode).toBe(401);
    expect(await auditOf('admin.user.update', other.user.id)).toHaveLength(0);
    expect(await auditOf('admin.user.sessions.revoke', other.user.id)).toHaveLength(1);
  });

  it('promotes and demotes admins but never the last active one', async () => {
    const deputy = await createUser(t.db, { role: 'user', email: 'deputy@example.test' });
    expect(
      (await admin.call('PATCH', `/api/admin/users/${deputy.id}`, { role: 'admin' })).json().user.role,
    ).toBe('admin');
    // Demote every other admin, leaving the caller alone.
    const admins = await t.db
      .select()
      .from(users)
      .where(and(eq(users.role, 'admin'), eq(users.status, 'active')));
    for (const other of admins.filter((a) => a.id !== admin.user.id)) {
      const res = await admin.call('PATCH', `/api/admin/users/${other.id}`, { role: 'user' });
      expect(res.statusCode).toBe(200);
    }
    const before = await snapshot();
    for (const patch of [{ role: 'user' }, { status: 'disabled' }, { role: 'user', name: 'Other Name' }]) {
      const res = await admin.call('PATCH', `/api/admin/users/${admin.user.id}`, patch);
      expect(res.statusCode).toBe(422);
      expect(res.json().message).toBe(
        'This is the last active admin: make another admin first. Nothing was changed.',
      );
    }
    expect(await snapshot()).toEqual(before);
    // A rename alone is fine.
    expect(
      (await admin.call('PATCH', `/api/admin/users/${admin.user.id}`, { name: 'Chief' })).statusCode,
    ).toBe(200);
  });

  it('two admins demoting each other at once: one succeeds, one is refused', async () => {
    const a = await signedIn({ role: 'admin', appMode: 'live' });
    const b = await signedIn({ role: 'admin', appMode: 'live' });
    // Only these two stay active admins for this test.
    await t.db
      .update(users)
      .set({ role: 'user' })
      .where(and(eq(users.role, 'admin'), sql`${users.id} not in (${a.user.id}, ${b.user.id})`));
    try {
      const [one, two] = await Promise.all([
        a.call('PATCH', `/api/admin/users/${b.user.id}`, { role: 'user' }),
        b.call('PATCH', `/api/admin/users/${a.user.id}`, { role: 'user' }),
      ]);
      const statuses = [one.statusCode, two.statusCode].sort();
      // The second may also be refused as no longer admin (403) if the first committed before it was checked.
      expect([
        [200, 422],
        [200, 403],
      ]).toContainEqual(statuses);
      const left = await t.db
        .select()
        .from(users)
        .where(and(eq(users.role, 'admin'), eq(users.status, 'active')));
      expect(left).toHaveLength(1);
    } finally {
      await t.db.update(users).set({ role: 'admin' }).where(eq(users.id, admin.user.id));
    }
  });

  it('refuses bad input with a 4xx and changes nothing', async () => {
    const target = await createUser(t.db, { email: 'bad-input-target@example.test', credits: 3 });
    const missing = '00000000-0000-4000-8000-000000000000';
    const cases: Array<['GET' | 'POST' | 'PATCH', string, unknown, number, string?]> = [
      [
        'POST',
        '/api/admin/users',
        { name: 'Dup', email: 'BAD-INPUT-TARGET@example.test' },
        422,
        'The email has already been taken.',
      ],
      ['POST', '/api/admin/users', { name: 'X', email: 'not-an-email' }, 422],
      [
        'POST',
        '/api/admin/users',
        { name: 'X', email: 'x1@example.test', role: 'root' },
        422,
        'The role must be user or admin.',
      ],
      ['POST', '/api/admin/users', { name: 'X', email: 'x2@example.test', credits: -5 }, 422],
      ['POST', '/api/admin/users', { name: 'X', email: 'x3@example.test', password: 'short' }, 422],
      ['POST', '/api/admin/users', { name: 'X', email: 'x4@example.test', is_admin: true }, 422],
      ['GET', `/api/admin/users/${missing}`, undefined, 404, 'No user has this id.'],
      ['GET', '/api/admin/users/not-a-uuid', undefined, 404, 'No user has this id.'],
      ['PATCH', `/api/admin/users/${missing}`, { app_mode: 'live' }, 404, 'No user has this id.'],
      ['PATCH', `/api/admin/users/${target.id}`, {}, 422, 'Send at least one field to change.'],
      [
        'PATCH',
        `/api/admin/users/${target.id}`,
        { app_mode: 'gold' },
        422,
        'The app mode must be live or trial.',
      ],
      ['PATCH', `/api/admin/users/${target.id}`, { credits: 1000 }, 422],
      ['PATCH', `/api/admin/users/${target.id}`, { status: 'deleted' }, 422],
      [
        'POST',
        `/api/admin/users/${target.id}/credits`,
        { amount: 2.5, reason: 'x' },
        422,
        'The amount must be a whole number.',
      ],
      [
        'POST',
        `/api/admin/users/${target.id}/credits`,
        { amount: '5', reason: 'x' },
        422,
        'The amount must be a whole number.',
      ],
      [
        'POST',
        `/api/admin/users/${target.id}/credits`,
        { amount: 0, reason: 'x' },
        422,
        'The amount may not be zero.',
      ],
      ['POST', `/api/admin/users/${target.id}/credits`, { amount: 5 }, 422, 'The reason field is required.'],
      ['POST', `/api/admin/users/${target.id}/credits`, { amount: 5, reason: '   ' }, 422],
      ['POST', `/api/admin/users/${target.id}/credits`, { amount: 10_000_000, reason: 'x' }, 422],
      [
        'POST',
        `/api/admin/users/${target.id}/credits`,
        { amount: -4, reason: 'too much' },
        422,
        'This deduction would take the balance below zero (the balance is 3). Nothing was changed.',
      ],
      [
        'POST',
        `/api/admin/users/${missing}/credits`,
        { amount: 5, reason: 'x' },
        404,
        'No user has this id.',
      ],
      [
        'GET',
        '/api/admin/audit?from=2026-03-02&to=2026-03-01',
        undefined,
        422,
        'The end date must be on or after the start date.',
      ],
      [
        'GET',
        '/api/admin/audit.csv?from=2026-03-02&to=2026-03-01',
        undefined,
        422,
        'The end date must be on or after the start date.',
      ],
      [
        'GET',
        '/api/admin/audit?from=yesterday',
        undefined,
        422,
        'The start date must be a date in the form YYYY-MM-DD.',
      ],
      ['GET', '/api/admin/audit?to=2026-02-30', undefined, 422],
      // There is no year 0; nor are six-digit years or numbers days.
      [
        'GET',
        '/api/admin/audit?from=0000-01-01',
        undefined,
        422,
        'The start date must be a date in the form YYYY-MM-DD.',
      ],
      [
        'GET',
        '/api/admin/audit.csv?to=0000-12-31',
        undefined,
        422,
        'The end date must be a date in the form YYYY-MM-DD.',
      ],
      ['GET', '/api/admin/audit?to=%2B275760-09-13', undefined, 422],
      ['GET', '/api/admin/audit?from=-271821-04-20', undefined, 422],
      ['GET', '/api/admin/audit?to=1e999', undefined, 422],
      ['GET', '/api/admin/audit?per_page=1000', undefined, 422],
      ['GET', '/api/admin/audit?sort=id', undefined, 422],
      ['PATCH', '/api/admin/settings', { lookup_retention_days: 0 }, 422],
      ['PATCH', '/api/admin/settings', { review_share_percent: 101 }, 422],
      ['PATCH', '/api/admin/settings', { approval_kinds: ['leak'] }, 422],
      ['PATCH', '/api/admin/settings', { approval_kinds: ['no-such-kind'] }, 422],
      ['PATCH', '/api/admin/settings', { approval_hours: 0 }, 422],
      ['PATCH', '/api/admin/settings', { case_reference_required: 'yes' }, 422],
      ['PATCH', '/api/admin/settings', { unknown_setting: true }, 422],
      // Text PostgreSQL cannot store (NUL) or that has no place in a name or filter: control characters
      // are refused before any route with a 400 (http/input-guard.ts); a line break by the route's own check.
      ['POST', '/api/admin/users', { name: 'Nul\u0000Name', email: 'nul@example.test' }, 400],
      ['POST', '/api/admin/users', { name: 'Nul', email: 'n\u0000ul@example.test' }, 400],
      ['PATCH', `/api/admin/users/${target.id}`, { name: 'Line\nBreak' }, 422],
      ['POST', `/api/admin/users/${target.id}/credits`, { amount: 1, reason: 'a\u0000b' }, 400],
      ['GET', '/api/admin/users?q=%00', undefined, 400],
      ['GET', '/api/admin/audit?q=%00', undefined, 400],
      ['GET', '/api/admin/audit.csv?user=%00', undefined, 400],
      ['GET', '/api/admin/audit?case_reference=%1b', undefined, 400],
    ];
    const before = await snapshot();
    for (const [method, url, body, status, message] of cases) {
      const res = await admin.call(method, url, body);
      expect(res.statusCode, `${method} ${url} ${JSON.stringify(body)}: ${res.body}`).toBe(status);
      expect(res.headers['content-type']).toMatch(/application\/json/);
      expect(typeof res.json().message).toBe('string');
      if (message) expect(res.json().message, `${method} ${url}`).toBe(message);
    }
    expect(await snapshot()).toEqual(before);
    expect(await findLedgerMismatches(t.db)).toEqual([]);
  });
});

describe('POST /api/admin/users/{id}/credits', () => {
  it('grants and deducts through the ledger with the admin as actor, and audits both', async () => {
    const person = await createUser(t.db, { credits: 2 });
    const grant = await admin.call('POST', `/api/admin/users/${person.id}/credits`, {
      amount: 25,
      reason: 'Quarterly allocation',
    });
    expect(grant.statusCode).toBe(200);
    expect(grant.json().user.credits).toBe(27);
    expect(grant.json().entry).toMatchObject({
      delta: 25,
      balance_after: 27,
      kind: 'grant',
      reason: 'Quarterly allocation',
      lookup_id: null,
    });
    const deduct = await admin.call('POST', `/api/admin/users/${person.id}/credits`, {
      amount: -27,
      reason: 'Licence ended',
    });
    expect(deduct.statusCode).toBe(200);
    expect(deduct.json()).toMatchObject({
      user: { credits: 0 },
      entry: { delta: -27, balance_after: 0, kind: 'adjustment' },
    });

    const ledger = await t.db
      .select()
      .from(creditEntries)
      .where(eq(creditEntries.userId, person.id))
      .orderBy(creditEntries.id);
    expect(ledger.slice(1).map((e) => [e.delta, e.kind, e.actorId])).toEqual([
      [25, 'grant', admin.user.id],
      [-27, 'adjustment', admin.user.id],
    ]);
    const [granted] = await auditOf('admin.credits.grant', person.id);
    expect(granted!.details).toMatchObject({ amount: 25, balance_after: 27, reason: 'Quarterly allocation' });
    const [deducted] = await auditOf('admin.credits.deduct', person.id);
    expect(deducted!.details).toMatchObject({ amount: -27, balance_after: 0, reason: 'Licence ended' });
    expect(await findLedgerMismatches(t.db)).toEqual([]);
  });
});

describe('/api/admin/audit and /api/admin/audit.csv', () => {
  it('filters by user, action, date range, query text and case reference, newest first, paginated', async () => {
    const investigator = await signedIn({ appMode: 'live', credits: 10, email: 'filter-me@example.test' });
    await investigator.call('GET', '/api/tel?number=919876543210&case_reference=OP-NIGHTJAR');
    await investigator.call('GET', '/api/email?email=rich.demo%40example.test&case_reference=OP-NIGHTJAR');
    await investigator.call('GET', '/api/tel?number=919123456780&case_reference=OTHER-CASE');

    const mine = await admin.call('GET', `/api/admin/audit?user=${investigator.user.id}&action=lookup.`);
    expect(mine.statusCode).toBe(200);
    expect(mine.json().data.map((e: { action: string; target: string }) => [e.action, e.target])).toEqual([
      ['lookup.tel', '919123456780'],
      ['lookup.email', 'rich.demo@example.test'],
      ['lookup.tel', '919876543210'],
    ]);
    const first = mine.json().data[2];
    expect(first).toMatchObject({
      user_id: investigator.user.id,
      actor_email: 'filter-me@example.test',
      ip: '127.0.0.1',
      device_id: investigator.deviceId,
      cost: 1,
      outcome: 'success',
      case_reference: 'OP-NIGHTJAR',
    });
    expect(Object.keys(first).sort()).toEqual(
      [
        'action',
        'actor_email',
        'at',
        'case_reference',
        'cost',
        'details',
        'device_id',
        'id',
        'ip',
        'outcome',
        'query_normalized',
        'query_typed',
        'target',
        'user_id',
      ].sort(),
    );

    const byEmail = await admin.call('GET', '/api/admin/audit?user=filter-me&action=lookup.tel');
    expect(byEmail.json().total).toBe(2);
    // The two searches, and the case the first of them opened (a search files itself under its case).
    const byCase = await admin.call('GET', '/api/admin/audit?case_reference=nightjar');
    expect(byCase.json().data.map((e: { action: string }) => e.action)).toEqual([
      'lookup.email',
      'lookup.tel',
      'case.create',
    ]);
    const byQuery = await admin.call('GET', '/api/admin/audit?q=9123456780');
    expect(byQuery.json().data.map((e: { case_reference: string }) => e.case_reference)).toEqual([
      'OTHER-CASE',
    ]);
    const prefix = await admin.call('GET', `/api/admin/audit?user=${investigator.user.id}&action=auth.*`);
    expect(prefix.json().data.map((e: { action: string }) => e.action)).toEqual(['auth.login']);

    const today = new Date().toISOString().slice(0, 10);
    const inRange = await admin.call(
      'GET',
      `/api/admin/audit?from=${today}&to=${today}&user=${investigator.user.id}`,
    );
    expect(inRange.json().total).toBe(6);
    const past = await admin.call(
      'GET',
      `/api/admin/audit?from=2020-01-01&to=2020-12-31&user=${investigator.user.id}`,
    );
    expect(past.json().total).toBe(0);
    // The widest days the calendar has: 9999-12-31 bounds nothing (it was a 500), 0001-01-01 everything.
    for (const [from, to] of [
      ['0001-01-01', '9999-12-31'],
      [today, '9999-12-31'],
    ]) {
      const wide = await admin.call(
        'GET',
        `/api/admin/audit?from=${from}&to=${to}&user=${investigator.user.id}`,
      );
      expect(wide.statusCode, `${from}..${to}`).toBe(200);
      expect(wide.json().total, `${from}..${to}`).toBe(6);
      const csv = await admin.call('GET', `/api/admin/audit.csv?from=${from}&to=${to}`);
      expect(csv.statusCode, `csv ${from}..${to}`).toBe(200);
    }
    const future = await admin.call('GET', `/api/admin/audit?from=9999-12-31&user=${investigator.user.id}`);
    expect(future.json().total).toBe(0);

    const paged = await admin.call('GET', `/api/admin/audit?user=${investigator.user.id}&per_page=3&page=2`);
    expect(paged.json()).toMatchObject({ total: 6, page: 2, per_page: 3 });
    expect(paged.json().data.map((e: { action: string }) => e.action)).toEqual([
      'lookup.tel',
      'case.create',
      'auth.login',
    ]);
  });

  it('exports the filtered trail as CSV and writes the export itself to the trail', async () => {
    const person = await signedIn({ appMode: 'live', credits: 5, email: 'csv-person@example.test' });
    await person.call(
      'GET',
      '/api/tel?number=919876543210&case_reference=%3DHYPERLINK(%22x%22)%2C%20case%20%22A%22',
    );
    const today = new Date().toISOString().slice(0, 10);
    const res = await admin.call(
      'GET',
      `/api/admin/audit.csv?from=${today}&to=${today}&user=${person.user.id}`,
    );
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="audit-${today}-to-${today}.csv"`);
    const lines = res.body.trimEnd().split('\r\n');
    expect(lines[0]).toBe(
      'id,at,user_id,actor_email,ip,device_id,action,target,cost,outcome,case_reference,details,query_typed,query_normalized',
    );
    // The search, the case it opened, the sign-in.
    expect(lines).toHaveLength(4);
    expect(lines[1]).toContain(',lookup.tel,919876543210,1,success,');
    expect(lines[2]).toContain(',case.create,');
    lines.splice(2, 1);
    // The search's query as typed and as matched, in the two columns added at the end.
    expect(lines[1]).toMatch(/,919876543210,919876543210$/);
    expect(lines[2]).toMatch(/,,$/);
    // A formula-looking reference is neutralised and quoted.
    expect(lines[1]).toContain(`"'=HYPERLINK(""x""), case ""A"""`);
    expect(lines[2]).toContain(',auth.login,');
    expect(res.headers['x-audit-rows']).toBe('3');

    const [exported] = (await auditOf('admin.audit.export')).slice(-1);
    expect(exported).toMatchObject({
      userId: admin.user.id,
      outcome: 'success',
      target: `audit-${today}-to-${today}.csv`,
    });
    expect(exported!.details).toMatchObject({
      rows: 3,
      filters: { from: today, to: today, user: person.user.id },
    });
  });

  it('streams a long trail in batches, in order, without losing a row', async () => {
    const rows = Array.from({ length: 2500 }, (_, i) => ({
      action: 'test.bulk',
      outcome: 'success' as const,
      target: `bulk-${i}`,
    }));
    for (let i = 0; i < rows.length; i += 500) await t.db.insert(auditEvents).values(rows.slice(i, i + 500));
    const res = await admin.call('GET', '/api/admin/audit.csv?action=test.bulk');
    const lines = res.body.trimEnd().split('\r\n').slice(1);
    expect(lines).toHaveLength(2500);
    expect(lines[0]).toContain(',bulk-2499,');
    expect(lines.at(-1)).toContain(',bulk-0,');
    expect(new Set(lines).size).toBe(2500);
  });
});

describe('/api/admin/settings, providers and leak sources', () => {
  it('shows and changes the deployment settings, auditing what changed', async () => {
    const current = await admin.call('GET', '/api/admin/settings');
    expect(current.json()).toEqual({
      registration_enabled: true,
      registration_mode: 'approval',
      case_reference_required: false,
      second_factor_required: false,
      legal_basis_required: false,
      registration_organisation_required: true,
      registration_designation_required: true,
      registration_identity_reference_required: false,
      lookup_retention_days: 90,
      review_share_percent: 0,
      approval_kinds: [],
      approval_hours: 48,
      approval_bulk_rows: 0,
    });
    const changed = await admin.call('PATCH', '/api/admin/settings', {
      registration_enabled: false,
      lookup_retention_days: 30,
    });
    expect(changed.json()).toEqual({
      registration_enabled: false,
      registration_mode: 'closed',
      case_reference_required: false,
      second_factor_required: false,
      legal_basis_required: false,
      registration_organisation_required: true,
      registration_designation_required: true,
      registration_identity_reference_required: false,
      lookup_retention_days: 30,
      review_share_percent: 0,
      approval_kinds: [],
      approval_hours: 48,
      approval_bulk_rows: 0,
    });
    expect((await t.app.inject({ method: 'GET', url: '/api/registration-status' })).json()).toEqual({
      registration_enabled: false,
      registration_mode: 'closed',
      required_fields: ['organisation', 'designation'],
    });
    const [row] = (await auditOf('admin.settings.update')).slice(-1);
    expect(row!.details).toEqual({
      changes: {
        registration_mode: { from: 'approval', to: 'closed' },
        registration_enabled: { from: true, to: false },
        lookup_retention_days: { from: 90, to: 30 },
      },
    });
    // Switched back on, a closed registration returns to the environment's mode (approval here).
    const reopened = await admin.call('PATCH', '/api/admin/settings', {
      registration_enabled: true,
      lookup_retention_days: 90,
    });
    expect(reopened.json()).toMatchObject({ registration_enabled: true, registration_mode: 'approval' });

    const open = await admin.call('PATCH', '/api/admin/settings', { registration_mode: 'open' });
    expect(open.json()).toMatchObject({ registration_enabled: true, registration_mode: 'open' });
    const [opened] = (await auditOf('admin.settings.update')).slice(-1);
    expect(opened!.details).toEqual({ changes: { registration_mode: { from: 'approval', to: 'open' } } });
    // true on an open registration leaves it open.
    const still = await admin.call('PATCH', '/api/admin/settings', { registration_enabled: true });
    expect(still.json()).toMatchObject({ registration_mode: 'open' });

    const contradiction = await admin.call('PATCH', '/api/admin/settings', {
      registration_enabled: false,
      registration_mode: 'open',
    });
    expect(contradiction.statusCode).toBe(422);
    expect(contradiction.json().errors.registration_enabled).toEqual([
      'The registration enabled field contradicts the registration mode.',
    ]);
    const unknown = await admin.call('PATCH', '/api/admin/settings', { registration_mode: 'invite' });
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json().errors.registration_mode).toEqual([
      'The registration mode must be open, approval or closed.',
    ]);
    await admin.call('PATCH', '/api/admin/settings', { registration_mode: 'approval' });
    expect((await admin.call('GET', '/api/admin/settings')).json().registration_mode).toBe('approval');
  });

  it('lists provider health and leak sources with their record counts', async () => {
    const providers = await admin.call('GET', '/api/admin/providers');
    expect(providers.statusCode).toBe(200);
    expect(Array.isArray(providers.json().providers)).toBe(true);

    await t.db.insert(leakSources).values([
      {
        name: 'Orbitly 2021',
        breachDate: '2021-03-04',
        description: 'Synthetic',
        recordCount: 1200,
        importedAt: new Date(),
      },
      { name: 'Acme Forum', recordCount: 0 },
    ]);
    const sources = await admin.call('GET', '/api/admin/leak-sources');
    expect(sources.statusCode).toBe(200);
    expect(
      sources.json().data.map((s: Record<string, unknown>) => [s.name, s.record_count, s.breach_date]),
    ).toEqual([
      ['Acme Forum', 0, null],
      ['Orbitly 2021', 1200, '2021-03-04'],
    ]);
    expect(Object.keys(sources.json().data[0]).sort()).toEqual(
      ['breach_date', 'created_at', 'description', 'id', 'imported_at', 'name', 'record_count'].sort(),
    );
  });
});

describe('lookups stay attributable', () => {
  it('every lookups row has an audit row naming its lookup id', async () => {
    const all = await t.db.select({ id: lookups.id }).from(lookups);
    expect(all.length).toBeGreaterThan(0);
    const audited = await t.db
      .select({ id: sql<string>`${auditEvents.details}->>'lookup_id'` })
      .from(auditEvents)
      .where(sql`${auditEvents.action} like 'lookup.%'`);
    const ids = new Set(audited.map((a) => a.id));
    for (const row of all) expect(ids.has(row.id), row.id).toBe(true);
  });
});
