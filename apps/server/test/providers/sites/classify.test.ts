// classify on its own: answers built by hand, one rule at a time (the rules are in classify.ts's top
// comment). The HTTP side of the same states is in checker.test.ts.
import type { CatalogueSite } from '@footprint/domain';
import { describe, expect, it } from 'vitest';
import { type ClassifyInput, classify } from '../../../src/providers/sites/classify.ts';
import { titleOf } from '../../../src/providers/sites/page.ts';

const PROFILE = 'https://example.test/u/alice';

const site = (check: CatalogueSite['check'], more: Partial<CatalogueSite> = {}): CatalogueSite => ({
  id: 'example',
  name: 'Example',
  main: 'https://example.test/',
  url: 'https://example.test/u/{username}',
  check,
  claimed: 'alice',
  category: 'social',
  tags: [],
  india: false,
  from: ['maigret'],
  ...more,
});

/** A big ordinary 200 page at the profile URL, unless told otherwise. */
const answer = (more: Partial<ClassifyInput> = {}): ClassifyInput => {
  const body =
    more.body ??
    `<html><head><title>${more.title ?? 'alice'}</title></head><body>${'x'.repeat(60_000)}</body></html>`;
  return {
    url: PROFILE,
    finalUrl: PROFILE,
    status: 200,
    redirects: [],
    headers: {},
    title: titleOf(body),
    bytes: Buffer.byteLength(body),
    truncated: false,
    ...more,
    body,
  };
};

/** An answer that came through redirects to `finalUrl`. */
const redirected = (finalUrl: string, more: Partial<ClassifyInput> = {}) =>
  answer({ finalUrl, redirects: [finalUrl], ...more });

const small = (title: string, text: string) =>
  `<html><head><title>${title}</title></head><body>${text}</body></html>`;

describe('classify: doors come first', () => {
  it('429 is blocked, with or without Retry-After', () => {
    expect(classify(site('status_code'), answer({ status: 429, headers: { 'retry-after': '30' } }))).toEqual({
      state: 'blocked',
      reason: '429, Retry-After 30 s',
    });
    expect(
      classify(
        site('message', { presence: ['alice'] }),
        answer({ status: 429, headers: { 'retry-after': 'Sat, 05 Dec 2026 07:00:00 GMT' } }),
      ),
    ).toEqual({ state: 'blocked', reason: '429, Retry-After Sat, 05 Dec 2026 07:00:00 GMT' });
    expect(classify(site('status_code'), answer({ status: 429 })).reason).toBe('429, no Retry-After');
  });

  it('names the firewall whose page it saw', () => {
    const cases: Array<[Partial<ClassifyInput>, string]> = [
      [
        { status: 403, body: small('Attention Required! | Cloudflare', 'blocked') },
        'Cloudflare block page ("Attention Required! | Cloudflare")',
      ],
      [
        {
          status: 403,
          body: small(
            'Forbidden',
            '<script src="/cdn-cgi/challenge-platform/h/g/orchestrate/jsch/v1"></script>',
          ),
        },
        "Cloudflare challenge (403 with the challenge platform's script)",
      ],
      [{ status: 403, body: small('DDoS-Guard', 'checking your browser') }, 'DDoS-Guard challenge'],
      [
        { status: 405, headers: { 'x-amzn-waf-action': 'captcha' }, body: small('', '') },
        'AWS WAF captcha (x-amzn-waf-action)',
      ],
      [
        {
          status: 403,
          body: small('Access Denied', "You don't have permission. Reference #18.5f3c1302.1733380000.1a2b3c"),
        },
        'Akamai block page ("Access Denied", Reference #)',
      ],
      [
        {
          status: 200,
          body: small('Request unsuccessful', 'Request unsuccessful. Incapsula incident ID: 1234-5678'),
        },
        'Imperva (Incapsula) block page',
      ],
      [
        {
          status: 403,
          body: small('example.test', '<script src="https://ct.captcha-delivery.com/c.js"></script>'),
        },
        'DataDome captcha',
      ],
      [
        { status: 403, body: small('Forbidden', 'Please solve the CAPTCHA to continue') },
        'challenge page (403 with "captcha")',
      ],
      [
        { status: 503, body: small('Service', 'Access denied for your network') },
        'challenge page (503 with "access denied")',
      ],
      [
        { status: 200, body: small('Are you a robot?', 'press and hold') },
        'challenge page (title "Are you a robot?")',
      ],
    ];
    for (const [more, reason] of cases) {
      expect(classify(site('status_code'), answer(more)), reason).toEqual({ state: 'blocked', reason });
    }
  });

  it('does not take a profile page that mentions a captcha for a challenge', () => {
    // A found profile carrying a reCAPTCHA script, and the profile of a user called "captcha".
    const withScript = answer({
      body: `<title>alice</title><script src="https://www.google.com/recaptcha/api.js"></script>${'x'.repeat(60_000)}`,
    });
    expect(classify(site('status_code'), withScript)).toEqual({ state: 'found' });
    expect(classify(site('status_code'), answer({ title: 'captcha (@captcha) on Example' }))).toEqual({
      state: 'found',
    });
    // A bare 403 with no sign of a challenge is an error the site's signal does not cover, not "blocked".
    expect(classify(site('status_code'), answer({ status: 403, body: small('Forbidden', 'no') }))).toEqual({
      state: 'error',
      reason: "answered 403 Forbidden, which this site's check does not cover",
    });
  });

  it("a site's own challenge marker wins over its other signals", () => {
    const own = site('message', {
      presence: ['alice'],
      challenges: { 'Verifying you are human': 'Bot check' },
    });
    expect(classify(own, answer({ body: small('alice', 'alice — Verifying you are human') }))).toEqual({
      state: 'blocked',
      reason: 'Bot check ("Verifying you are human")',
    });
  });

  it('a redirect to a login page is a login wall, unless the profile URL is one or it is the error_url', () => {
    for (const path of [
      '/login',
      '/signin',
      '/accounts/login/',
      '/i/flow/login',
      '/users/sign_in',
      '/auth?next=x',
    ]) {
      const final = `https://example.test${path}`;
      expect(classify(site('status_code'), redirected(final)), path).toEqual({
        state: 'blocked',
        reason: `login wall (redirected to example.test${new URL(final).pathname})`,
      });
    }
    const loginProfile = answer({
      url: 'https://example.test/login/alice',
      finalUrl: 'https://example.test/login/alice/',
      redirects: ['https://example.test/login/alice/'],
    });
    expect(classify(site('status_code'), loginProfile).state).toBe('found');
    const errorUrlIsLogin = site('response_url', { error_url: 'https://example.test/login?from={username}' });
    expect(classify(errorUrlIsLogin, redirected('https://example.test/login?from=alice'))).toEqual({
      state: 'not_found',
    });
    // An "author" path is no login page.
    expect(classify(site('response_url'), redirected('https://example.test/author/alice')).state).toBe(
      'not_found',
    );
  });

  it('5xx is an error, even with a marker in it', () => {
    expect(
      classify(
        site('message', { absence: ['No such user'] }),
        answer({ status: 500, body: small('Oops', 'No such user') }),
      ),
    ).toEqual({
      state: 'error',
      reason: 'the site answered 500 Internal Server Error',
    });
  });
});

