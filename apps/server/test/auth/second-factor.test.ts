// Second factors: the authenticator app (TOTP) with recovery codes, passkeys (WebAuthn, answered by a
// software authenticator built on node:crypto), the sign-in step they add, and the deployment switch
// that requires one. Real database, real SMTP, the whole HTTP stack.
import { messages, RECOVERY_CODE_PATTERN } from '@footprint/domain';
import { and, asc, eq, inArray } from 'drizzle-orm';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  auditEvents,
  authTokens,
  passkeys,
  recoveryCodes,
  trustedDevices,
  userTotp,
} from '../../src/db/schema.ts';
import { createTestApp, createUser, json, newDeviceId, signIn, type TestApp } from '../support/app.ts';
import { softwareAuthenticator } from '../support/authenticator.ts';

const ORIGIN = 'http://footprint.test';
let t: TestApp;
let clock = Date.now();
beforeAll(async () => {
  t = await createTestApp({
    now: () => new Date(clock),
    // One address makes every wrong try here; the per-account limit is the one under test.
    limits: { secondFactorFailuresPerIp: { points: 1000, durationSeconds: 600 } },
  });
});
afterAll(() => t.close());

type Who = { token: string; deviceId: string };

const call = (who: Who, method: 'GET' | 'POST' | 'PATCH', url: string, body?: unknown) =>
  t.app.inject({
    method,
    url,
    ...(body === undefined && method === 'GET'
      ? { headers: { authorization: `Bearer ${who.token}`, 'x-device-id': who.deviceId } }
      : json(body ?? {}, who.deviceId, who.token)),
  });

const codeAt = (secret: string, at = clock) =>
  new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 }).generate({
    timestamp: at,
  });

/** Moves the test clock to the start of a new 30-second step, so the next code is a fresh one. */
const nextStep = () => {
  clock = (Math.floor(clock / 30_000) + 1) * 30_000 + 1_000;
};

async function enrolTotp(who: Who) {
  const setup = await call(who, 'POST', '/api/security/totp/setup');
  expect(setup.statusCode, setup.body).toBe(200);
  const { secret } = setup.json();
  const confirm = await call(who, 'POST', '/api/security/totp/confirm', { code: codeAt(secret) });
  expect(confirm.statusCode, confirm.body).toBe(200);
  nextStep();
  return { secret: secret as string, recoveryCodes: confirm.json().recovery_codes as string[] };
}

async function passwordStep(user: { email: string; password: string }, deviceId = newDeviceId()) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/login',
    ...json({ email: user.email, password: user.password }, deviceId),
  });
  expect(res.statusCode, res.body).toBe(403);
  return { body: res.json(), deviceId };
}

const finish = (token: string, answer: Record<string, unknown>, deviceId?: string) =>
  t.app.inject({
    method: 'POST',
    url: '/api/login/second-factor',
    ...json({ token, ...answer }, deviceId),
  });

const auditOf = async (userId: string, actions: string[]) =>
  t.db
    .select()
    .from(auditEvents)
    .where(and(eq(auditEvents.userId, userId), inArray(auditEvents.action, actions)))
    .orderBy(asc(auditEvents.id));

