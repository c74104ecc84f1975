// The authorization matrix: every route of the server's own route table, against anonymous, trial,
// live and admin callers, and against another user's resources. A route added without an entry here
// fails the first test.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isApplicationRoute, routeTableOf } from '../../src/http/route-table.ts';
import { createTestApp, createUser, newDeviceId, signIn, type TestApp } from '../support/app.ts';

/**
 * public: anyone. user: any signed-in account. live: live accounts (and admins, who are live).
 * admin: admins only. dev: the development outbox, absent in production and whenever SMTP_URL is set
 * (as here); it answers only loopback callers (test/security/safe-defaults.test.ts).
 */
type Access = 'public' | 'user' | 'live' | 'admin' | 'dev';

const matrix: Record<string, Access> = {
  'GET /api/health': 'public',
  // The API description: it describes the endpoints and holds no data.
  'GET /api/openapi.json': 'public',
  'GET /api/docs': 'public',
  'GET /api/docs/docs.css': 'public',
  'GET /api/docs/docs.js': 'public',
  'GET /sanctum/csrf-cookie': 'public',
  'GET /api/registration-status': 'public',
  'POST /api/login': 'public',
  'POST /api/register': 'public',
  'POST /api/verify-email-otp': 'public',
  'POST /api/resend-otp': 'public',
  'POST /api/logout': 'public',
  'POST /forgot-password': 'public',
  'POST /api/reset-password': 'public',
  // The sign-in token of the login answer is the credential: without one, a 422.
  'POST /api/login/second-factor': 'public',
  'POST /api/login/second-factor/passkey-options': 'public',
  'GET /dev/outbox': 'dev',
  'GET /dev/outbox.json': 'dev',
  'GET /dev/outbox.css': 'dev',
  'GET /api/user': 'user',
  'GET /api/security': 'user',
  // API keys are made by a live account's session (test/api-keys: a key itself is refused).
  'GET /api/api-keys': 'live',
  'POST /api/api-keys': 'live',
  'DELETE /api/api-keys/:id': 'live',
  'POST /api/security/totp/setup': 'user',
  'POST /api/security/totp/confirm': 'user',
  'POST /api/security/totp/remove': 'user',
  'POST /api/security/recovery-codes': 'user',
  'POST /api/security/passkeys/options': 'user',
  'POST /api/security/passkeys': 'user',
  'PATCH /api/security/passkeys/:id': 'user',
  'POST /api/security/passkeys/:id/remove': 'user',
  'POST /api/security/sign-out-everywhere': 'user',
  'GET /api/sources': 'user',
  'GET /api/tel': 'user',
  'GET /api/email': 'user',
  'POST /api/rcfull-details': 'user',
  'POST /api/upifull-details': 'user',
  'POST /api/rc-challan-details': 'user',
  'POST /api/leak-data-finder/': 'user',
  'POST /api/leak-data-finder': 'user',
  'POST /api/generate-report': 'user',
  'POST /api/generate-ai-report': 'user',
  'POST /api/generate-rc-report': 'user',
  'POST /api/generate-upi-report': 'user',
  'POST /api/generate-challan-report': 'user',
  'GET /api/reports/:id/verify': 'user',
  // Whether a report file with this SHA-256 exists, and when it was made: nothing else (rate limited).
  'POST /api/verify': 'public',
  'GET /api/history': 'user',
  'GET /api/cases': 'user',
  'POST /api/cases': 'user',
  'GET /api/cases/:id': 'user',
  'PATCH /api/cases/:id': 'user',
  'GET /api/cases/:id/bundle': 'user',
  'GET /api/cases/:id/items': 'user',
  'POST /api/cases/:id/items': 'user',
  'POST /api/cases/:id/members': 'user',
  'DELETE /api/cases/:id/members/:userId': 'user',
  'POST /api/cases/:id/notes': 'user',
  'GET /api/history/:id': 'user',
  'GET /api/history/:id/export': 'user',
  'GET /api/history.csv': 'user',
  'GET /api/credits/statement': 'user',
  'GET /api/case-reference-policy': 'user',
  'GET /api/media': 'user',
  'GET /api/map': 'user',
  'GET /api/map/tiles/:z/:x/:y': 'user',
  'POST /api/corporate-intelligence': 'live',
  'POST /api/verification-id': 'live',
  'GET /api/watches': 'live',
  'POST /api/watches': 'live',
  'PATCH /api/watches/:id': 'live',
  'DELETE /api/watches/:id': 'live',
  'GET /api/watches/:id/events': 'live',
  'POST /api/watches/:id/run': 'live',
  // Bulk lookups: live accounts only (trial accounts run single lookups).
  'POST /api/bulk/preview': 'live',
  'POST /api/bulk': 'live',
  'GET /api/bulk': 'live',
  'GET /api/bulk/:id': 'live',
  'GET /api/bulk/:id/events': 'live',
  'POST /api/bulk/:id/pause': 'live',
  'POST /api/bulk/:id/resume': 'live',
  'POST /api/bulk/:id/cancel': 'live',
  'GET /api/bulk/:id/rows': 'live',
  'GET /api/bulk/:id/results': 'live',
  'GET /api/admin/settings': 'admin',
  'PATCH /api/admin/settings': 'admin',
  'GET /api/admin/providers': 'admin',
  'GET /api/admin/users': 'admin',
  'POST /api/admin/users': 'admin',
  'GET /api/admin/users/:id': 'admin',
  'PATCH /api/admin/users/:id': 'admin',
  'POST /api/admin/users/:id/credits': 'admin',
  'POST /api/admin/users/:id/approve': 'admin',
  'POST /api/admin/users/:id/reject': 'admin',
  'GET /api/admin/audit': 'admin',
  'GET /api/admin/audit.csv': 'admin',
  'GET /api/admin/audit/chain': 'admin',
  'GET /api/admin/leak-sources': 'admin',
};

