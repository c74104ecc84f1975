import { Writable } from 'node:stream';
import { sql } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { creditEntries, lookups, reports, users } from '../../src/db/schema.ts';
import { createTestApp, createUser, signIn, type TestApp } from '../support/app.ts';

/** Everything the server logs, as text: the app logs at info into this. */
const logLines: string[] = [];
const logStream = new Writable({
  write(chunk, _encoding, done) {
    logLines.push(String(chunk));
    done();
  },
});

let t: TestApp;
let headers: Record<string, string>;

beforeAll(async () => {
  t = await createTestApp({ env: { RATE_LIMIT_ENABLED: 'false', LOG_LEVEL: 'info' }, logStream });
  const user = await createUser(t.db, { appMode: 'live', credits: 50 });
  headers = { authorization: `Bearer ${(await signIn(t, user.email, user.password)).token}` };
});
afterAll(() => t.close());

async function counts() {
  const count = async (table: typeof users | typeof lookups | typeof reports | typeof creditEntries) =>
    Number((await t.db.select({ n: sql<number>`count(*)` }).from(table))[0]?.n);
  return {
    users: await count(users),
    lookups: await count(lookups),
    reports: await count(reports),
    credits: await count(creditEntries),
  };
}

const NUL = '\u0000';
const password = 'Nul-test password 1';

const cases: Array<{ name: string; request: () => InjectOptions }> = [
  {
    name: 'GET /api/email',
    request: () => ({ method: 'GET', url: '/api/email?email=a%00b@example.test', headers }),
  },
  { name: 'GET /api/tel', request: () => ({ method: 'GET', url: '/api/tel?number=98765%0043210', headers }) },
  {
    name: 'POST /api/register (name)',
    request: () => ({
      method: 'POST',
      url: '/api/register',
      payload: {
        name: `Nul${NUL}Name`,
        email: 'nul-register@example.test',
        password,
        password_confirmation: password,
      },
    }),
  },
  {
    name: 'POST /api/generate-rc-report',
    request: () => ({
      method: 'POST',
      url: '/api/generate-rc-report',
      payload: { data: { rc_number: `MH12${NUL}AB1234` } },
      headers,
    }),
  },
  {
    name: 'POST /api/generate-upi-report',
    request: () => ({
      method: 'POST',
      url: '/api/generate-upi-report',
      payload: { data: { upi_id: `name${NUL}@upi` } },
      headers,
    }),
  },
  {
    name: 'a control character in a key of a nested object',
    request: () => ({
      method: 'POST',
      url: '/api/generate-upi-report',
      payload: { data: { [`upi${NUL}id`]: 'name@upi' } },
      headers,
    }),
  },
  {
    name: 'an escape character in the case reference',
    request: () => ({ method: 'GET', url: '/api/email?email=a@example.test&case_reference=A%1bB', headers }),
  },
  {
    name: 'a path parameter',
    request: () => ({ method: 'GET', url: '/api/reports/ab%00cd/verify?sha256=' + 'a'.repeat(64), headers }),
  },
  {
    name: 'a header the server reads (X-Device-Id)',
    request: () => ({
      method: 'POST',
      url: '/api/login',
      payload: { email: 'someone@example.test', password },
      headers: { 'x-device-id': `device-${NUL}-0001` },
    }),
  },
];

describe('control characters in input', () => {
  for (const { name, request } of cases) {
    it(`${name}: a 400 with a clear message, nothing changed`, async () => {
      const before = await counts();
      const res = await t.app.inject(request());
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().message).toMatch(/control character/i);
      expect(await counts()).toEqual(before);
    });
  }

  it('keeps tabs and line breaks where text allows them', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/email?email=tab-ok@example.test&case_reference=Case%0942',
      headers,
    });
    expect(res.statusCode, res.body).not.toBe(400);
  });
});

describe('logs', () => {
  it('a refused registration logs neither the password nor a password hash', async () => {
    logLines.length = 0;
    const res = await t.app.inject(cases[2]!.request());
    expect(res.statusCode).toBeLessThan(500);
    const log = logLines.join('');
    expect(log).not.toContain(password);
    expect(log).not.toMatch(/\$argon2/);
  });

  it('a database error carrying a row logs neither its password hash nor its parameters', async () => {
    const user = await createUser(t.db, { password });
    // The error a failed write of a user row raises: the query, its parameters and the failing row.
    const error = await t.db
      .insert(users)
      .values({ email: user.email, name: 'Duplicate', passwordHash: user.passwordHash })
      .then(
        () => undefined,
        (err: unknown) => err,
      );
    expect(error).toBeInstanceOf(Error);
    expect(String((error as Error).message)).toContain('$argon2');
    logLines.length = 0;
    t.app.log.error({ err: error, body: { password, password_confirmation: password } }, 'unhandled error');
    const log = logLines.join('');
    expect(log).toContain('unhandled error');
    expect(log).not.toContain(password);
    expect(log).not.toContain(user.passwordHash);
    expect(log).not.toMatch(/\$argon2/);
  });
});