describe('authenticator app (TOTP)', () => {
  it('sets up with a QR code drawn on the server, keeps the secret encrypted, and confirms only with a code', async () => {
    const user = await createUser(t.db);
    const who = await signIn(t, user.email, user.password);
    const setup = await call(who, 'POST', '/api/security/totp/setup');
    expect(setup.statusCode).toBe(200);
    const { secret, otpauth_url, qr_code } = setup.json();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(otpauth_url).toMatch(/^otpauth:\/\/totp\/Footprint:/);
    expect(otpauth_url).toContain(`secret=${secret}`);
    expect(otpauth_url).toContain('algorithm=SHA1&digits=6&period=30');
    expect(qr_code).toMatch(/^data:image\/svg\+xml;base64,/);
    expect(Buffer.from(qr_code.split(',')[1], 'base64').toString()).toContain('<svg');

    const [stored] = await t.db.select().from(userTotp).where(eq(userTotp.userId, user.id));
    expect(stored!.confirmedAt).toBeNull();
    expect(stored!.secretEncrypted).toMatch(/^v1\./);
    expect(stored!.secretEncrypted).not.toContain(secret);

    const wrong = await call(who, 'POST', '/api/security/totp/confirm', {
      code: codeAt(secret) === '000000' ? '000001' : '000000',
    });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json().errors.code).toEqual([messages.secondFactor.wrongCode]);
    const malformed = await call(who, 'POST', '/api/security/totp/confirm', { code: '12ab56' });
    expect(malformed.statusCode).toBe(422);
    expect((await call(who, 'GET', '/api/security')).json().totp.enabled).toBe(false);

    const confirm = await call(who, 'POST', '/api/security/totp/confirm', { code: codeAt(secret) });
    expect(confirm.statusCode).toBe(200);
    const codes = confirm.json().recovery_codes as string[];
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(RECOVERY_CODE_PATTERN);
    const hashes = await t.db.select().from(recoveryCodes).where(eq(recoveryCodes.userId, user.id));
    expect(hashes).toHaveLength(10);
    for (const row of hashes) for (const code of codes) expect(row.codeHash).not.toContain(code);

    const overview = (await call(who, 'GET', '/api/security')).json();
    expect(overview).toMatchObject({
      totp: { enabled: true },
      recovery_codes_left: 10,
      passkeys: [],
      second_factor_required: false,
      setup_required: false,
    });
    const again = await call(who, 'POST', '/api/security/totp/setup');
    expect(again.statusCode).toBe(422);
    expect(again.json().errors.code).toEqual([messages.security.totp.alreadyEnabled]);
    expect(
      (await auditOf(user.id, ['security.totp.setup', 'security.totp.enable'])).map((r) => [
        r.action,
        r.outcome,
      ]),
    ).toEqual([
      ['security.totp.setup', 'success'],
      ['security.totp.enable', 'failure'],
      ['security.totp.enable', 'success'],
    ]);
    nextStep();
  });

  it('asks for a code at every sign-in instead of a mailed OTP, and refuses the same code twice', async () => {
    const user = await createUser(t.db);
    const who = await signIn(t, user.email, user.password);
    const { secret } = await enrolTotp(who);

    const before = t.smtp.inbox.length;
    // Even the device that proved a mailed code before is asked for the second factor.
    const { body } = await passwordStep(user, who.deviceId);
    expect(body).toMatchObject({
      second_factor_required: true,
      methods: ['totp', 'recovery_code'],
      email: user.email,
      message: messages.secondFactor.required,
    });
    expect(body).not.toHaveProperty('otp_required');
    expect(body.second_factor_token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(new Date(body.expires_at).getTime() - clock).toBe(5 * 60_000);
    // No code is mailed, and the mailed-code route cannot stand in for the second factor.
    const otp = await t.app.inject({
      method: 'POST',
      url: '/api/verify-email-otp',
      ...json({ email: user.email, otp: '123456' }, who.deviceId),
    });
    expect(otp.statusCode).toBe(422);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(t.smtp.inbox.slice(before).filter((m) => m.to.includes(user.email))).toEqual([]);

    const code = codeAt(secret);
    const ok = await finish(body.second_factor_token, { code }, who.deviceId);
    expect(ok.statusCode, ok.body).toBe(200);
    const me = await call({ token: ok.json().token, deviceId: who.deviceId }, 'GET', '/api/user');
    expect(me.json().email).toBe(user.email);
    expect(ok.cookies.find((c) => c.name.startsWith('fp_td_'))?.httpOnly).toBe(true);

    // The same code, in the same 30 seconds, for a new sign-in: refused.
    const replay = await passwordStep(user, who.deviceId);
    const reused = await finish(replay.body.second_factor_token, { code }, who.deviceId);
    expect(reused.statusCode).toBe(422);
    expect(reused.json().errors.code).toEqual([messages.secondFactor.reusedCode]);
    // So is the code of the step before, once a later one was used.
    const earlier = codeAt(secret, clock - 30_000);
    if (earlier !== code) {
      const old = await finish(replay.body.second_factor_token, { code: earlier }, who.deviceId);
      expect(old.json().errors.code).toEqual([messages.secondFactor.reusedCode]);
    }
    // A token works once: after success it is spent.
    const spent = await finish(body.second_factor_token, { code: codeAt(secret) }, who.deviceId);
    expect(spent.statusCode).toBe(422);
    expect(spent.json().errors.token).toEqual([messages.secondFactor.expired]);
    nextStep();
    const fresh = await finish(replay.body.second_factor_token, { code: codeAt(secret) }, who.deviceId);
    expect(fresh.statusCode, fresh.body).toBe(200);

    const trail = await auditOf(user.id, ['auth.second_factor.required', 'auth.second_factor.verify']);
    expect(trail.map((r) => [r.action, r.outcome, (r.details as { method?: string }).method])).toEqual([
      ['auth.second_factor.required', 'success', undefined],
      ['auth.second_factor.verify', 'success', 'totp'],
      ['auth.second_factor.required', 'success', undefined],
      ['auth.second_factor.verify', 'failure', 'totp'],
      ...(earlier !== code ? [['auth.second_factor.verify', 'failure', 'totp']] : []),
      ['auth.second_factor.verify', 'success', 'totp'],
    ]);
    nextStep();
  });

  it('takes each recovery code once, and audits its use', async () => {
    const user = await createUser(t.db);
    const who = await signIn(t, user.email, user.password);
    const { recoveryCodes: codes } = await enrolTotp(who);

    const first = await passwordStep(user);
    const used = await finish(first.body.second_factor_token, { recovery_code: codes[0]!.toUpperCase() });
    expect(used.statusCode, used.body).toBe(200);

    const second = await passwordStep(user);
    const again = await finish(second.body.second_factor_token, { recovery_code: codes[0] });
    expect(again.statusCode).toBe(422);
    expect(again.json().errors.recovery_code).toEqual([messages.secondFactor.wrongRecoveryCode]);
    const other = await finish(second.body.second_factor_token, {
      recovery_code: codes[1]!.replace('-', ''),
    });
    expect(other.statusCode).toBe(200);

    expect((await call(who, 'GET', '/api/security')).json().recovery_codes_left).toBe(8);
    const trail = await auditOf(user.id, ['auth.recovery_code.use']);
    expect(trail.map((r) => r.details)).toEqual([{ codes_left: 9 }, { codes_left: 8 }]);

    // New codes need the password; the old ones stop working.
    const refused = await call(who, 'POST', '/api/security/recovery-codes', { password: 'not it at all' });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().errors.password).toEqual([messages.security.password.wrong]);
    const fresh = await call(who, 'POST', '/api/security/recovery-codes', { password: user.password });
    expect(fresh.statusCode).toBe(200);
    expect(fresh.json().recovery_codes).toHaveLength(10);
    const third = await passwordStep(user);
    expect((await finish(third.body.second_factor_token, { recovery_code: codes[2] })).statusCode).toBe(422);
    expect(
      (await finish(third.body.second_factor_token, { recovery_code: fresh.json().recovery_codes[0] }))
        .statusCode,
    ).toBe(200);
  });

  it('allows five wrong answers per sign-in, then asks for the password again; and limits them per account', async () => {
    const user = await createUser(t.db);
    const who = await signIn(t, user.email, user.password);
    const { secret } = await enrolTotp(who);
    const wrong = () => (codeAt(secret) === '000000' ? '000001' : '000000');

    const { body } = await passwordStep(user);
    for (let i = 0; i < 4; i++) {
      const res = await finish(body.second_factor_token, { code: wrong() });
      expect(res.json().errors.code).toEqual([messages.secondFactor.wrongCode]);
    }
    const fifth = await finish(body.second_factor_token, { code: wrong() });
    expect(fifth.json().errors.code).toEqual([messages.secondFactor.tooManyAttempts]);
    const right = await finish(body.second_factor_token, { code: codeAt(secret) });
    expect(right.statusCode).toBe(422);
    expect(right.json().errors.token).toEqual([messages.secondFactor.expired]);

    // Five more on a new sign-in reach the account's limit (10 in 15 minutes): a 429 even for the right code.
    const next = await passwordStep(user);
    for (let i = 0; i < 5; i++) await finish(next.body.second_factor_token, { code: wrong() });
    const last = await passwordStep(user);
    const locked = await finish(last.body.second_factor_token, { code: codeAt(secret) });
    expect(locked.statusCode).toBe(429);
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
    expect(await t.db.select().from(authTokens).where(eq(authTokens.userId, user.id))).toHaveLength(1);
    expect(await auditOf(user.id, ['auth.second_factor.verify'])).toHaveLength(10);
  });

  it('refuses malformed second steps with a 422 and no session', async () => {
    for (const body of [
      {},
      { token: 'x' },
      { token: 'x', code: '123456', recovery_code: 'abcde-fghij' },
      { token: 'x', code: 123456 },
      { token: 'x', recovery_code: '<script>' },
      { token: 'x', passkey: { id: 'a' } },
      { token: 'x', code: '123456', extra: true },
    ]) {
      const res = await t.app.inject({ method: 'POST', url: '/api/login/second-factor', ...json(body) });
      expect(res.statusCode, JSON.stringify(body)).toBe(422);
      expect(res.json().message).toEqual(expect.any(String));
    }
    const unknown = await finish('A'.repeat(43), { code: '123456' });
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json().errors.token).toEqual([messages.secondFactor.expired]);
  });

  it('turns the app off only with the password; the recovery codes go with the last factor', async () => {
    const user = await createUser(t.db);
    const who = await signIn(t, user.email, user.password);
    await enrolTotp(who);
    const wrong = await call(who, 'POST', '/api/security/totp/remove', { password: 'wrong password!' });
    expect(wrong.statusCode).toBe(422);
    expect(await t.db.select().from(userTotp).where(eq(userTotp.userId, user.id))).toHaveLength(1);
    const removed = await call(who, 'POST', '/api/security/totp/remove', { password: user.password });
    expect(removed.statusCode).toBe(200);
    expect(await t.db.select().from(userTotp).where(eq(userTotp.userId, user.id))).toHaveLength(0);
    expect(await t.db.select().from(recoveryCodes).where(eq(recoveryCodes.userId, user.id))).toHaveLength(0);
    // Back to the mailed code for a new device.
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      ...json({ email: user.email, password: user.password }, newDeviceId()),
    });
    expect(login.json().otp_required).toBe(true);
    expect((await auditOf(user.id, ['security.totp.disable'])).map((r) => r.outcome)).toEqual([
      'failure',
      'success',
    ]);
  });
});