let t: TestApp;
const headers: Record<'anonymous' | 'trial' | 'live' | 'admin', Record<string, string>> = {
  anonymous: {},
  trial: {},
  live: {},
  admin: {},
};

beforeAll(async () => {
  t = await createTestApp({ env: { RATE_LIMIT_ENABLED: 'false' } });
  for (const [who, options] of [
    ['trial', { appMode: 'trial', credits: 20 }],
    ['live', { appMode: 'live', credits: 20 }],
    ['admin', { appMode: 'live', role: 'admin', credits: 20 }],
  ] as const) {
    const deviceId = newDeviceId();
    const user = await createUser(t.db, { ...options, trustedDevice: deviceId });
    const { token } = await signIn(t, user.email, user.password, deviceId);
    headers[who] = { authorization: `Bearer ${token}`, 'x-device-id': deviceId };
  }
});
afterAll(() => t.close());

const routes = () =>
  routeTableOf(t.app)
    .filter((r) => isApplicationRoute(r.url))
    .map((r) => `${r.method} ${r.url}`);

const call = (key: string, who: keyof typeof headers) => {
  const [method, path] = key.split(' ') as [string, string];
  const url = path.replace(/:[a-zA-Z_]+/g, '00000000-0000-4000-8000-000000000000');
  return t.app.inject({
    method: method as 'GET',
    url,
    headers: { ...headers[who], ...(method === 'GET' ? {} : { 'content-type': 'application/json' }) },
    ...(method === 'GET' ? {} : { payload: '{}' }),
  });
};

