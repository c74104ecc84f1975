// The username lookup with the operator's site check on: real HTTP to fake sites on 127.0.0.1, through
// the route, the runner, the polite fetcher and the classifier. Every site lands in its state; a found
// one carries the evidence of the bytes the site sent; the lookup's deadline turns the sites still
// waiting into "not checked" without losing the answers already in; requests carry the operator's
// User-Agent and are counted in the metrics. Off by default: with the sandbox off too, there is no source.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { CLAIMED, EVIDENCE_PAGE, type FakeSites, startFakeSites } from '../providers/sites/fake-sites.ts';
import { createTestApp, createUser, signIn, type TestApp } from '../support/app.ts';
import { writeSiteCatalogue } from '../support/site-catalogue.ts';

const USER_AGENT = 'Footprint-SiteCheck/test (+http://127.0.0.1/contact)';
let fake: FakeSites;
let t: TestApp;
let headers: Record<string, string>;

beforeAll(async () => {
  fake = await startFakeSites();
  const port = new URL(fake.site('x', 'status_code').main).port;
  const sites = [
    fake.site('evidence', 'status_code', { name: 'Evidence Site' }),
    fake.site('status', 'status_code', { name: 'Status Site' }),
    fake.site('message', 'message', { presence: ['profile-card'], absence: ['No such user'] }),
    fake.site('changed', 'message', { presence: ['profile-card'], absence: ['No such user'] }),
    fake.site('cf-header', 'status_code', { name: 'Walled Site' }),
    fake.site('limited', 'status_code', { name: 'Busy Site' }),
    fake.site('slow', 'status_code', { name: 'Slow Site' }),
    fake.site('strict', 'status_code', { regex: '^[0-9]+$' }),
  ];
  t = await createTestApp({
    env: {
      RATE_LIMIT_ENABLED: 'false',
      SANDBOX: 'false',
      SITE_CHECK_ENABLED: 'true',
      SITE_CHECK_USER_AGENT: USER_AGENT,
      SITE_CHECK_CATALOGUE: writeSiteCatalogue(sites),
      SITE_CHECK_ALLOW_ADDRESSES: `127.0.0.1:${port}`,
      SITE_CHECK_INTERVAL_MS: '0',
      SITE_CHECK_TIMEOUT_MS: '5000',
      // The slow site answers after 2 s: past the lookup's deadline, within its own timeout.
      SITE_CHECK_DEADLINE_MS: '1200',
      METRICS_TOKEN: 'metrics-token-for-tests-0123456789',
    },
  });
  const user = await createUser(t.db, { credits: 10, appMode: 'trial' });
  const { token } = await signIn(t, user.email, user.password);
  headers = { authorization: `Bearer ${token}` };
});
afterAll(async () => {
  await t.close();
  await fake.close();
});

