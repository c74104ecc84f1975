// The username site checker against fake sites on 127.0.0.1: every check type found and not found,
// redirects, the address guard, challenges, login walls, 429 holds, timeouts, size caps, evidence,
// and the sites it must not ask at all.
import { createHash } from 'node:crypto';
import type { CatalogueSite, SiteCheck } from '@footprint/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSiteFetcher } from '../../../src/providers/sites/fetcher.ts';
import { checkUsername } from '../../../src/providers/sites/run.ts';
import type { SiteFetcherOptions, SiteRequestEvent } from '../../../src/providers/sites/types.ts';
import { CLAIMED, EVIDENCE_PAGE, type FakeSites, HUGE_CHUNK, startFakeSites } from './fake-sites.ts';

const USER_AGENT = 'FootprintSiteCheck/1.0 (+https://footprint.test/bot)';

let fake: FakeSites;

beforeAll(async () => {
  fake = await startFakeSites();
});

afterAll(async () => {
  await fake.close();
});

/** A fetcher that may reach the fake sites' port on 127.0.0.1 (and nothing else private). */
const fetcherFor = (more: Partial<SiteFetcherOptions> = {}) =>
  createSiteFetcher({
    userAgent: USER_AGENT,
    allowAddresses: [`127.0.0.1:${fake.port}`],
    timeoutMs: 1500,
    minIntervalMs: 0,
    ...more,
  });

/** One site's line for one username, with a fresh fetcher unless one is given. */
async function checkOne(site: CatalogueSite, username: string, fetcher = fetcherFor()): Promise<SiteCheck> {
  const [line] = await checkUsername(username, [site], { fetcher });
  if (!line) throw new Error('no line');
  return line;
}

describe('the check types, found and not found', () => {
  it('status_code: 2xx is found, 404 and the absent codes are not_found', async () => {
    const status = fake.site('status', 'status_code');
    const found = await checkOne(status, CLAIMED);
    expect(found).toMatchObject({ site: 'status', state: 'found', url: `${fake.origin}/status/alice` });
    expect(found.reason).toBeUndefined();
    expect(found.evidence).toMatchObject({
      status: 200,
      final_url: `${fake.origin}/status/alice`,
      title: 'alice on Status',
    });
    const missing = await checkOne(status, 'nobody');
    expect(missing).toMatchObject({ state: 'not_found', evidence: { status: 404, title: 'Not found' } });

    const withCode = fake.site('gone-code', 'status_code', { absent_codes: [451] });
    expect((await checkOne(withCode, 'nobody')).state).toBe('not_found');
    // Without the site's own code, 451 is not a signal it covers.
    const without = await checkOne(fake.site('gone-code', 'status_code'), 'nobody');
    expect(without.state).toBe('error');
    expect(without.reason).toContain('451');
  });

  it('message: the presence marker is found, the absence marker not_found', async () => {
    const site = fake.site('message', 'message', {
      presence: ['class="profile-card"'],
      absence: ['No such user'],
    });
    expect((await checkOne(site, CLAIMED)).state).toBe('found');
    expect((await checkOne(site, 'nobody')).state).toBe('not_found');
  });

  it('message with absence markers only: a 2xx page without one is found', async () => {
    const site = fake.site('absence-only', 'message', { absence: ['This account does not exist'] });
    expect((await checkOne(site, CLAIMED)).state).toBe('found');
    expect((await checkOne(site, 'nobody')).state).toBe('not_found');
  });

  it('message: a page that lost its presence marker is an error, never found', async () => {
    const site = fake.site('changed', 'message', {
      presence: ['class="profile-card"'],
      absence: ['No such user'],
    });
    const line = await checkOne(site, CLAIMED);
    expect(line.state).toBe('error');
    expect(line.reason).toMatch(/matched neither marker.*site may have changed/);
    expect(line.evidence?.status).toBe(200);
  });

  it('response_url: 2xx in place is found, a redirect elsewhere not_found', async () => {
    const site = fake.site('response', 'response_url', { error_url: `${fake.origin}/response-missing/` });
    const found = await checkOne(site, CLAIMED);
    expect(found.state).toBe('found');
    const missing = await checkOne(site, 'nobody');
    expect(missing.state).toBe('not_found');
    expect(missing.evidence?.final_url).toBe(`${fake.origin}/response-missing/`);
    // Without error_url, any redirect elsewhere says the same.
    expect((await checkOne(fake.site('response', 'response_url'), 'nobody')).state).toBe('not_found');
  });
});

