// The audit trail as the product writes it: one row for every sign-in event, lookup, report and
// refusal, with who, when, from which IP and device, what, at what cost and with what outcome.
import { and, asc, eq, gt, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents, lookups, users } from '../../src/db/schema.ts';
import { applyCreditChange } from '../../src/modules/credits/service.ts';
import { createTestApp, createUser, json, newDeviceId, signIn, type TestApp } from '../support/app.ts';
import { addLeakRecords } from '../support/leaks.ts';
import { pdfText } from '../support/pdf.ts';
import { otpCodeOf, resetTokenOf } from '../support/smtp.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({
    env: {
      RATE_LIMIT_ENABLED: 'false',
      LOOKUP_PURGE_INTERVAL_MINUTES: '0',
      SANDBOX_FAILURES: 'upi=1',
      // The reset below needs an account that may sign in at once (approval is test/auth/approval).
      REGISTRATION_MODE: 'open',
    },
  });
});
afterAll(() => t.close());

/** Audit rows written after `since` (an id), oldest first. */
async function rowsAfter(since: number, where?: ReturnType<typeof eq>) {
  return t.db
    .select()
    .from(auditEvents)
    .where(where ? and(gt(auditEvents.id, since), where) : gt(auditEvents.id, since))
    .orderBy(asc(auditEvents.id));
}

async function lastId(): Promise<number> {
  const [row] = await t.db.select({ id: sql<number>`coalesce(max(${auditEvents.id}), 0)` }).from(auditEvents);
  return Number(row?.id ?? 0);
}

async function csrfHeaders() {
  const res = await t.app.inject({ method: 'GET', url: '/sanctum/csrf-cookie' });
  const cookie = res.cookies.find((c) => c.name === 'XSRF-TOKEN')!;
  return { cookie: `XSRF-TOKEN=${cookie.value}`, 'x-xsrf-token': encodeURIComponent(cookie.value) };
}

const get = (url: string, token: string, deviceId?: string) =>
  t.app.inject({
    method: 'GET',
    url,
    headers: { authorization: `Bearer ${token}`, ...(deviceId ? { 'x-device-id': deviceId } : {}) },
  });