describe('passkeys', () => {
  async function addPasskey(who: Who, name: string, authenticator = softwareAuthenticator(ORIGIN)) {
    const options = await call(who, 'POST', '/api/security/passkeys/options');
    expect(options.statusCode).toBe(200);
    const res = await call(who, 'POST', '/api/security/passkeys', {
      name,
      response: authenticator.register(options.json()),
    });
    return { res, authenticator, options: options.json() };
  }

  it('registers passkeys from real WebAuthn responses, and names, renames and removes them', async () => {
    const user = await createUser(t.db);
    const who = await signIn(t, user.email, user.password);
    const { res, authenticator, options } = await addPasskey(who, 'Office laptop');
    expect(options.rp).toEqual({ name: 'Footprint', id: 'footprint.test' });
    expect(options.user.name).toBe(user.email);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({
      message: messages.security.passkeys.added,
      passkey: { name: 'Office laptop', last_used_at: null },
    });
    // The first factor brings recovery codes; a second passkey does not.
    expect(res.json().recovery_codes).toHaveLength(10);
    const [row] = await t.db.select().from(passkeys).where(eq(passkeys.userId, user.id));
    expect(row!.credentialId).toBe(authenticator.credentialId);

    const second = await addPasskey(who, 'Security key');
    expect(second.res.statusCode).toBe(201);
    expect(second.res.json().recovery_codes).toEqual([]);
    expect(second.options.excludeCredentials.map((c: { id: string }) => c.id)).toEqual([
      authenticator.credentialId,
    ]);

    // A response answers its own challenge once; another origin's is refused; so is the same key twice.
    const replayed = await call(who, 'POST', '/api/security/passkeys', {
      name: 'Again',
      response: authenticator.register(options),
    });
    expect(replayed.statusCode).toBe(422);
    const opts = (await call(who, 'POST', '/api/security/passkeys/options')).json();
    const phished = await call(who, 'POST', '/api/security/passkeys', {
      name: 'Phished',
      response: softwareAuthenticator(ORIGIN).register(opts, { origin: 'https://evil.example' }),
    });
    expect(phished.statusCode).toBe(422);
    expect(phished.json().errors.response).toEqual([messages.security.passkeys.failed]);
    const duplicate = await call(who, 'POST', '/api/security/passkeys', {
      name: 'Same',
      response: authenticator.register((await call(who, 'POST', '/api/security/passkeys/options')).json()),
    });
    expect(duplicate.statusCode).toBe(422);
    expect(duplicate.json().errors.response).toEqual([messages.security.passkeys.duplicate]);

    const id = res.json().passkey.id as string;
    const renamed = await call(who, 'PATCH', `/api/security/passkeys/${id}`, { name: 'Desk laptop' });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json().name).toBe('Desk laptop');
    expect((await call(who, 'PATCH', `/api/security/passkeys/${id}`, { name: '' })).statusCode).toBe(422);
    expect((await call(who, 'PATCH', '/api/security/passkeys/not-a-uuid', { name: 'x' })).statusCode).toBe(
      404,
    );

    // Someone else's passkey is not theirs to rename or remove.
    const stranger = await signIn(
      t,
      (await createUser(t.db, { password: 'stranger password' })).email,
      'stranger password',
    );
    expect((await call(stranger, 'PATCH', `/api/security/passkeys/${id}`, { name: 'Mine' })).statusCode).toBe(
      404,
    );
    expect(
      (await call(stranger, 'POST', `/api/security/passkeys/${id}/remove`, { password: 'stranger password' }))
        .statusCode,
    ).toBe(404);

    const list = (await call(who, 'GET', '/api/security')).json().passkeys;
    expect(list.map((p: { name: string }) => p.name)).toEqual(['Desk laptop', 'Security key']);
    expect(
      (await call(who, 'POST', `/api/security/passkeys/${id}/remove`, { password: 'wrong one here' }))
        .statusCode,
    ).toBe(422);
    const removed = await call(who, 'POST', `/api/security/passkeys/${id}/remove`, {
      password: user.password,
    });
    expect(removed.statusCode).toBe(200);
    expect((await call(who, 'GET', '/api/security')).json().passkeys).toHaveLength(1);
    expect(
      (
        await auditOf(user.id, ['security.passkey.add', 'security.passkey.rename', 'security.passkey.remove'])
      ).map((r) => `${r.action}:${r.outcome}`),
    ).toEqual([
      'security.passkey.add:success',
      'security.passkey.add:success',
      'security.passkey.add:failure',
      'security.passkey.add:failure',
      'security.passkey.add:failure',
      'security.passkey.rename:success',
      'security.passkey.remove:failure',
      'security.passkey.remove:success',
    ]);
  });

  it('signs in with a passkey: one assertion per challenge, by one of the account’s own passkeys', async () => {
    const user = await createUser(t.db);
    const who = await signIn(t, user.email, user.password);
    const { authenticator } = await addPasskey(who, 'Laptop');

    const { body, deviceId } = await passwordStep(user);
    expect(body.methods).toEqual(['recovery_code', 'passkey']);
    const options = await t.app.inject({
      method: 'POST',
      url: '/api/login/second-factor/passkey-options',
      ...json({ token: body.second_factor_token }, deviceId),
    });
    expect(options.statusCode).toBe(200);
    expect(options.json().rpId).toBe('footprint.test');
    expect(options.json().allowCredentials.map((c: { id: string }) => c.id)).toEqual([
      authenticator.credentialId,
    ]);
    const assertion = authenticator.authenticate(options.json());
    const ok = await finish(body.second_factor_token, { passkey: assertion }, deviceId);
    expect(ok.statusCode, ok.body).toBe(200);
    expect((await call({ token: ok.json().token, deviceId }, 'GET', '/api/user')).statusCode).toBe(200);
    const [row] = await t.db.select().from(passkeys).where(eq(passkeys.userId, user.id));
    expect(row!.counter).toBe(1);
    expect(row!.lastUsedAt).toBeInstanceOf(Date);

    // The same assertion on a new sign-in answers the old challenge: refused.
    const next = await passwordStep(user);
    await t.app.inject({
      method: 'POST',
      url: '/api/login/second-factor/passkey-options',
      ...json({ token: next.body.second_factor_token }),
    });
    const replay = await finish(next.body.second_factor_token, { passkey: assertion });
    expect(replay.statusCode).toBe(422);
    expect(replay.json().errors.passkey).toEqual([messages.secondFactor.passkeyFailed]);
    // Another account's passkey, even over the right challenge, is refused.
    const other = await createUser(t.db);
    const otherWho = await signIn(t, other.email, other.password);
    const { authenticator: theirs } = await addPasskey(otherWho, 'Theirs');
    const again = await t.app.inject({
      method: 'POST',
      url: '/api/login/second-factor/passkey-options',
      ...json({ token: next.body.second_factor_token }),
    });
    expect(
      (await finish(next.body.second_factor_token, { passkey: theirs.authenticate(again.json()) }))
        .statusCode,
    ).toBe(422);
    // A challenge is forgotten once answered, right or wrong: the next try needs new options.
    const third = await t.app.inject({
      method: 'POST',
      url: '/api/login/second-factor/passkey-options',
      ...json({ token: next.body.second_factor_token }),
    });
    expect(
      (await finish(next.body.second_factor_token, { passkey: authenticator.authenticate(third.json()) }))
        .statusCode,
    ).toBe(200);
    expect(
      (await auditOf(user.id, ['auth.second_factor.verify'])).map((r) => [
        r.outcome,
        (r.details as { method: string }).method,
      ]),
    ).toEqual([
      ['success', 'passkey'],
      ['failure', 'passkey'],
      ['failure', 'passkey'],
      ['success', 'passkey'],
    ]);
  });
});

