// The rule for new passwords (security/password-policy.ts): 12 characters at least, refused when the
// bundled list of common passwords has it (always), or when a Pwned Passwords range API knows it (a
// fake one here on 127.0.0.1, speaking the documented `SUFFIX:COUNT` format with padding). Register,
// reset and admin-created accounts all apply it; register for a taken address answers like a new one.
import { createHash } from 'node:crypto';
import { messages } from '@footprint/domain';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../src/db/schema.ts';
import { runAdminCommand } from '../../src/modules/admin/cli.ts';
import { isCommonPassword } from '../../src/security/password-policy.ts';
import { createTestApp, createUser, json, signIn, type TestApp } from '../support/app.ts';
import { resetTokenOf } from '../support/smtp.ts';
import { startFakeUpstream } from '../support/upstream.ts';

const BREACHED = 'a phrase that leaked once';
const sha1 = (value: string) => createHash('sha1').update(value).digest('hex').toUpperCase();

/** The range API: every prefix answers padding lines (count 0); the breached password's suffix has a count. */
const pwned = await startFakeUpstream((req, res) => {
  const prefix = /^\/range\/([0-9A-F]{5})$/.exec(req.url)?.[1];
  if (!prefix) {
    res.writeHead(404).end();
    return;
  }
  const lines = Array.from(
    { length: 20 },
    (_, i) => `${(i.toString(16).toUpperCase() + '0'.repeat(35)).slice(0, 35)}:0`,
  );
  if (sha1(BREACHED).startsWith(prefix)) lines.push(`${sha1(BREACHED).slice(5)}:42`);
  res.writeHead(200, { 'content-type': 'text/plain' }).end(lines.join('\r\n'));
});

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({
    env: {
      RATE_LIMIT_ENABLED: 'false',
      REGISTRATION_MODE: 'open',
      PWNED_PASSWORDS_URL: pwned.url,
      PWNED_PASSWORDS_TIMEOUT_MS: '300',
    },
  });
});
afterAll(async () => {
  await t.close();
  await pwned.close();
});

let n = 0;
const email = () => `passwords-${process.pid}-${++n}@example.test`;
const register = (password: string, address = email()) =>
  t.app.inject({
    method: 'POST',
    url: '/api/register',
    ...json({
      name: 'Anjali Rao',
      email: address,
      password,
      password_confirmation: password,
      organisation: 'Synthetic Bureau',
      designation: 'Analyst',
    }),
  });

describe('the offline list', () => {
  it.each([
    ['password1234', 'a common password with digits after it'],
    ['123456789012', 'a common run of digits'],
    ['qwertyqwerty', 'a common password repeated'],
    ['            ', 'twelve spaces'],
    ['aaaaaaaaaaaa', 'one character repeated'],
    ['Password1234!', 'capitals and symbols do not hide it'],
  ])('refuses %j (%s) at registration, and creates nobody', async (password) => {
    const address = email();
    const res = await register(password, address);
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json().errors).toEqual({ password: [messages.passwordRules.common] });
    expect(await t.db.select().from(users).where(eq(users.email, address))).toHaveLength(0);
  });

  it('lets uncommon passphrases through, and finds every e2e and demo password uncommon', () => {
    for (const password of [
      'correct horse battery',
      'conformance passphrase',
      'breach hunting passphrase',
      'another passphrase',
      'footprint-demo',
      'e2e-demo-password',
    ]) {
      expect(isCommonPassword(password), password).toBe(false);
    }
  });

  it('refuses a short password with the 12-character message', async () => {
    const res = await register('elevenchars');
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.password).toEqual(['The password field must be at least 12 characters.']);
  });
});

describe('the Pwned Passwords range API', () => {
  it('refuses a password it knows, sending only the first five characters of the SHA-1 with padding asked for', async () => {
    const before = pwned.requests.length;
    const res = await register(BREACHED);
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual({ password: [messages.passwordRules.breached] });
    const [request] = pwned.requests.slice(before);
    expect(request?.url).toBe(`/range/${sha1(BREACHED).slice(0, 5)}`);
    expect(request?.headers['add-padding']).toBe('true');
    expect(JSON.stringify(request)).not.toContain(sha1(BREACHED).slice(5));
  });

  it('lets a password it does not know through (padding lines with count 0 are no match)', async () => {
    const res = await register('a quiet evening by the river');
    expect(res.statusCode, res.body).toBe(201);
  });

  it('leaves the decision to the offline list when it is slow or fails', async () => {
    pwned.setHandler((_req, res) => {
      setTimeout(() => res.writeHead(200).end(`${sha1(BREACHED).slice(5)}:42`), 2000);
    });
    try {
      const started = performance.now();
      const slow = await register(BREACHED);
      expect(slow.statusCode, slow.body).toBe(201);
      expect(performance.now() - started).toBeLessThan(1500);
      const common = await register('password1234');
      expect(common.statusCode).toBe(422);
      expect(common.json().errors).toEqual({ password: [messages.passwordRules.common] });

      pwned.setHandler((_req, res) => {
        res.writeHead(503).end();
      });
      expect((await register('another breached idea')).statusCode).toBe(201);
    } finally {
      pwned.setHandler((req, res) => {
        const lines = sha1(BREACHED).startsWith(req.url.slice(7)) ? `${sha1(BREACHED).slice(5)}:42` : '';
        res.writeHead(200).end(lines);
      });
    }
  });
});