describe('the live site check', () => {
  it('lands every site in its state, with evidence of what was found, within the deadline', async () => {
    const started = Date.now();
    const res = await t.app.inject({ method: 'GET', url: `/api/username?username=${CLAIMED}`, headers });
    expect(res.statusCode, res.body).toBe(200);
    expect(Date.now() - started).toBeLessThan(4000);
    const body = res.json();
    expect(body.sandbox).toBe(false);
    expect(body.source_status.sitesData).toMatchObject({ status: 'ok', mode: 'live', vendor: 'Site check' });
    const answer = body.sitesData;
    const state = Object.fromEntries(
      [...answer.sites.map((s: { site: string; state: string }) => [s.site, s.state])].concat(
        answer.not_found.map((id: string) => [id, 'not_found']),
      ),
    );
    expect(state).toEqual({
      evidence: 'found',
      status: 'found',
      message: 'found',
      changed: 'error',
      'cf-header': 'blocked',
      limited: 'blocked',
      slow: 'not_checked',
      strict: 'not_checked',
    });
    expect(answer.counts).toEqual({ found: 3, not_found: 0, blocked: 2, error: 1, not_checked: 2 });
    expect(answer.catalogue).toEqual({ sites: 8, scope: 8 });
    const evidence = answer.sites.find((s: { site: string }) => s.site === 'evidence');
    expect(evidence.evidence).toMatchObject({
      status: 200,
      final_url: evidence.url,
      sha256: createHash('sha256').update(EVIDENCE_PAGE).digest('hex'),
      bytes: EVIDENCE_PAGE.length,
    });
    const reasons = Object.fromEntries(
      answer.sites.map((s: { site: string; reason?: string }) => [s.site, s.reason]),
    );
    expect(reasons.slow).toBe("the lookup's 1 s ran out before this site answered");
    expect(reasons.strict).toBe('the username is not one this site allows');
    expect(reasons.limited).toMatch(/429/);
    // Every request named the deployment, and none went to the site whose pattern refuses the name.
    const asked = fake.arrivals.filter((a) => a.path.endsWith(`/${CLAIMED}`));
    expect(asked.length).toBeGreaterThanOrEqual(7);
    expect(new Set(asked.map((a) => a.headers['user-agent']))).toEqual(new Set([USER_AGENT]));
    expect(fake.hits('strict')).toHaveLength(0);
    expect(body.credits).toBe(9);
  });

  it('counts every request in the metrics', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: 'Bearer metrics-token-for-tests-0123456789' },
    });
    const line = (outcome: string) =>
      Number(
        new RegExp(`footprint_site_check_requests_total\\{outcome="${outcome}"\\} (\\d+)`).exec(
          res.body,
        )?.[1] ?? 0,
      );
    expect(line('2xx')).toBeGreaterThanOrEqual(4);
    expect(line('4xx')).toBeGreaterThanOrEqual(2);
  });

  it('another name: the sites that know only alice say no; the one that answers any name finds it', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/username?username=nobody123', headers });
    expect(res.statusCode, res.body).toBe(200);
    const answer = res.json().sitesData;
    // 'evidence' serves its page for every name: the false positive the catalogue's self-check exists for.
    expect(
      answer.sites.filter((s: { state: string }) => s.state === 'found').map((s: { site: string }) => s.site),
    ).toEqual(['evidence']);
    expect(answer.not_found).toEqual(expect.arrayContaining(['status', 'message']));
    // The busy site is still held from its 429: not asked again, blocked with when it may be.
    const busy = answer.sites.find((s: { site: string }) => s.site === 'limited');
    expect(busy).toMatchObject({ state: 'blocked' });
    expect(busy.reason).toMatch(/not asked again before/);
    expect(fake.hits('limited')).toHaveLength(1);
  });
});

describe('off until the operator turns it on', () => {
  it('without the site check and the sandbox, username lookups are unavailable and charge nothing', async () => {
    const off = await createTestApp({ env: { RATE_LIMIT_ENABLED: 'false', SANDBOX: 'false' } });
    try {
      const user = await createUser(off.db, { credits: 3, appMode: 'trial' });
      const { token } = await signIn(off, user.email, user.password);
      const res = await off.app.inject({
        method: 'GET',
        url: '/api/username?username=alice',
        headers: { authorization: `Bearer ${token}` },
      });
      expect(res.statusCode).toBe(503);
      expect(res.json().message).toMatch(/^Username searches are not available in this deployment/);
      const sources = await off.app.inject({
        method: 'GET',
        url: '/api/sources',
        headers: { authorization: `Bearer ${token}` },
      });
      expect(sources.json().kinds.username).toMatchObject({
        available: false,
        sources: { sitesData: 'not_configured' },
      });
    } finally {
      await off.close();
    }
  });

  it('refuses to start with the site check on and no User-Agent naming the deployment', () => {
    expect(() => loadConfig({ SITE_CHECK_ENABLED: 'true' })).toThrow(/SITE_CHECK_USER_AGENT: required/);
  });
});