describe('trusted devices and signing out everywhere', () => {
  it('ends every session and forgets every trusted device of the account, and nobody else’s', async () => {
    const user = await createUser(t.db);
    const other = await createUser(t.db);
    const first = await signIn(t, user.email, user.password);
    const second = await signIn(t, user.email, user.password);
    const theirs = await signIn(t, other.email, other.password);
    const devices = (await call(first, 'GET', '/api/security')).json().trusted_devices;
    expect(devices.map((d: { device_id: string; current: boolean }) => [d.device_id, d.current])).toEqual([
      [first.deviceId, true],
      [second.deviceId, false],
    ]);

    const out = await call(second, 'POST', '/api/security/sign-out-everywhere');
    expect(out.statusCode).toBe(200);
    expect(out.cookies.find((c) => c.name.startsWith('fp_td_'))?.value).toBe('');
    for (const who of [first, second]) expect((await call(who, 'GET', '/api/user')).statusCode).toBe(401);
    expect((await call(theirs, 'GET', '/api/user')).statusCode).toBe(200);
    expect(await t.db.select().from(trustedDevices).where(eq(trustedDevices.userId, user.id))).toHaveLength(
      0,
    );
    expect(await t.db.select().from(trustedDevices).where(eq(trustedDevices.userId, other.id))).toHaveLength(
      1,
    );
    // The browser still holding the old cookie is asked for a mailed code again.
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      ...json({ email: user.email, password: user.password }, first.deviceId),
    });
    expect(login.json().otp_required).toBe(true);
    const [row] = await auditOf(user.id, ['auth.sign_out_everywhere']);
    expect(row!.details).toEqual({ sessions_revoked: 2, trusted_devices_revoked: 2 });
  });
});