describe('redirects and the address guard', () => {
  it('follows a chain of redirects by hand, sends no cookie back, and reports each hop', async () => {
    const events: SiteRequestEvent[] = [];
    const fetcher = fetcherFor({ onRequest: (event) => events.push(event) });
    const before = fake.hits('chain').length;
    const line = await checkOne(fake.site('chain', 'status_code'), CLAIMED, fetcher);
    expect(line.state).toBe('found');
    expect(line.evidence?.final_url).toBe(`${fake.origin}/chain/alice?hop=3`);
    expect(line.evidence?.title).toBe('alice after the chain');
    const hits = fake.hits('chain').slice(before);
    expect(hits.map((hit) => hit.path)).toEqual([
      '/chain/alice',
      '/chain/alice',
      '/chain/alice',
      '/chain/alice',
    ]);
    // The hops' Set-Cookie were never sent back; the operator's User-Agent and an HTML Accept were.
    for (const hit of hits) {
      expect(hit.headers.cookie).toBeUndefined();
      expect(hit.headers.authorization).toBeUndefined();
      expect(hit.headers['user-agent']).toBe(USER_AGENT);
      expect(hit.headers.accept).toMatch(/^text\/html,/);
    }
    expect(events.map((event) => event.status)).toEqual([301, 302, 302, 200]);
    expect(events.every((event) => event.site === 'chain' && event.host === `127.0.0.1:${fake.port}`)).toBe(
      true,
    );
    expect(events.every((event) => event.ms >= 0 && event.error === undefined)).toBe(true);
  });

  it('stops after 5 redirects with an error', async () => {
    const before = fake.hits('loop').length;
    const line = await checkOne(fake.site('loop', 'status_code'), CLAIMED);
    expect(line).toMatchObject({ state: 'error', reason: 'more than 5 redirects' });
    expect(fake.hits('loop').length - before).toBe(6);
  });

  it('refuses a redirect to a private address the operator did not allow, without connecting to it', async () => {
    for (const target of [`127.0.0.1:${fake.internalPort}`, `localhost:${fake.internalPort}`]) {
      const site = fake.site('to-internal', 'status_code', {
        url: `${fake.origin}/to-internal/{username}?to=${encodeURIComponent(`http://${target}/admin`)}`,
      });
      const line = await checkOne(site, CLAIMED);
      expect(line.state, target).toBe('error');
      expect(line.reason, target).toBe(`redirected to ${target}, a private or local address: not followed`);
    }
    expect(fake.internalArrivals).toEqual([]);
  });

  it('reaches 127.0.0.1 only because the options allow it, on that port only', async () => {
    const site = fake.site('status', 'status_code');
    const before = fake.arrivals.length;
    for (const allowAddresses of [[], ['127.0.0.1'], [`127.0.0.1:${fake.internalPort}`]]) {
      const line = await checkOne(site, CLAIMED, fetcherFor({ allowAddresses }));
      expect(line, allowAddresses.join()).toMatchObject({
        state: 'error',
        reason: '127.0.0.1 is a private or local address: not reached',
      });
      expect(line.evidence).toBeUndefined();
    }
    // A name that resolves to the loopback is refused at connect time just the same.
    const byName = fake.site('status', 'status_code', {
      url: `http://localhost:${fake.port}/status/{username}`,
    });
    expect((await checkOne(byName, CLAIMED, fetcherFor({ allowAddresses: [] }))).reason).toBe(
      'localhost is a private or local address: not reached',
    );
    expect(fake.arrivals.length).toBe(before);
    expect(
      (await checkOne(site, CLAIMED, fetcherFor({ allowAddresses: [`127.0.0.0/8:${fake.port}`] }))).state,
    ).toBe('found');
  });

  it('asks only http and https addresses', async () => {
    const line = await checkOne(
      fake.site('ftp', 'status_code', { url: 'ftp://127.0.0.1/{username}' }),
      CLAIMED,
    );
    expect(line).toMatchObject({ state: 'error', reason: 'the profile address is ftp:, not http or https' });
  });
});