describe('authorization matrix', () => {
  it('has an entry for every route the server registers', () => {
    const missing = routes().filter((key) => !(key in matrix));
    expect(missing, 'routes without an authorization entry').toEqual([]);
    const stale = Object.keys(matrix).filter((key) => matrix[key] !== 'dev' && !routes().includes(key));
    expect(stale, 'entries for routes the server no longer has').toEqual([]);
  });

  it('refuses anonymous callers everywhere but the public routes, with a JSON 401', async () => {
    for (const key of routes()) {
      const access = matrix[key];
      if (access === 'public' || access === 'dev') continue;
      const res = await call(key, 'anonymous');
      expect(res.statusCode, key).toBe(401);
      expect(res.json().message, key).toEqual(expect.any(String));
    }
  });

  it('lets each role through exactly the routes it may use', async () => {
    const allowed: Record<Access, Array<keyof typeof headers>> = {
      public: ['anonymous', 'trial', 'live', 'admin'],
      dev: ['anonymous', 'trial', 'live', 'admin'],
      user: ['trial', 'live', 'admin'],
      live: ['live', 'admin'],
      admin: ['admin'],
    };
    for (const key of routes()) {
      // These would revoke the caller's token; see tokens.test.ts and security.test.ts.
      if (key === 'POST /api/logout' || key === 'POST /api/security/sign-out-everywhere') continue;
      const access = matrix[key] as Access;
      for (const who of ['trial', 'live', 'admin'] as const) {
        const res = await call(key, who);
        if (allowed[access].includes(who)) {
          expect(
            [401, 403],
            `${key} as ${who} answered ${res.statusCode}: ${res.body.slice(0, 200)}`,
          ).not.toContain(res.statusCode);
        } else {
          expect(res.statusCode, `${key} as ${who}`).toBe(403);
          expect(res.json().message, key).toEqual(expect.any(String));
        }
        expect(res.statusCode, `${key} as ${who}`).toBeLessThan(500);
      }
    }
  });
});

describe("another user's resources", () => {
  it("never shows one user's lookups, history or reports to another", async () => {
    // The live user makes a lookup; the trial user asks for it by id every way there is.
    const lookup = await t.app.inject({
      method: 'GET',
      url: '/api/tel?number=919876543210',
      headers: headers.live,
    });
    expect(lookup.statusCode).toBe(200);
    const history = await t.app.inject({ method: 'GET', url: '/api/history', headers: headers.live });
    const id = history.json().data[0].id as string;
    expect(id).toMatch(/^[0-9a-f-]{36}$/);

    const theirs = await t.app.inject({ method: 'GET', url: `/api/history/${id}`, headers: headers.trial });
    expect(theirs.statusCode).toBe(404);
    const adminView = await t.app.inject({
      method: 'GET',
      url: `/api/history/${id}`,
      headers: headers.admin,
    });
    expect(adminView.statusCode, 'history is personal, admins read the audit trail instead').toBe(404);
    const mine = await t.app.inject({ method: 'GET', url: `/api/history/${id}`, headers: headers.live });
    expect(mine.statusCode).toBe(200);
    for (const format of ['csv', 'json']) {
      const url = `/api/history/${id}/export?format=${format}`;
      expect((await t.app.inject({ method: 'GET', url, headers: headers.trial })).statusCode).toBe(404);
      expect((await t.app.inject({ method: 'GET', url, headers: headers.admin })).statusCode).toBe(404);
      expect((await t.app.inject({ method: 'GET', url, headers: headers.live })).statusCode).toBe(200);
    }
    const otherCsv = await t.app.inject({ method: 'GET', url: '/api/history.csv', headers: headers.trial });
    expect(otherCsv.body).not.toContain(id);
    const otherHistory = await t.app.inject({ method: 'GET', url: '/api/history', headers: headers.trial });
    expect(otherHistory.json().data.map((row: { id: string }) => row.id)).not.toContain(id);

    // A report built on someone else's lookup id must not carry their data.
    const report = await t.app.inject({
      method: 'POST',
      url: '/api/generate-report',
      headers: { ...headers.trial, 'content-type': 'application/json' },
      payload: JSON.stringify({ type: 'phone', userInput: '919876543210', results: { lookup_id: id } }),
    });
    expect([400, 403, 404, 422]).toContain(report.statusCode);
  });
});
