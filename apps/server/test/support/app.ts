import { randomUUID } from 'node:crypto';
import { brotliDecompressSync, gunzipSync, inflateSync, zstdDecompressSync } from 'node:zlib';
import { createResponseValidator, type Violation } from '@footprint/contract-check';
import { TRUSTED_DEVICE_DAYS } from '@footprint/domain';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { loadConfig } from '../../src/config.ts';
import type { Database, DatabaseHandle } from '../../src/db/client.ts';
import { trustedDevices, users } from '../../src/db/schema.ts';
import { applyCreditChange } from '../../src/modules/credits/service.ts';
import { type RuntimeOverrides, startRuntime } from '../../src/runtime.ts';
import { hmac, randomToken, sha256 } from '../../src/security/crypto.ts';
import { hashPassword } from '../../src/security/passwords.ts';
import { createTestDatabase } from './db.ts';
import { otpCodeOf, type SmtpTestServer, startSmtpServer } from './smtp.ts';

export const TEST_APP_KEY = 'test-app-key-0123456789abcdefghijklmnop';

/**
 * What the tests' "browsers" hold: per device id, the trusted-device cookies the server set (or that
 * createUser made for a trusted device). `json()` sends them with that device id, as a browser would.
 */
const cookieJar = new Map<string, Map<string, string>>();

/** Keeps the trusted-device cookies an answer set, for the device that asked. */
export function keepCookies(
  deviceId: string | undefined,
  res: { cookies: Array<{ name: string; value: string; maxAge?: number }> },
) {
  if (!deviceId) return;
  for (const cookie of res.cookies) {
    if (!cookie.name.startsWith('fp_td_')) continue;
    const jar = cookieJar.get(deviceId) ?? new Map<string, string>();
    if (cookie.value && cookie.maxAge !== 0) jar.set(cookie.name, cookie.value);
    else jar.delete(cookie.name);
    cookieJar.set(deviceId, jar);
  }
}

/** The Cookie header a device sends, if it holds any trusted-device cookie. */
export function cookiesOf(deviceId: string | undefined): Record<string, string> {
  const jar = deviceId ? cookieJar.get(deviceId) : undefined;
  if (!jar || jar.size === 0) return {};
  return { cookie: [...jar].map(([name, value]) => `${name}=${value}`).join('; ') };
}

/** The trusted-device cookie name of an account under the test app key. */
export const deviceCookieNameOf = (userId: string) =>
  `fp_td_${hmac(TEST_APP_KEY, `trusted-device:${userId}`).slice(0, 20)}`;

export interface TestAppOptions extends Omit<RuntimeOverrides, 'database'> {
  env?: Record<string, string>;
  /** An open database to start on (a restart); left open on close. A fresh one otherwise. */
  database?: DatabaseHandle;
}

/**
 * The real application on a fresh database, with mail going to a real SMTP server on 127.0.0.1.
 * Requests go through Fastify's inject: the whole HTTP stack without a socket.
 */
export async function createTestApp(options: TestAppOptions = {}) {
  const smtp = await startSmtpServer();
  const database = options.database ?? (await createTestDatabase());
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    SMTP_URL: smtp.url,
    APP_URL: 'http://footprint.test',
    APP_KEY: TEST_APP_KEY,
    // Tests that need leak records make their own; the embedded default's 100,000 would slow every file.
    SANDBOX_LEAK_RECORDS: '0',
    // No scheduled self-check of the site catalogue (it would ask a test's fake sites on start); the
    // site-health tests run it themselves.
    SITE_CHECK_SELF_CHECK_HOURS: '0',
    // The test hands its own database in: production's refusal to start without DATABASE_URL is
    // about a server that would silently run embedded (test/config/production.test.ts).
    ALLOW_EMBEDDED_DATABASE: 'true',
    ...options.env,
  });
  const runtime = await startRuntime(config, { ...options, database });
  await runtime.app.ready();
  const contract = holdToContract(runtime.app);
  return {
    app: runtime.app,
    db: runtime.database.db,
    config,
    smtp,
    /** The readiness checks (GET /api/health/ready), and the drain switch main.ts turns on SIGTERM. */
    readiness: runtime.readiness,
    /** The answers so far that broke the OpenAPI document (close() fails when there are any). */
    contractViolations: contract.violations,
    async close() {
      await runtime.close();
      if (!options.database) await database.close();
      await smtp.close();
      contract.assertNone();
    },
  };
}

/** A body as text, undoing the Content-Encoding a test asked for with Accept-Encoding. */
function decoded(raw: Buffer, encoding: unknown): string {
  if (encoding === 'br') return brotliDecompressSync(raw).toString('utf8');
  if (encoding === 'gzip') return gunzipSync(raw).toString('utf8');
  if (encoding === 'zstd') return zstdDecompressSync(raw).toString('utf8');
  if (encoding === 'deflate') return inflateSync(raw).toString('utf8');
  return raw.toString('utf8');
}

/** One validator per document text: every test file's apps share it while their document is the same. */
const validators = new Map<string, ReturnType<typeof createResponseValidator>>();

/**
 * Holds every answer a test receives through `app.inject` to the app's own OpenAPI document
 * (GET /api/openapi.json): a status the operation does not document, a media type its status does not
 * document, or a JSON body its schema refuses is a violation, and the test file fails when it closes
 * its app. A call to a path the document does not have is left alone unless it is under /api/ and
 * answered (anything but 404): an API route the document forgot is a violation too.
 */