describe('sign-in events', () => {
  it('records the OTP challenge, a wrong and a right code, the login and its device, and last_login_at', async () => {
    const user = await createUser(t.db, { appMode: 'live' });
    const deviceId = newDeviceId();
    const since = await lastId();

    const before = t.smtp.inbox.length;
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      ...json({ email: user.email, password: user.password }, deviceId),
    });
    expect(login.statusCode).toBe(403);
    const mail = await t.smtp.waitFor((m) => m.to.includes(user.email), { after: before });
    const wrong = await t.app.inject({
      method: 'POST',
      url: '/api/verify-email-otp',
      ...json({ email: user.email, otp: otpCodeOf(mail) === '000000' ? '111111' : '000000' }, deviceId),
    });
    expect(wrong.statusCode).toBe(422);
    const right = await t.app.inject({
      method: 'POST',
      url: '/api/verify-email-otp',
      ...json({ email: user.email, otp: otpCodeOf(mail) }, deviceId),
    });
    expect(right.statusCode).toBe(200);

    const rows = await rowsAfter(since, eq(auditEvents.actorEmail, user.email));
    expect(rows.map((r) => [r.action, r.outcome])).toEqual([
      ['auth.otp.required', 'success'],
      ['auth.otp.verify', 'failure'],
      ['auth.otp.verify', 'success'],
      ['auth.login', 'success'],
    ]);
    for (const row of rows) {
      expect(row).toMatchObject({ userId: user.id, ip: '127.0.0.1', deviceId });
      expect(row.at.getTime()).toBeLessThanOrEqual(Date.now());
    }
    expect(rows[3]!.details).toMatchObject({ via: 'otp' });
    const [saved] = await t.db.select().from(users).where(eq(users.id, user.id));
    expect(saved!.lastLoginAt).toBeInstanceOf(Date);
  });

  it('records failed logins (known and unknown accounts), a disabled account, a trusted device, resend and logout', async () => {
    const deviceId = newDeviceId();
    const user = await createUser(t.db, { trustedDevice: deviceId });
    const disabled = await createUser(t.db, { status: 'disabled' });
    const since = await lastId();
    const login = (email: string, password: string, device = deviceId) =>
      t.app.inject({ method: 'POST', url: '/api/login', ...json({ email, password }, device) });

    expect((await login(user.email, 'not the password')).statusCode).toBe(422);
    expect((await login('nobody-here@example.test', 'whatever pass')).statusCode).toBe(422);
    expect((await login(disabled.email, disabled.password)).statusCode).toBe(403);
    const ok = await login(user.email, user.password);
    expect(ok.statusCode).toBe(200);
    const token = ok.json().token as string;
    await t.app.inject({ method: 'POST', url: '/api/resend-otp', ...json({ email: user.email }, deviceId) });
    const out = await t.app.inject({ method: 'POST', url: '/api/logout', ...json({}, deviceId, token) });
    expect(out.statusCode).toBe(200);

    const rows = await rowsAfter(since);
    const summary = rows.map((r) => [r.action, r.outcome, r.actorEmail, r.userId]);
    expect(summary).toEqual([
      ['auth.login', 'failure', user.email, user.id],
      ['auth.login', 'failure', 'nobody-here@example.test', null],
      ['auth.login', 'denied', disabled.email, disabled.id],
      ['auth.login', 'success', user.email, user.id],
      ['auth.otp.resend', 'failure', user.email, user.id],
      ['auth.logout', 'success', user.email, user.id],
    ]);
    expect(rows[0]!.details).toEqual({ reason: 'wrong_password' });
    expect(rows[1]!.details).toEqual({ reason: 'unknown_account' });
    expect(rows[3]!.details).toEqual({ via: 'trusted_device' });
    expect(rows.every((r) => r.ip === '127.0.0.1' && r.deviceId === deviceId)).toBe(true);
  });

  it('records registration, the reset request (known and unknown) and the reset itself', async () => {
    const since = await lastId();
    const email = `fresh-${Date.now()}@example.test`;
    const register = await t.app.inject({
      method: 'POST',
      url: '/api/register',
      ...json({
        name: 'Fresh',
        email,
        password: 'long enough pw',
        password_confirmation: 'long enough pw',
        organisation: 'Synthetic Bureau',
        designation: 'Analyst',
      }),
    });
    expect(register.statusCode).toBe(201);

    const before = t.smtp.inbox.length;
    const forgot = (address: string) =>
      csrfHeaders().then((headers) =>
        t.app.inject({
          method: 'POST',
          url: '/forgot-password',
          payload: JSON.stringify({ email: address }),
          headers: { 'content-type': 'application/json', ...headers },
        }),
      );
    expect((await forgot(email)).statusCode).toBe(200);
    expect((await forgot('ghost@example.test')).statusCode).toBe(200);
    const mail = await t.smtp.waitFor((m) => m.to.includes(email), { after: before });
    const { token } = resetTokenOf(mail);
    const reset = (resetToken: string) =>
      csrfHeaders().then((headers) =>
        t.app.inject({
          method: 'POST',
          url: '/api/reset-password',
          payload: JSON.stringify({
            email,
            token: resetToken,
            password: 'a newer password',
            password_confirmation: 'a newer password',
          }),
          headers: { 'content-type': 'application/json', ...headers },
        }),
      );
    expect((await reset('made-up-token-0123456789')).statusCode).toBe(422);
    expect((await reset(token)).statusCode).toBe(200);

    // The forgot-password work runs after the answer: wait for both rows.
    await expect
      .poll(async () => (await rowsAfter(since, eq(auditEvents.action, 'auth.password.forgot'))).length)
      .toBe(2);
    const rows = await rowsAfter(since);
    const byAction = (action: string) =>
      rows.filter((r) => r.action === action).map((r) => [r.outcome, r.actorEmail]);
    expect(byAction('auth.register')).toEqual([['success', email]]);
    expect(byAction('auth.password.forgot').sort()).toEqual([
      ['failure', 'ghost@example.test'],
      ['success', email],
    ]);
    expect(byAction('auth.password.reset')).toEqual([
      ['failure', email],
      ['success', email],
    ]);
  });
});

