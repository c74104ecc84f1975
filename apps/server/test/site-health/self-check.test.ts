// The catalogue that checks itself: a run asks every site for its known username and for a made-up one.
// Against fake sites on 127.0.0.1: a false positive (answers any name) and a dead site (500) are
// quarantined with the date they started failing, a healthy site is ok, a WAF is blocked and left as it
// was, a site whose pattern refuses every made-up name is skipped. A lookup then reports the quarantined
// sites not_checked, "site check failing since {date}", without asking them; the dead site, fixed, comes
// back on the next run. The admin screen's API shows the states and the precision; others get 403.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents, siteHealth, siteSelfChecks } from '../../src/db/schema.ts';
import { CLAIMED, type FakeSites, startFakeSites } from '../providers/sites/fake-sites.ts';
import { createTestApp, createUser, signIn, type TestApp } from '../support/app.ts';
import { writeSiteCatalogue } from '../support/site-catalogue.ts';

/** A site of our own that answers 500 until it is fixed, then as a status_code site should. */
async function startFlakySite() {
  const state = { broken: true, hits: [] as string[] };
  const server: Server = createServer((req, res) => {
    const name = (req.url ?? '/').split('/')[2] ?? '';
    state.hits.push(name);
    const status = state.broken ? 500 : name === CLAIMED ? 200 : 404;
    res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' });
    res.end(`<html><head><title>${status}</title></head><body>${'x'.repeat(600)}</body></html>`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    state,
    port,
    url: `http://127.0.0.1:${port}/flaky/{username}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

let fake: FakeSites;
let flaky: Awaited<ReturnType<typeof startFlakySite>>;
let t: TestApp;
let admin: Record<string, string>;
let investigator: Record<string, string>;
const today = () => new Date().toISOString().slice(0, 10);

beforeAll(async () => {
  fake = await startFakeSites();
  flaky = await startFlakySite();
  const sites = [
    fake.site('status', 'status_code', { name: 'Healthy Site', india: true }),
    fake.site('evidence', 'status_code', { name: 'Anyone Site', category: 'forum' }),
    fake.site('cf-header', 'status_code', { name: 'Walled Site' }),
    fake.site('strict', 'status_code', { name: 'Strict Site', regex: '^[A-Z]{3}$' }),
    fake.site('flaky', 'status_code', {
      name: 'Flaky Site',
      url: flaky.url,
      main: `http://127.0.0.1:${flaky.port}/`,
    }),
  ];
  t = await createTestApp({
    env: {
      RATE_LIMIT_ENABLED: 'false',
      SANDBOX: 'false',
      SITE_CHECK_ENABLED: 'true',
      SITE_CHECK_USER_AGENT: 'Footprint-SiteCheck/test (+http://127.0.0.1/contact)',
      SITE_CHECK_CATALOGUE: writeSiteCatalogue(sites),
      SITE_CHECK_ALLOW_ADDRESSES: `127.0.0.1:${fake.port},127.0.0.1:${flaky.port}`,
      SITE_CHECK_INTERVAL_MS: '0',
      SITE_CHECK_TIMEOUT_MS: '5000',
    },
  });
  const adminUser = await createUser(t.db, { role: 'admin', appMode: 'live', credits: 10 });
  admin = { authorization: `Bearer ${(await signIn(t, adminUser.email, adminUser.password)).token}` };
  const user = await createUser(t.db, { appMode: 'live', credits: 10 });
  investigator = { authorization: `Bearer ${(await signIn(t, user.email, user.password)).token}` };
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
  await flaky?.close();
});

const standing = async () =>
  Object.fromEntries((await t.db.select().from(siteHealth)).map((row) => [row.siteId, row]));

const screen = async () => {
  const res = await t.app.inject({ method: 'GET', url: '/api/admin/site-health', headers: admin });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};

const siteOf = (body: { sites: Array<{ id: string }> }, id: string) =>
  body.sites.find((site) => site.id === id) as Record<string, unknown>;