describe('reset, admin and CLI apply the same rule', () => {
  it('refuses a common or breached password on reset and keeps the old one', async () => {
    const user = await createUser(t.db);
    const before = t.smtp.inbox.length;
    const cookieRes = await t.app.inject({ method: 'GET', url: '/sanctum/csrf-cookie' });
    const cookie = cookieRes.cookies.find((c) => c.name === 'XSRF-TOKEN')!;
    const csrf = { cookie: `XSRF-TOKEN=${cookie.value}`, 'x-xsrf-token': encodeURIComponent(cookie.value) };
    const post = (url: string, body: unknown) =>
      t.app.inject({
        method: 'POST',
        url,
        payload: JSON.stringify(body),
        headers: { 'content-type': 'application/json', ...csrf },
      });
    await post('/forgot-password', { email: user.email });
    const { token } = resetTokenOf(await t.smtp.waitFor((m) => m.to.includes(user.email), { after: before }));
    for (const [password, message] of [
      ['qwerty123456', messages.passwordRules.common],
      [BREACHED, messages.passwordRules.breached],
    ] as const) {
      const res = await post('/api/reset-password', {
        email: user.email,
        token,
        password,
        password_confirmation: password,
      });
      expect(res.statusCode).toBe(422);
      expect(res.json().errors).toEqual({ password: [message] });
    }
    // The link still works for an acceptable password, and the old one was kept until then.
    await signIn(t, user.email, user.password);
    const ok = await post('/api/reset-password', {
      email: user.email,
      token,
      password: 'a harbour full of boats',
      password_confirmation: 'a harbour full of boats',
    });
    expect(ok.statusCode, ok.body).toBe(200);
  });

  it('refuses a common password for an account an admin creates, over HTTP and from the CLI', async () => {
    const admin = await createUser(t.db, { role: 'admin', appMode: 'live' });
    const { token } = await signIn(t, admin.email, admin.password);
    const address = email();
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/admin/users',
      ...json({ name: 'New Officer', email: address, password: 'password1234' }, undefined, token),
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual({ password: [messages.passwordRules.common] });

    const lines: string[] = [];
    const out = {
      log: (l: string) => lines.push(l),
      error: (l: string) => lines.push(l),
      stdout: process.stdout,
    };
    const database = { db: t.db, kind: 'pglite' as const, migrate: async () => {}, close: async () => {} };
    const code = await runAdminCommand(
      'users:create',
      database,
      t.config,
      [],
      { email: address, name: 'New Officer', password: '123456789012' },
      out,
    );
    expect(code).toBe(1);
    expect(lines.join('\n')).toContain(messages.passwordRules.common);
    expect(await t.db.select().from(users).where(eq(users.email, address))).toHaveLength(0);
  });
});

describe('registering an address that already has an account', () => {
  it('answers exactly like a new address and mails the owner instead', async () => {
    const owner = await createUser(t.db);
    const before = t.smtp.inbox.length;
    const taken = await register('a quiet evening by the sea', owner.email);
    const fresh = await register('a quiet evening by the sea');
    expect(taken.statusCode).toBe(201);
    expect(fresh.statusCode).toBe(201);
    const shape = (body: Record<string, unknown> & { user: Record<string, unknown> }) => ({
      ...body,
      user: { ...body.user, id: typeof body.user.id, email: '-', created_at: typeof body.user.created_at },
    });
    expect(shape(taken.json())).toEqual(shape(fresh.json()));
    expect(taken.json().user.email).toBe(owner.email);
    expect(Object.keys(taken.headers).sort()).toEqual(Object.keys(fresh.headers).sort());

    const mail = await t.smtp.waitFor((m) => m.to.includes(owner.email), { after: before });
    expect(mail.subject).toBe('Someone tried to register with your e-mail address');
    expect(mail.text).toContain('/forgot-password');
    // The account is unchanged: same password, same name.
    const [row] = await t.db.select().from(users).where(eq(users.email, owner.email));
    expect(row?.name).toBe(owner.name);
    await signIn(t, owner.email, owner.password);
  });
});