describe('a deployment that requires a second factor', () => {
  let own: TestApp;
  beforeAll(async () => {
    own = await createTestApp({ env: { RATE_LIMIT_ENABLED: 'false' } });
  });
  afterAll(() => own.close());

  it('sends an account without one to set it up, and lets nothing else through until it has', async () => {
    const admin = await createUser(own.db, { role: 'admin', appMode: 'live' });
    const adminWho = await signIn(own, admin.email, admin.password);
    const as = (who: Who, method: 'GET' | 'POST' | 'PATCH', url: string, body?: unknown) =>
      own.app.inject({
        method,
        url,
        ...(method === 'GET'
          ? { headers: { authorization: `Bearer ${who.token}`, 'x-device-id': who.deviceId } }
          : json(body ?? {}, who.deviceId, who.token)),
      });
    const user = await createUser(own.db, { appMode: 'live', credits: 5 });
    const who = await signIn(own, user.email, user.password);
    expect((await as(who, 'GET', '/api/history')).statusCode).toBe(200);

    const set = await as(adminWho, 'PATCH', '/api/admin/settings', { second_factor_required: true });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json().second_factor_required).toBe(true);
    expect((await as(adminWho, 'GET', '/api/admin/settings')).statusCode).toBe(403);

    // Signed in, but only the user fetch, the Security page's calls and logout answer.
    const me = await as(who, 'GET', '/api/user');
    expect(me.statusCode).toBe(200);
    expect(me.json().second_factor_setup_required).toBe(true);
    for (const [method, url] of [
      ['GET', '/api/history'],
      ['GET', '/api/tel?number=919876543210'],
      ['GET', '/api/credits/statement'],
    ] as const) {
      const res = await as(who, method, url);
      expect(res.statusCode, url).toBe(403);
      expect(res.json()).toEqual({
        message: messages.secondFactor.setupRequired,
        second_factor_setup_required: true,
      });
    }
    expect((await as(who, 'GET', '/api/security')).json()).toMatchObject({
      second_factor_required: true,
      setup_required: true,
    });

    const setup = (await as(who, 'POST', '/api/security/totp/setup')).json();
    const code = codeAt(setup.secret, Date.now());
    expect((await as(who, 'POST', '/api/security/totp/confirm', { code })).statusCode).toBe(200);
    expect((await as(who, 'GET', '/api/history')).statusCode).toBe(200);
    expect((await as(who, 'GET', '/api/user')).json().second_factor_setup_required).toBe(false);
    // The last factor cannot be removed while the deployment requires one.
    const remove = await as(who, 'POST', '/api/security/totp/remove', { password: user.password });
    expect(remove.statusCode).toBe(422);
    expect(remove.json().errors.password).toEqual([messages.security.lastFactor]);

    const trail = await own.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.action, 'admin.settings.update'));
    expect(trail.at(-1)!.details).toMatchObject({
      changes: { second_factor_required: { from: false, to: true } },
    });
  });
});