describe('doors: challenges, login walls, 429', () => {
  it('a Cloudflare challenge (403 + cf-mitigated, and a 503 "Just a moment...") is blocked', async () => {
    const header = await checkOne(fake.site('cf-header', 'status_code'), CLAIMED);
    expect(header).toMatchObject({
      state: 'blocked',
      reason: 'Cloudflare challenge (cf-mitigated: challenge)',
    });
    expect(header.evidence?.status).toBe(403);
    const moment = await checkOne(fake.site('cf-moment', 'status_code'), CLAIMED);
    expect(moment).toMatchObject({ state: 'blocked', reason: 'Cloudflare challenge ("Just a moment...")' });
    expect(moment.evidence).toMatchObject({ status: 503, title: 'Just a moment...' });
  });

  it("a site's own challenge marker is blocked with its meaning, even in a 200", async () => {
    const site = fake.site('own-challenge', 'status_code', {
      challenges: { 'slider-captcha-wall': 'Slider captcha' },
    });
    expect(await checkOne(site, CLAIMED)).toMatchObject({
      state: 'blocked',
      reason: 'Slider captcha ("slider-captcha-wall")',
    });
  });

  it('a redirect to a login page is a login wall, not found and not not_found', async () => {
    const line = await checkOne(fake.site('login-wall', 'status_code'), CLAIMED);
    expect(line).toMatchObject({
      state: 'blocked',
      reason: `login wall (redirected to 127.0.0.1:${fake.port}/accounts/login/)`,
    });
    expect(line.evidence).toMatchObject({ status: 200, title: 'Log in' });
    // Even for a response_url site, whose redirects otherwise mean "no such account".
    expect((await checkOne(fake.site('login-wall', 'response_url'), CLAIMED)).state).toBe('blocked');
  });

  it('429 is blocked with its Retry-After, and the site is not asked again before it passes', async () => {
    const fetcher = fetcherFor();
    const site = fake.site('limited', 'status_code');
    const before = fake.hits('limited').length;
    const started = Date.now();
    const first = await checkOne(site, CLAIMED, fetcher);
    expect(first).toMatchObject({
      state: 'blocked',
      reason: '429, Retry-After 120 s',
      evidence: { status: 429 },
    });
    const until = fetcher.heldUntil('limited');
    expect(until).toBeGreaterThanOrEqual(started + 120_000);
    expect(until).toBeLessThanOrEqual(Date.now() + 120_000);
    const [second, third] = await checkUsername('bob', [site, site], { fetcher });
    expect(second).toMatchObject({
      state: 'blocked',
      reason: `rate limited: not asked again before ${new Date(until as number).toISOString()} (Retry-After)`,
    });
    expect(second?.evidence).toBeUndefined();
    expect(third?.state).toBe('blocked');
    expect(fake.hits('limited').length - before).toBe(1);
    // Another fetcher (another process) knows nothing of it.
    expect(fetcherFor().heldUntil('limited')).toBeUndefined();
  });
});

describe('limits and evidence', () => {
  it('a site slower than the timeout is an error', async () => {
    const started = performance.now();
    const line = await checkOne(fake.site('slow', 'status_code'), CLAIMED, fetcherFor({ timeoutMs: 300 }));
    expect(line).toMatchObject({ state: 'error', reason: 'no answer within 300 ms' });
    expect(performance.now() - started).toBeLessThan(1500);
  });

  it('reads a huge body up to the cap, stops, and hashes exactly the bytes read', async () => {
    const cap = 100_000;
    const site = fake.site('huge', 'message', { absence: ['never in the pattern'] });
    const line = await checkOne(site, CLAIMED, fetcherFor({ maxBytes: cap }));
    const sent = Buffer.concat([HUGE_CHUNK, HUGE_CHUNK]).subarray(0, cap);
    expect(line.evidence?.bytes).toBe(cap);
    expect(line.evidence?.sha256).toBe(createHash('sha256').update(sent).digest('hex'));
    // Only-absence markers and a cut page: the marker may lie past the cap, so no "found".
    expect(line.state).toBe('error');
    expect(line.reason).toContain('size cap');
    // The rest was not downloaded (the fake's writes stopped once the checker dropped the connection).
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(fake.huge.written).toBeLessThan(HUGE_CHUNK.length * 200);
  });

  it("the evidence is the page's: sha256 of the bytes sent, byte count, title on one line, time", async () => {
    const before = new Date().toISOString();
    const line = await checkOne(
      fake.site('evidence', 'message', { presence: ['class="profile-card"'] }),
      CLAIMED,
    );
    expect(line.state).toBe('found');
    expect(line.evidence).toEqual({
      final_url: `${fake.origin}/evidence/alice`,
      status: 200,
      title: "Alice & Bob's page — Café ✓",
      sha256: createHash('sha256').update(EVIDENCE_PAGE).digest('hex'),
      bytes: EVIDENCE_PAGE.length,
      checked_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    });
    const receivedAt = line.evidence?.checked_at ?? '';
    expect(receivedAt >= before).toBe(true);
    expect(line.checked_at >= receivedAt).toBe(true);
  });
});

