// Access by approval: with the registration mode `approval` (the default) a self-registered account is
// pending until an admin approves it; pending and rejected accounts are refused at sign-in, but only
// after the right password. Approve and reject mail the user (real SMTP) and are audited.
import { fieldMessages, messages } from '@footprint/domain';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents, otpChallenges, users } from '../../src/db/schema.ts';
import { createTestApp, createUser, json, newDeviceId, signIn, type TestApp } from '../support/app.ts';
import { otpCodeOf } from '../support/smtp.ts';

let t: TestApp;
let adminToken: string;
beforeAll(async () => {
  t = await createTestApp({ env: { TRIAL_CREDITS: '5', RATE_LIMIT_ENABLED: 'false' } });
  const admin = await createUser(t.db, { role: 'admin', appMode: 'live' });
  adminToken = (await signIn(t, admin.email, admin.password)).token;
});
afterAll(() => t.close());

const password = 'long enough password';
const register = (email: string) =>
  t.app.inject({
    method: 'POST',
    url: '/api/register',
    ...json({
      name: 'Meera Pillai',
      email,
      password,
      password_confirmation: password,
      organisation: 'Kochi City Police',
      designation: 'Sub-Inspector',
    }),
  });
const login = (email: string, pass = password, deviceId: string = newDeviceId()) =>
  t.app.inject({ method: 'POST', url: '/api/login', ...json({ email, password: pass }, deviceId) });
const adminCall = (method: 'GET' | 'POST' | 'PATCH', url: string, body?: unknown, token = adminToken) =>
  t.app.inject({
    method,
    url,
    ...(body === undefined
      ? { headers: { authorization: `Bearer ${token}` } }
      : json(body, undefined, token)),
  });
const rowOf = async (email: string) => (await t.db.select().from(users).where(eq(users.email, email)))[0]!;
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
const setMode = async (mode: 'open' | 'approval' | 'closed') => {
  const res = await adminCall('PATCH', '/api/admin/settings', { registration_mode: mode });
  expect(res.statusCode).toBe(200);
  expect(res.json().registration_mode).toBe(mode);
};

describe('registration in approval mode', () => {
  it('is the default: the status endpoint says so', async () => {
    const status = await t.app.inject({ method: 'GET', url: '/api/registration-status' });
    expect(status.json()).toEqual({
      registration_enabled: true,
      registration_mode: 'approval',
      required_fields: ['organisation', 'designation'],
    });
  });

  it("answers the spec's 201 and leaves the account pending, audited", async () => {
    const res = await register('Pending.One@Example.test');
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      message: messages.register.created,
      approval_required: true,
      // A pending account holds no credits: the trial grant comes with the approval.
      user: { email: 'pending.one@example.test', app_mode: 'trial', role: 'user', credits: 0 },
    });
    const row = await rowOf('pending.one@example.test');
    expect(row.status).toBe('pending');
    expect(row.credits).toBe(0);
    const [audited] = await auditOf('auth.register', row.id);
    expect(audited).toMatchObject({ outcome: 'success' });
    expect(audited!.details).toMatchObject({ status: 'pending', registration_mode: 'approval' });
  });

  it('answers a second sign-up for a pending or an active address exactly as for a new one', async () => {
    const active = await createUser(t.db, { email: 'already-active@example.test' });
    const forActive = await register(active.email);
    const forNew = await register('already-pending@example.test');
    const forPending = await register('already-pending@example.test');
    const shape = (res: typeof forNew) => ({
      status: res.statusCode,
      body: { ...res.json(), user: { ...res.json().user, id: '-', email: '-', created_at: '-' } },
    });
    expect(shape(forActive)).toEqual(shape(forNew));
    expect(shape(forPending)).toEqual(shape(forNew));
    expect(forNew.json()).toMatchObject({ approval_required: true, user: { credits: 0 } });
    expect((await rowOf(active.email)).status).toBe('active');
  });
});