describe("the catalogue's self-check", () => {
  it('before any run: every site unchecked, nothing quarantined', async () => {
    const body = await screen();
    expect(body).toMatchObject({
      enabled: true,
      schedule_hours: 0,
      running: false,
      last_run: null,
      totals: { sites: 5, ok: 0, quarantined: 0, blocked: 0, unchecked: 5 },
    });
  });

  it('quarantines the false positive and the dead site, keeps the healthy one, leaves the WAF as it was', async () => {
    const summary = await t.app.siteHealth.run('admin');
    expect(summary).toMatchObject({ sites: 5, passed: 1, failed: 2, blocked: 1, skipped: 1 });
    const rows = await standing();
    expect(rows.status).toMatchObject({ failingSince: null, lastOutcome: 'passed' });
    expect(rows.evidence?.failingSince).toBeInstanceOf(Date);
    expect(rows.evidence?.lastReason).toMatch(/made-up name fp[a-z0-9]{16}: found.*expected not_found/);
    expect(rows.flaky?.failingSince).toBeInstanceOf(Date);
    expect(rows.flaky?.lastReason).toMatch(/known name alice: error/);
    expect(rows['cf-header']).toMatchObject({ failingSince: null, lastOutcome: 'blocked' });
    expect(rows.strict).toMatchObject({ failingSince: null, lastOutcome: 'skipped' });
    expect(rows.strict?.lastReason).toMatch(/pattern refuses/);
    // The made-up name asked of the healthy site is one no one holds, and it was asked once.
    const asked = fake.hits('status').map((a) => a.path.split('/')[2]);
    expect(asked).toHaveLength(2);
    expect(asked[0]).toBe(CLAIMED);
    expect(asked[1]).toMatch(/^fp[a-z0-9]{16}$/);
    // The WAF answered the known name: the made-up one was not asked.
    expect(fake.hits('cf-header')).toHaveLength(1);
    expect(fake.hits('strict')).toHaveLength(0);
  });

  it('a lookup reports the quarantined sites not checked, since when, and does not ask them', async () => {
    const before = { evidence: fake.hits('evidence').length, flaky: flaky.state.hits.length };
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/username?username=${CLAIMED}`,
      headers: investigator,
    });
    expect(res.statusCode, res.body).toBe(200);
    const answer = res.json().sitesData;
    const line = (id: string) => answer.sites.find((s: { site: string }) => s.site === id);
    for (const id of ['evidence', 'flaky']) {
      expect(line(id)).toMatchObject({
        state: 'not_checked',
        reason: `not checked — site check failing since ${today()}`,
      });
    }
    expect(line('status')).toMatchObject({ state: 'found' });
    expect(fake.hits('evidence')).toHaveLength(before.evidence);
    expect(flaky.state.hits).toHaveLength(before.flaky);
  });

  it('the dead site, fixed, comes back on the next run; the false positive stays out since its first day', async () => {
    const firstFailure = (await standing()).evidence?.failingSince;
    flaky.state.broken = false;
    const summary = await t.app.siteHealth.run('admin');
    expect(summary).toMatchObject({ passed: 2, failed: 1, blocked: 1, skipped: 1 });
    const rows = await standing();
    expect(rows.flaky).toMatchObject({ failingSince: null, lastOutcome: 'passed', lastReason: null });
    expect(rows.evidence?.failingSince).toEqual(firstFailure);
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/username?username=nobody42',
      headers: investigator,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().sitesData.not_found).toEqual(expect.arrayContaining(['flaky', 'status']));
  });

  it('the admin screen: states, failing since, precision over 30 days, totals', async () => {
    const body = await screen();
    expect(body.totals).toEqual({ sites: 5, ok: 2, quarantined: 1, blocked: 1, unchecked: 1 });
    expect(body.last_run).toMatchObject({ trigger: 'admin', sites: 5, passed: 2, failed: 1 });
    expect(body.last_run.finished_at).not.toBeNull();
    expect(siteOf(body, 'status')).toMatchObject({
      name: 'Healthy Site',
      india: true,
      state: 'ok',
      runs_30d: 2,
      passed_30d: 2,
      precision_30d: 1,
    });
    expect(siteOf(body, 'evidence')).toMatchObject({
      state: 'quarantined',
      category: 'forum',
      precision_30d: 0,
    });
    expect(String(siteOf(body, 'evidence').failing_since)).toMatch(new RegExp(`^${today()}`));
    expect(siteOf(body, 'flaky')).toMatchObject({
      state: 'ok',
      runs_30d: 2,
      passed_30d: 1,
      precision_30d: 0.5,
    });
    expect(siteOf(body, 'cf-header')).toMatchObject({ state: 'blocked', runs_30d: 0, precision_30d: null });
    expect(siteOf(body, 'strict')).toMatchObject({ state: 'unchecked', last_outcome: 'skipped' });
  });

  it('an admin queues a run on the job queue (audited); it runs and updates the screen', async () => {
    const previous = (await screen()).last_run.id;
    const res = await t.app.inject({ method: 'POST', url: '/api/admin/site-health/run', headers: admin });
    expect(res.statusCode, res.body).toBe(202);
    expect(res.json()).toEqual({ queued: true });
    let body = await screen();
    for (let i = 0; i < 100 && (body.last_run.id === previous || body.last_run.finished_at === null); i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      body = await screen();
    }
    expect(body.last_run).toMatchObject({ trigger: 'admin', sites: 5, passed: 2, failed: 1 });
    expect(body.last_run.id).not.toBe(previous);
    const audit = await t.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, 'admin.site_health.run'), eq(auditEvents.outcome, 'success')));
    expect(audit).toHaveLength(1);
    expect(audit[0]?.details).toMatchObject({ queued: true });
    expect((await t.db.select().from(siteSelfChecks)).length).toBe(15);
  });

  it('is for admins only', async () => {
    for (const [method, url] of [
      ['GET', '/api/admin/site-health'],
      ['POST', '/api/admin/site-health/run'],
    ] as const) {
      expect((await t.app.inject({ method, url, headers: investigator })).statusCode).toBe(403);
      expect((await t.app.inject({ method, url })).statusCode).toBe(401);
    }
  });
});

describe('with the site check off', () => {
  it('the screen says so and a run is refused', async () => {
    const off = await createTestApp({ env: { RATE_LIMIT_ENABLED: 'false' } });
    try {
      const user = await createUser(off.db, { role: 'admin', appMode: 'live' });
      const headers = { authorization: `Bearer ${(await signIn(off, user.email, user.password)).token}` };
      const res = await off.app.inject({ method: 'GET', url: '/api/admin/site-health', headers });
      expect(res.json()).toMatchObject({
        enabled: false,
        schedule_hours: 0,
        totals: { sites: 0 },
        sites: [],
      });
      const run = await off.app.inject({ method: 'POST', url: '/api/admin/site-health/run', headers });
      expect(run.statusCode).toBe(409);
      expect(run.json().message).toMatch(/site check is off/);
    } finally {
      await off.close();
    }
  });
});