describe('sites not asked', () => {
  it('a username the site does not allow, and a quarantined site, are not_checked without a request', async () => {
    const before = fake.arrivals.length;
    const strict = fake.site('status', 'status_code', { regex: '^[a-z0-9_]{3,15}$' });
    const quarantined = fake.site('quarantined', 'status_code', { url: `${fake.origin}/status/{username}` });
    const lines = await checkUsername('Bad.Name!', [strict], { fetcher: fetcherFor() });
    expect(lines).toEqual([
      {
        site: 'status',
        state: 'not_checked',
        url: `${fake.origin}/status/Bad.Name!`,
        checked_at: expect.any(String),
        reason: 'the username is not one this site allows',
      },
    ]);
    const asked: string[] = [];
    const [line] = await checkUsername(CLAIMED, [quarantined], {
      fetcher: fetcherFor(),
      quarantined: (id) => {
        asked.push(id);
        return id === 'quarantined' ? '2026-11-20T08:00:00.000Z' : undefined;
      },
    });
    expect(asked).toEqual(['quarantined']);
    expect(line).toMatchObject({
      state: 'not_checked',
      reason: 'not checked — site check failing since 2026-11-20',
    });
    expect(fake.arrivals.length).toBe(before);
    // The same site, allowed and not quarantined, is asked.
    expect((await checkOne(strict, CLAIMED)).state).toBe('found');
    expect(fake.arrivals.length).toBe(before + 1);
  });

  it('answers in catalogue order, one honest line per site, with the clock it is given', async () => {
    const sites = [
      fake.site('cf-header', 'status_code'),
      fake.site('status', 'status_code', { regex: '^x' }),
      fake.site('status', 'status_code'),
      fake.site('message', 'message', { absence: ['No such user'] }),
      fake.site('broken', 'status_code', { regex: '([' }),
    ];
    const clock = new Date('2026-12-05T06:00:00.000Z');
    const lines = await checkUsername(CLAIMED, sites, { fetcher: fetcherFor(), now: () => clock });
    expect(lines.map((line) => [line.site, line.state])).toEqual([
      ['cf-header', 'blocked'],
      ['status', 'not_checked'],
      ['status', 'found'],
      ['message', 'found'],
      ['broken', 'error'],
    ]);
    expect(lines.every((line) => line.checked_at === clock.toISOString())).toBe(true);
  });

  it('turns a fetcher that throws into an error line; an abort is thrown', async () => {
    const throwing = {
      fetch: async () => {
        throw new Error('socket exploded');
      },
      heldUntil: () => undefined,
    };
    const [line] = await checkUsername(CLAIMED, [fake.site('status', 'status_code')], { fetcher: throwing });
    expect(line).toMatchObject({ state: 'error', reason: 'unexpected failure: socket exploded' });

    const controller = new AbortController();
    const fetcher = fetcherFor({ maxInFlight: 1 });
    const slow = fake.site('slow', 'status_code');
    const queued = fake.site('status', 'status_code');
    const before = fake.hits('status').length;
    const started = performance.now();
    const pending = checkUsername(CLAIMED, [slow, queued], { fetcher, signal: controller.signal });
    setTimeout(() => controller.abort(), 100);
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
    expect(performance.now() - started).toBeLessThan(1000);
    // The site waiting for the one slot was never asked.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(fake.hits('status').length).toBe(before);
  });
});
