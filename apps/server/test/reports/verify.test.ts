import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createUser, signIn, type TestApp } from '../support/app.ts';

let t: TestApp;
let owner: Awaited<ReturnType<typeof createUser>>;
const headersOf: Record<'owner' | 'trial' | 'live' | 'admin', Record<string, string>> = {
  owner: {},
  trial: {},
  live: {},
  admin: {},
};
let report: { id: string; sha: string; altered: string; lookupId: string; fileName: string };

beforeAll(async () => {
  t = await createTestApp({
    env: { REPORT_THREADS: '1' },
    // Small enough to reach in a test; the defaults keep their own values (security/rate-limit.ts).
    limits: { verifyPerIp: { points: 5, durationSeconds: 600 } },
  });
  owner = await createUser(t.db, { appMode: 'live', credits: 20, name: 'Owner Investigator' });
  const others = {
    trial: await createUser(t.db, { appMode: 'trial', credits: 5 }),
    live: await createUser(t.db, { appMode: 'live', credits: 5 }),
    admin: await createUser(t.db, { appMode: 'live', role: 'admin' }),
  };
  headersOf.owner = { authorization: `Bearer ${(await signIn(t, owner.email, owner.password)).token}` };
  for (const [who, user] of Object.entries(others)) {
    headersOf[who as 'trial'] = {
      authorization: `Bearer ${(await signIn(t, user.email, user.password)).token}`,
    };
  }
  const lookup = await t.app.inject({
    method: 'GET',
    url: '/api/tel?number=919876543210',
    headers: headersOf.owner,
  });
  expect(lookup.statusCode).toBe(200);
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/generate-report',
    payload: { userInput: '9876543210', type: 'tel', results: lookup.json() },
    headers: headersOf.owner,
  });
  expect(res.statusCode).toBe(200);
  const pdf = res.rawPayload;
  report = {
    id: String(res.headers['x-report-id']),
    sha: createHash('sha256').update(pdf).digest('hex'),
    altered: createHash('sha256')
      .update(Buffer.concat([pdf, Buffer.from(' ')]))
      .digest('hex'),
    lookupId: lookup.json().lookup_id,
    fileName: 'report-9876543210.pdf',
  };
}, 60_000);
afterAll(() => t.close());

const verify = (who: keyof typeof headersOf, sha256: string, id = report.id) =>
  t.app.inject({ method: 'GET', url: `/api/reports/${id}/verify?sha256=${sha256}`, headers: headersOf[who] });

/** Nothing that tells who made the report or for what. */
function expectNothingAbout(body: string) {
  for (const secret of [owner.email, owner.name, report.lookupId, report.fileName, '9876543210', owner.id]) {
    expect(body).not.toContain(secret);
  }
}

describe('GET /api/reports/{id}/verify', () => {
  for (const who of ['trial', 'live'] as const) {
    it(`tells a ${who} user who is not the owner only whether it matches and when it was made`, async () => {
      const ok = await verify(who, report.sha);
      expect(ok.statusCode).toBe(200);
      expect(ok.json()).toEqual({ report_id: report.id, valid: true, generated_at: expect.any(String) });
      expectNothingAbout(ok.body);

      const bad = await verify(who, report.altered);
      expect(bad.statusCode).toBe(200);
      expect(bad.json()).toEqual({ report_id: report.id, valid: false });
      expectNothingAbout(bad.body);
    });
  }

  for (const who of ['owner', 'admin'] as const) {
    it(`shows the ${who} who made it, for what lookup and under which file name`, async () => {
      for (const [sha, valid] of [
        [report.sha, true],
        [report.altered, false],
      ] as const) {
        const res = await verify(who, sha);
        expect(res.json()).toEqual({
          report_id: report.id,
          valid,
          kind: 'lookup',
          file_name: report.fileName,
          generated_at: expect.any(String),
          generated_by: { name: owner.name, email: owner.email },
          lookup_id: report.lookupId,
        });
      }
    });
  }

  it('still refuses anonymous callers', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/reports/${report.id}/verify?sha256=${report.sha}`,
    });
    expect(res.statusCode).toBe(401);
  });
});

describe('POST /api/verify (public)', () => {
  const check = (sha256: unknown, remoteAddress = '192.0.2.10') =>
    t.app.inject({ method: 'POST', url: '/api/verify', payload: { sha256 }, remoteAddress });

  it('answers anyone whether a report with this exact hash exists, and when it was made, nothing else', async () => {
    const ok = await check(report.sha);
    expect(ok.statusCode).toBe(200);
    const body = ok.json();
    expect(body).toEqual({ valid: true, generated_at: expect.any(String) });
    expect(Math.abs(Date.parse(body.generated_at) - Date.now())).toBeLessThan(5 * 60_000);
    expectNothingAbout(ok.body);
    expect(ok.body).not.toContain(report.id);
    // Upper-case hex is the same hash.
    expect((await check(report.sha.toUpperCase(), '192.0.2.11')).json().valid).toBe(true);
    const bad = await check(report.altered, '192.0.2.11');
    expect(bad.statusCode).toBe(200);
    expect(bad.json()).toEqual({ valid: false });
  });

  it('answers only an exact 64-hex hash: no prefix, pattern or other shape', async () => {
    let address = 20;
    for (const sha256 of [
      report.sha.slice(0, 63),
      `${report.sha.slice(0, 10)}%`,
      `${report.sha.slice(0, 63)}_`,
      '.*',
      '',
      42,
      null,
      [report.sha],
    ]) {
      const res = await check(sha256, `192.0.2.${address++}`);
      expect(res.statusCode, JSON.stringify(sha256)).toBe(422);
      expect(res.json().message).toMatch(/^The sha256 field (must be 64 hex digits|is required)\.$/);
    }
    const extra = await t.app.inject({
      method: 'POST',
      url: '/api/verify',
      payload: { sha256: report.sha, report_id: report.id },
      remoteAddress: '192.0.2.13',
    });
    expect(extra.statusCode).toBe(422);
  });

  it('is rate limited per address', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) statuses.push((await check(report.altered, '198.51.100.77')).statusCode);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429]);
    const limited = await check(report.sha, '198.51.100.77');
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(limited.body).not.toContain('generated_at');
    // Another address keeps its own budget.
    expect((await check(report.sha, '198.51.100.78')).json().valid).toBe(true);
  });
});