describe('signing in to a pending account', () => {
  it('answers a wrong password as for any account, and 403 with the pending message only for the right one', async () => {
    const email = 'pending-login@example.test';
    expect((await register(email)).statusCode).toBe(201);
    const before = t.smtp.inbox.length;

    const wrong = await login(email, 'not the password at all');
    const unknown = await login('nobody-at-all@example.test', 'not the password at all');
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json()).toEqual(unknown.json());
    expect(wrong.json().errors).toEqual({ email: [messages.login.invalidCredentials] });

    const right = await login(email);
    expect(right.statusCode).toBe(403);
    expect(right.json()).toEqual({ message: messages.login.accountPending, account_status: 'pending' });
    expect(right.json().otp_required).toBeUndefined();
    const row = await rowOf(email);
    const denied = (await auditOf('auth.login', row.id)).filter((r) => r.outcome === 'denied');
    expect(denied.map((r) => r.details)).toEqual([{ reason: 'account_pending' }]);
    // No code was mailed to an account that may not sign in.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(t.smtp.inbox.slice(before).filter((m) => m.to.includes(email))).toEqual([]);
  });

  it('refuses a trusted device, an open OTP and a live token of an account that is not active', async () => {
    const user = await createUser(t.db, { trustedDevice: 'trusted-device-1' });
    const { token } = await signIn(t, user.email, user.password);
    const before = t.smtp.inbox.length;
    const otpDevice = newDeviceId();
    const otpLogin = await login(user.email, user.password, otpDevice);
    expect(otpLogin.json().otp_required).toBe(true);
    const mail = await t.smtp.waitFor((m) => m.to.includes(user.email), { after: before });

    await t.db.update(users).set({ status: 'pending' }).where(eq(users.id, user.id));
    const trusted = await login(user.email, user.password, 'trusted-device-1');
    expect(trusted.statusCode).toBe(403);
    expect(trusted.json().account_status).toBe('pending');
    const verify = await t.app.inject({
      method: 'POST',
      url: '/api/verify-email-otp',
      ...json({ email: user.email, otp: otpCodeOf(mail) }, otpDevice),
    });
    expect(verify.statusCode).toBe(403);
    expect(verify.json()).toEqual({ message: messages.login.accountPending, account_status: 'pending' });
    const me = await t.app.inject({
      method: 'GET',
      url: '/api/user',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(me.statusCode).toBe(401);

    await t.db.update(users).set({ status: 'rejected' }).where(eq(users.id, user.id));
    const rejected = await login(user.email, user.password, 'trusted-device-1');
    expect(rejected.statusCode).toBe(403);
    expect(rejected.json()).toEqual({ message: messages.login.accountRejected, account_status: 'rejected' });
    const stillNoToken = await t.app.inject({
      method: 'GET',
      url: '/api/user',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(stillNoToken.statusCode).toBe(401);
    // The OTP challenge was used up by the refused verify: it never turns into a session later.
    const open = await t.db.select().from(otpChallenges).where(eq(otpChallenges.userId, user.id));
    expect(open.every((c) => c.consumedAt !== null)).toBe(true);
  });
});

describe('approve and reject', () => {
  it('lists pending accounts for the admin', async () => {
    await register('listed-pending@example.test');
    const res = await adminCall('GET', '/api/admin/users?status=pending&per_page=100');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.data.length).toBeGreaterThan(0);
    expect(body.data.every((u: { status: string }) => u.status === 'pending')).toBe(true);
    expect(body.data.map((u: { email: string }) => u.email)).toContain('listed-pending@example.test');
    expect(body.total).toBe(body.data.length);
    const bad = await adminCall('GET', '/api/admin/users?status=waiting');
    expect(bad.statusCode).toBe(422);
  });

  it('approves: the user is e-mailed, the decision audited, and the account signs in', async () => {
    const email = 'to-approve@example.test';
    await register(email);
    const row = await rowOf(email);
    const before = t.smtp.inbox.length;
    const res = await adminCall('POST', `/api/admin/users/${row.id}/approve`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      notified: true,
      user: { id: row.id, email, status: 'active', credits: 5 },
    });

    const mail = await t.smtp.waitFor((m) => m.to.includes(email), { after: before });
    expect(mail.subject).toBe('Your Footprint account is approved');
    expect(mail.text).toContain('Hello Meera Pillai');
    expect(mail.text).toContain('http://footprint.test/login');

    const [audited] = await auditOf('admin.user.approve', row.id);
    expect(audited).toMatchObject({ outcome: 'success', actorEmail: expect.stringContaining('@') });
    expect(audited!.details).toEqual({
      email,
      changes: { status: { from: 'pending', to: 'active' } },
      credits_granted: 5,
    });

    const { token } = await signIn(t, email, password);
    const me = await t.app.inject({
      method: 'GET',
      url: '/api/user',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({ email, credits: 5 });

    const again = await adminCall('POST', `/api/admin/users/${row.id}/approve`);
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(
      'This account is not waiting for approval (its status is active). Nothing was changed.',
    );
    expect(await auditOf('admin.user.approve', row.id)).toHaveLength(1);
  });

  it('rejects with a reason: the user is e-mailed it, sign-in says so, and it can be approved later', async () => {
    const email = 'to-reject@example.test';
    await register(email);
    const row = await rowOf(email);
    const before = t.smtp.inbox.length;
    const res = await adminCall('POST', `/api/admin/users/${row.id}/reject`, {
      reason: 'We could not verify your agency.',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ notified: true, user: { status: 'rejected' } });
    const mail = await t.smtp.waitFor((m) => m.to.includes(email), { after: before });
    expect(mail.subject).toBe('Your Footprint registration was not approved');
    expect(mail.text).toContain('Reason given: We could not verify your agency.');

    const [audited] = await auditOf('admin.user.reject', row.id);
    expect(audited!.details).toEqual({
      email,
      changes: { status: { from: 'pending', to: 'rejected' } },
      reason: 'We could not verify your agency.',
    });

    const refused = await login(email);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ message: messages.login.accountRejected, account_status: 'rejected' });
    expect((await login(email, 'a wrong password here')).statusCode).toBe(422);

    expect((await adminCall('POST', `/api/admin/users/${row.id}/reject`, {})).statusCode).toBe(409);
    const approved = await adminCall('POST', `/api/admin/users/${row.id}/approve`);
    expect(approved.json().user.status).toBe('active');
    expect((await auditOf('admin.user.approve', row.id))[0]!.details).toMatchObject({
      changes: { status: { from: 'rejected', to: 'active' } },
      credits_granted: 5,
    });
    // Granted once: the ledger holds the one grant, and the balance agrees.
    expect((await rowOf(email)).credits).toBe(5);
  });

  it('rejects without a reason, and refuses a reason with control characters', async () => {
    const email = 'reject-no-reason@example.test';
    await register(email);
    const row = await rowOf(email);
    const bad = await adminCall('POST', `/api/admin/users/${row.id}/reject`, { reason: 'bell\u0007' });
    // Refused before any route by the control-character guard (http/input-guard.ts), with its 400.
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/reason field must not contain control characters/);
    expect((await rowOf(email)).status).toBe('pending');
    const before = t.smtp.inbox.length;
    const res = await adminCall('POST', `/api/admin/users/${row.id}/reject`);
    expect(res.statusCode).toBe(200);
    const mail = await t.smtp.waitFor((m) => m.to.includes(email), { after: before });
    expect(mail.text).not.toContain('Reason given');
    expect((await auditOf('admin.user.reject', row.id))[0]!.details).not.toHaveProperty('reason');
  });

  it('keeps PATCH status for active and disabled accounts: a pending one is approved or rejected', async () => {
    const email = 'patch-pending@example.test';
    await register(email);
    const row = await rowOf(email);
    const res = await adminCall('PATCH', `/api/admin/users/${row.id}`, { status: 'active' });
    expect(res.statusCode).toBe(422);
    expect((await rowOf(email)).status).toBe('pending');
    const renamed = await adminCall('PATCH', `/api/admin/users/${row.id}`, { name: 'Meera P.' });
    expect(renamed.statusCode).toBe(200);
  });

  it('refuses a non-admin (403) and an anonymous caller (401), changing nothing', async () => {
    const email = 'not-yours-to-approve@example.test';
    await register(email);
    const row = await rowOf(email);
    const user = await createUser(t.db, { appMode: 'live' });
    const { token } = await signIn(t, user.email, user.password);
    for (const action of ['approve', 'reject']) {
      const res = await adminCall('POST', `/api/admin/users/${row.id}/${action}`, {}, token);
      expect(res.statusCode).toBe(403);
      const anonymous = await t.app.inject({ method: 'POST', url: `/api/admin/users/${row.id}/${action}` });
      expect(anonymous.statusCode).toBe(401);
    }
    expect((await rowOf(email)).status).toBe('pending');
    expect(await auditOf('admin.user.approve', row.id)).toEqual([]);
    expect(await auditOf('admin.user.reject', row.id)).toEqual([]);
  });

  it('answers 404 for an unknown account', async () => {
    const res = await adminCall('POST', '/api/admin/users/00000000-0000-4000-8000-000000000000/approve');
    expect(res.statusCode).toBe(404);
  });
});