describe('text PostgreSQL cannot store', () => {
  it('answers 400, not 500, for a NUL in an e-mail on login, register and resend', async () => {
    const email = 'nul\u0000@example.test';
    const calls = [
      ['/api/login', { email, password: 'whatever pass' }],
      [
        '/api/register',
        { name: 'N', email, password: 'long enough pw', password_confirmation: 'long enough pw' },
      ],
      ['/api/resend-otp', { email }],
      ['/api/verify-email-otp', { email, otp: '123456' }],
    ] as const;
    for (const [url, body] of calls) {
      const res = await t.app.inject({ method: 'POST', url, ...json(body) });
      // Refused before any route by the control-character guard (http/input-guard.ts).
      expect(res.statusCode, url).toBe(400);
    }
  });
});

describe('lookups, reports and refusals', () => {
  it('writes one row per lookup of every kind, cached repeats and refusals included, with the case reference', async () => {
    const deviceId = newDeviceId();
    const user = await createUser(t.db, { appMode: 'live', credits: 4, trustedDevice: deviceId });
    const { token } = await signIn(t, user.email, user.password, deviceId);
    const since = await lastId();

    const tel = await get(
      '/api/tel?number=919876543210&case_reference=%20FIR%20214%2F2025%20',
      token,
      deviceId,
    );
    expect(tel.statusCode).toBe(200);
    const again = await get('/api/tel?number=919876543210&case_reference=FIR%20214%2F2025', token, deviceId);
    expect(again.json().cached).toBe(true);
    expect((await get('/api/email?email=rich.demo%40example.test', token, deviceId)).statusCode).toBe(200);
    const rc = await t.app.inject({
      method: 'POST',
      url: '/api/rcfull-details',
      ...json({ id_number: 'MH12AB1234', case_reference: 'CASE-RC' }, deviceId, token),
    });
    expect(rc.statusCode).toBe(200);
    // SANDBOX_FAILURES makes the UPI source fail: charged, refunded, recorded as a failure.
    const upi = await t.app.inject({
      method: 'POST',
      url: '/api/upifull-details',
      ...json({ upi_id: 'rohan.deshmukh@oksbi' }, deviceId, token),
    });
    expect(upi.statusCode).toBe(502);
    // The index holds a record (an empty one could not answer: 503), not of this name.
    await addLeakRecords(t.db, { name: 'Trail Breach' }, [{ name: 'Somebody Else' }]);
    const leak = await t.app.inject({
      method: 'POST',
      url: '/api/leak-data-finder/?page=1&per_page=10',
      ...json(
        { fields: [{ type: 'name', value: 'Rohan Deshmukh' }], case_reference: 'CASE-LEAK' },
        deviceId,
        token,
      ),
    });
    expect(leak.statusCode).toBe(200);

    const all = await rowsAfter(since, eq(auditEvents.userId, user.id));
    // Each new reference opened its case (a search files itself under the case of its reference).
    expect(all.filter((r) => r.action === 'case.create').map((r) => r.caseReference)).toEqual([
      'FIR 214/2025',
      'CASE-RC',
      'CASE-LEAK',
    ]);
    const rows = all.filter((r) => r.action.startsWith('lookup.'));
    expect(rows.map((r) => [r.action, r.outcome, r.cost, r.caseReference])).toEqual([
      ['lookup.tel', 'success', 1, 'FIR 214/2025'],
      ['lookup.tel', 'success', 0, 'FIR 214/2025'],
      ['lookup.email', 'success', 1, null],
      // The sandbox's registry does not know MH12AB1234: no record, refunded (the charging rule).
      ['lookup.rc', 'no_record', 0, 'CASE-RC'],
      ['lookup.upi', 'failure', 0, null],
      // No leak record of this name: the search found nothing, recorded as no_record and refunded.
      ['lookup.leak', 'no_record', 0, 'CASE-LEAK'],
    ]);
    // Every search row names its query as typed and as matched.
    expect(rows.map((r) => (r.details as Record<string, unknown>).query_typed)).toEqual([
      '919876543210',
      '919876543210',
      'rich.demo@example.test',
      'MH12AB1234',
      'rohan.deshmukh@oksbi',
      'Name: Rohan Deshmukh',
    ]);
    expect(rows[5]!.details).toMatchObject({ query: rows[5]!.target });
    expect(rows[0]).toMatchObject({
      target: '919876543210',
      ip: '127.0.0.1',
      deviceId,
      actorEmail: user.email,
    });
    expect(rows[0]!.details).toMatchObject({ lookup_id: tel.json().lookup_id, cached: false });
    expect(rows[1]!.details).toMatchObject({ lookup_id: again.json().lookup_id, cached: true });
    expect(rows[4]!.details).toMatchObject({ reason: 'no_source_answered', refunded: 1 });

    // The lookup rows carry the same case reference as their audit rows.
    const [stored] = await t.db.select().from(lookups).where(eq(lookups.id, tel.json().lookup_id));
    expect(stored).toMatchObject({ caseReference: 'FIR 214/2025', ip: '127.0.0.1', deviceId });

    // Out of credits: 402, no lookup, a 'denied' row. (The RC and leak searches found no record and
    // were refunded: the two credits they gave back are taken first.)
    await t.db.transaction((tx) =>
      applyCreditChange(tx, {
        userId: user.id,
        delta: -2,
        kind: 'adjustment',
        reason: 'test: spend the rest',
      }),
    );
    const broke = await get('/api/tel?number=919123456780&case_reference=CASE-X', token, deviceId);
    expect(broke.statusCode).toBe(402);
    const [denied] = await rowsAfter(rows.at(-1)!.id, eq(auditEvents.userId, user.id));
    expect(denied).toMatchObject({
      action: 'lookup.tel',
      outcome: 'denied',
      cost: 0,
      caseReference: 'CASE-X',
    });
    expect(denied!.details).toMatchObject({ reason: 'insufficient_credits', balance: 0 });
  });

  it('prints the case reference on the report and writes it to the report row of the trail', async () => {
    const deviceId = newDeviceId();
    const user = await createUser(t.db, { appMode: 'live', credits: 3, trustedDevice: deviceId });
    const { token } = await signIn(t, user.email, user.password, deviceId);
    const tel = await get('/api/tel?number=919876543210&case_reference=OPS-77%2FB', token, deviceId);
    expect(tel.statusCode).toBe(200);
    const since = await lastId();
    const report = await t.app.inject({
      method: 'POST',
      url: '/api/generate-report',
      ...json(
        { userInput: '9876543210', type: 'tel', results: { lookup_id: tel.json().lookup_id } },
        deviceId,
        token,
      ),
    });
    expect(report.statusCode).toBe(200);
    expect(await pdfText(report.rawPayload)).toContain('OPS-77/B');
    const [row] = await rowsAfter(since, eq(auditEvents.userId, user.id));
    expect(row).toMatchObject({
      action: 'report.lookup',
      outcome: 'success',
      caseReference: 'OPS-77/B',
      cost: 0,
    });
    expect(row!.details).toMatchObject({ lookup_id: tel.json().lookup_id });
  });

  it('keeps every row: the database refuses UPDATE, DELETE and TRUNCATE of the trail', async () => {
    const before = await lastId();
    expect(before).toBeGreaterThan(0);
    for (const statement of [
      sql`update audit_events set outcome = 'success' where outcome = 'failure'`,
      sql`delete from audit_events where action like 'auth.%'`,
      sql`truncate audit_events`,
    ]) {
      const error = await t.db.execute(statement).then(
        () => undefined,
        (e: Error & { cause?: Error }) => e,
      );
      expect(error?.cause?.message ?? error?.message).toMatch(/audit_events is append-only/);
    }
    expect(await lastId()).toBe(before);
    const [failures] = await t.db
      .select({ n: sql<number>`count(*)` })
      .from(auditEvents)
      .where(eq(auditEvents.outcome, 'failure'));
    expect(Number(failures!.n)).toBeGreaterThan(0);
  });
});