function holdToContract(app: FastifyInstance) {
  const violations: Violation[] = [];
  const inject = app.inject.bind(app) as (
    opts: InjectOptions,
  ) => Promise<Awaited<ReturnType<FastifyInstance['inject']>>>;
  let validator: ReturnType<typeof createResponseValidator> | undefined;
  const validatorOf = async () => {
    if (validator) return validator;
    const text = (await inject({ method: 'GET', url: '/api/openapi.json' })).payload;
    validator = validators.get(text) ?? createResponseValidator(JSON.parse(text));
    validators.set(text, validator);
    return validator;
  };
  const checked = async (opts: InjectOptions | string) => {
    const options = typeof opts === 'string' ? { url: opts } : opts;
    const res = await inject(options);
    const method = (options.method ?? 'GET').toUpperCase();
    const url = String(options.url ?? options.path ?? '/');
    if (['HEAD', 'OPTIONS'].includes(method)) return res;
    const check = await validatorOf();
    const pathname = new URL(url, 'http://x').pathname;
    if (!check.match(method, url)) {
      if (pathname.startsWith('/api/') && res.statusCode !== 404 && pathname !== '/api/docs') {
        violations.push({
          operation: `${method} ${pathname}`,
          status: res.statusCode,
          problem: 'not in the document',
        });
      }
      return res;
    }
    const contentType = res.headers['content-type'] as string | undefined;
    const text = decoded(res.rawPayload, res.headers['content-encoding']);
    let body: unknown = text;
    if (/json/.test(contentType ?? '') && text !== '') {
      try {
        body = JSON.parse(text);
      } catch {
        violations.push({
          operation: `${method} ${pathname}`,
          status: res.statusCode,
          problem: 'a JSON media type with a body that is not JSON',
        });
        return res;
      }
    }
    violations.push(...check.validate({ method, url, status: res.statusCode, contentType, body }));
    return res;
  };
  (app as { inject: unknown }).inject = checked;
  return {
    violations,
    assertNone() {
      if (violations.length === 0) return;
      const lines = [...new Set(violations.map((v) => `${v.operation} → ${v.status}: ${v.problem}`))];
      throw new Error(`${violations.length} answers broke the OpenAPI document:\n${lines.join('\n')}`);
    },
  };
}

export type TestApp = Awaited<ReturnType<typeof createTestApp>>;

let counter = 0;

/** Makes a user directly in the database; anything not given is made up. */
export async function createUser(
  db: Database,
  overrides: Partial<{
    email: string;
    name: string;
    password: string;
    appMode: 'live' | 'trial';
    role: 'user' | 'admin';
    status: 'active' | 'disabled' | 'pending' | 'rejected';
    credits: number;
    trustedDevice: string;
  }> = {},
) {
  counter += 1;
  const email = (overrides.email ?? `user${counter}-${randomUUID().slice(0, 8)}@example.test`).toLowerCase();
  const password = overrides.password ?? 'correct horse battery';
  const [user] = await db
    .insert(users)
    .values({
      email,
      name: overrides.name ?? `Test User ${counter}`,
      passwordHash: await hashPassword(password),
      appMode: overrides.appMode ?? 'trial',
      role: overrides.role ?? 'user',
      status: overrides.status ?? 'active',
    })
    .returning();
  if (!user) throw new Error('insert failed');
  if (overrides.credits) {
    await db.transaction((tx) =>
      applyCreditChange(tx, { userId: user.id, delta: overrides.credits!, kind: 'grant', reason: 'test' }),
    );
  }
  if (overrides.trustedDevice) {
    // A device that proved a code before: the row and, in the device's jar, the secret's cookie.
    const secret = randomToken();
    await db.insert(trustedDevices).values({
      userId: user.id,
      deviceId: overrides.trustedDevice,
      secretHash: sha256(secret),
      expiresAt: new Date(Date.now() + TRUSTED_DEVICE_DAYS * 86_400_000),
    });
    const jar = cookieJar.get(overrides.trustedDevice) ?? new Map<string, string>();
    jar.set(deviceCookieNameOf(user.id), secret);
    cookieJar.set(overrides.trustedDevice, jar);
  }
  return { ...user, password };
}

export const newDeviceId = () => randomUUID();

export const json = (body: unknown, deviceId?: string, token?: string) => ({
  payload: JSON.stringify(body),
  headers: {
    'content-type': 'application/json',
    ...(deviceId ? { 'x-device-id': deviceId } : {}),
    ...(token ? { authorization: `Bearer ${token}` } : {}),
    ...cookiesOf(deviceId),
  },
});

/** The whole sign-in of a new device: password, OTP from the mail, token. */
export async function signIn(t: TestApp, email: string, password: string, deviceId = newDeviceId()) {
  const before = t.smtp.inbox.length;
  const login = await t.app.inject({
    method: 'POST',
    url: '/api/login',
    ...json({ email, password }, deviceId),
  });
  if (login.statusCode === 200) return { token: login.json().token as string, deviceId };
  if (login.statusCode !== 403) throw new Error(`login answered ${login.statusCode}: ${login.body}`);
  const mail = await t.smtp.waitFor((m) => m.to.includes(email.toLowerCase()), { after: before });
  const verify = await t.app.inject({
    method: 'POST',
    url: '/api/verify-email-otp',
    ...json({ email, otp: otpCodeOf(mail) }, deviceId),
  });
  if (verify.statusCode !== 200) throw new Error(`verify answered ${verify.statusCode}: ${verify.body}`);
  keepCookies(deviceId, verify);
  return { token: verify.json().token as string, deviceId };
}

export type { SmtpTestServer };