describe('the other registration modes', () => {
  it('closed: refuses registration with 403 and creates nothing', async () => {
    await setMode('closed');
    const status = await t.app.inject({ method: 'GET', url: '/api/registration-status' });
    expect(status.json()).toEqual({
      registration_enabled: false,
      registration_mode: 'closed',
      required_fields: ['organisation', 'designation'],
    });
    const res = await register('closed-mode@example.test');
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ message: messages.register.disabled });
    expect(await t.db.select().from(users).where(eq(users.email, 'closed-mode@example.test'))).toEqual([]);
    await setMode('approval');
  });

  it('open: the account is active and signs in at once, as before', async () => {
    await setMode('open');
    const email = 'open-mode@example.test';
    const res = await register(email);
    expect(res.statusCode).toBe(201);
    expect(res.json().approval_required).toBe(false);
    expect((await rowOf(email)).status).toBe('active');
    const first = await login(email);
    expect(first.statusCode).toBe(403);
    expect(first.json().otp_required).toBe(true);
    const { token } = await signIn(t, email, password);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    await setMode('approval');
  });

  it('audits every change of the mode', async () => {
    const rows = (await auditOf('admin.settings.update')).map(
      (r) => (r.details as { changes: { registration_mode?: unknown } }).changes.registration_mode,
    );
    expect(rows).toEqual([
      { from: 'approval', to: 'closed' },
      { from: 'closed', to: 'approval' },
      { from: 'approval', to: 'open' },
      { from: 'open', to: 'approval' },
    ]);
  });
});