describe('classify: the check types', () => {
  it('status_code: found only on the profile itself', () => {
    const check = site('status_code', { absent_codes: [403] });
    expect(classify(check, answer({ status: 403 }))).toEqual({ state: 'not_found' });
    expect(classify(check, answer({ status: 410 }))).toEqual({ state: 'not_found' });
    expect(classify(check, answer({ status: 204 }))).toEqual({ state: 'found' });
    // http → https, www., a trailing slash and case: the same profile.
    const same = answer({
      url: 'http://example.test/u/Alice',
      finalUrl: 'https://www.example.test/u/alice/',
      redirects: ['https://www.example.test/u/alice/'],
    });
    expect(classify(check, same)).toEqual({ state: 'found' });
    // Sent to the home page: a 200 there says nothing about alice.
    expect(classify(check, redirected('https://example.test/'))).toEqual({
      state: 'error',
      reason:
        'redirected to https://example.test/: a status code check cannot tell a profile from the page it was sent to',
    });
    expect(classify(check, answer({ status: 302 })).state).toBe('error');
  });

  it('message: absence before presence, and no guess when neither is there', () => {
    const both = site('message', { presence: ['"profile-card"'], absence: ['No such user'] });
    expect(
      classify(both, answer({ body: small('x', '<div class="profile-card">No such user</div>') })),
    ).toEqual({ state: 'not_found' });
    expect(classify(both, answer({ body: small('x', '<div class="profile-card">') }))).toEqual({
      state: 'found',
    });
    expect(classify(both, answer({ status: 404, body: small('x', 'gone') }))).toEqual({ state: 'not_found' });
    expect(
      classify(both, answer({ status: 404, body: small('x', '<div class="profile-card">') })).state,
    ).toBe('error');
    expect(classify(both, answer({ status: 400, body: small('x', 'bad') })).state).toBe('error');
    const changed = classify(both, answer({ body: small('x', 'new layout'), truncated: true, bytes: 1024 }));
    expect(changed).toEqual({
      state: 'error',
      reason:
        'the page matched neither marker (in the first 1024 bytes, the size cap): the site may have changed',
    });
    // Markers are case-sensitive, as the lists write them.
    expect(classify(both, answer({ body: small('x', 'no such user') })).state).toBe('error');
  });

  it('message with absence markers only: found in place, not past the cap or after a redirect elsewhere', () => {
    const absence = site('message', { absence: ['No such user'] });
    expect(classify(absence, answer())).toEqual({ state: 'found' });
    expect(classify(absence, answer({ truncated: true })).state).toBe('error');
    expect(classify(absence, redirected('https://example.test/search?q=alice'))).toEqual({
      state: 'error',
      reason: 'redirected to https://example.test/search?q=alice, a page without the absence marker',
    });
    expect(classify(site('message'), answer())).toEqual({
      state: 'error',
      reason: 'the site has no marker to check',
    });
  });

  it('response_url: 2xx in place is found, any redirect elsewhere not_found', () => {
    const check = site('response_url', { error_url: 'https://example.test/404?u={username}' });
    expect(classify(check, answer())).toEqual({ state: 'found' });
    expect(classify(check, redirected('https://example.test/404?u=alice'))).toEqual({ state: 'not_found' });
    expect(classify(check, redirected('https://example.test/somewhere'))).toEqual({ state: 'not_found' });
    expect(classify(check, redirected('https://example.test/u/alice/'))).toEqual({ state: 'found' });
    expect(classify(check, answer({ status: 404 }))).toEqual({ state: 'not_found' });
    expect(classify(check, answer({ status: 401 })).state).toBe('error');
  });
});

describe('titleOf', () => {
  it('cleans a title to one line with the common entities decoded', () => {
    expect(titleOf('<title>\n  Tom &amp; Jerry &#8211; &quot;Home&quot;&nbsp;|&#x20;Site\t</title>')).toBe(
      'Tom & Jerry – "Home" | Site',
    );
    expect(titleOf('<TITLE data-x="1">a<b>b</b> &unknown;</TITLE>')).toBe('ab &unknown;');
    expect(titleOf('<html><body>no title</body></html>')).toBe('');
    expect(titleOf(`<title>${'long '.repeat(100)}</title>`)).toHaveLength(300);
  });
});
