/**
 * What one site's answer says about one username: `classify(site, answer)` is pure and decides a state
 * from the last answer of the profile GET (status, final URL, redirect chain, headers, body, title).
 * "found" is said only on the site's own signal; anything its signal does not cover is `error` or
 * `blocked` with a reason, never a guess. In order, the first rule that applies decides:
 *
 * 1. 429 → blocked ('429, Retry-After 120 s'; the fetcher then leaves the site alone until it passes).
 * 2. A challenge or block page → blocked, naming what was seen (challenges.ts):
 *    - the site's own `challenges` markers in the body (any status): '<meaning> ("<marker>")';
 *    - Cloudflare: header `cf-mitigated: challenge`; title "Just a moment..."; title "Attention Required!
 *      | Cloudflare"; a 403/503 carrying /cdn-cgi/challenge-platform/;
 *    - DDoS-Guard (title, or its Server header on a 403/503); AWS WAF (`x-amzn-waf-action`); Akamai
 *      (title "Access Denied" and a "Reference #"); Imperva ("Incapsula incident ID", or
 *      `_Incapsula_Resource` in a challenge-sized page); DataDome (captcha-delivery.com) and PerimeterX
 *      (px-captcha) on a 403/503 or a challenge-sized page; Sucuri's firewall title;
 *    - weak signs ("captcha", "access denied", "verify you are human", "are you a robot", "unusual
 *      traffic", "request blocked", "security check"): in the title of a non-2xx or challenge-sized
 *      page (≤ 32 KB), or in the body of a challenge-sized 403/503.
 * 3. A `response_url` site redirected to its own `error_url` → not_found (even when that is a login page).
 * 4. A redirect that ended on a login page (a path segment login, signin, sign-in, sign_in, log-in,
 *    logon, auth, authenticate or sso: /login, /accounts/login, /i/flow/login, /users/sign_in) when the
 *    profile URL was not one → blocked ('login wall (redirected to example.com/login)').
 * 5. 5xx → error ('the site answered 503 Service Unavailable').
 * 6. By the site's check type ("stays on the profile" below: the final URL is the asked one, up to
 *    case, a trailing slash, www., http → https and a query the redirect added):
 *    - status_code: 404, 410 or one of `absent_codes` → not_found; 2xx that stays on the profile →
 *      found; 2xx after a redirect elsewhere → error (a status code cannot tell a profile from the page
 *      it was sent to); any other status → error.
 *    - message: an `absence` marker in the body → not_found; else a `presence` marker in a 2xx page →
 *      found (in a non-2xx page → error); else 404/410 → not_found; any other non-2xx → error; a 2xx
 *      page of a site with presence markers and none of them → error ('the page matched neither
 *      marker', the site may have changed), never found; a 2xx page of a site with only absence
 *      markers → found, unless the body was cut at the size cap (the marker may lie past it) or it
 *      was reached by a redirect elsewhere: then error. A site with no markers → error. Markers are
 *      case-sensitive substrings of the body as read (up to the cap).
 *    - response_url: a redirect elsewhere → not_found; a 2xx that stays on the profile → found;
 *      404/410 → not_found; any other status → error.
 * Reasons are given for blocked and error; found and not_found carry none.
 */
import { STATUS_CODES } from 'node:http';
import type { CatalogueSite, SiteState } from '@footprint/domain';
import { challengeSeen, loginWall } from './challenges.ts';
import type { SiteAnswer } from './types.ts';

/** What an answer says: a state (never `not_checked`) and, for blocked and error, why. */
export interface Verdict {
  state: Exclude<SiteState, 'not_checked'>;
  reason?: string;
}

/** What classify reads of an answer. */
export type ClassifyInput = Pick<
  SiteAnswer,
  'url' | 'finalUrl' | 'status' | 'redirects' | 'headers' | 'body' | 'title' | 'bytes' | 'truncated'
>;

const found: Verdict = { state: 'found' };
const notFound: Verdict = { state: 'not_found' };
const blocked = (reason: string): Verdict => ({ state: 'blocked', reason });
const error = (reason: string): Verdict => ({ state: 'error', reason });

const is2xx = (status: number) => status >= 200 && status <= 299;
const isGone = (status: number) => status === 404 || status === 410;
const statusText = (status: number) => `${status}${STATUS_CODES[status] ? ` ${STATUS_CODES[status]}` : ''}`;
const uncovered = (status: number) =>
  error(`answered ${statusText(status)}, which this site's check does not cover`);

/** '429, Retry-After 120 s', '429, Retry-After Wed, 21 Oct 2026 07:28:00 GMT' or '429, no Retry-After'. */
function rateLimited(answer: ClassifyInput): string {
  const raw = answer.headers['retry-after'];
  const value = (Array.isArray(raw) ? raw[0] : raw)?.trim();
  if (!value) return '429, no Retry-After';
  return /^\d+$/.test(value) ? `429, Retry-After ${value} s` : `429, Retry-After ${value}`;
}

const comparable = (raw: string) => {
  const url = new URL(raw);
  const path = decodeURIComponent(url.pathname).replace(/\/+$/, '').toLowerCase();
  return { host: url.hostname.toLowerCase().replace(/^www\./, ''), path, search: url.search, url };
};

/** Whether the final URL is the profile asked for (up to case, a trailing slash, www. and http → https). */
export function staysOnProfile(answer: Pick<ClassifyInput, 'url' | 'finalUrl' | 'redirects'>): boolean {
  if (answer.redirects.length === 0) return true;
  try {
    const asked = comparable(answer.url);
    const final = comparable(answer.finalUrl);
    const upgraded = asked.url.protocol === final.url.protocol || final.url.protocol === 'https:';
    // A query the redirect added (a tracking or locale parameter) leaves it the same page; one the
    // profile URL carries must stay.
    const sameQuery = asked.search === '' || asked.search === final.search;
    return upgraded && asked.host === final.host && asked.path === final.path && sameQuery;
  } catch {
    return false;
  }
}

/** Whether `finalUrl` is the site's `error_url` (its `{username}` standing for any one path part). */
function atErrorUrl(site: CatalogueSite, finalUrl: string): boolean {
  if (!site.error_url) return false;
  try {
    const placeholder = 'FOOTPRINTUSERNAMEPLACEHOLDER';
    const resolved = new URL(site.error_url.replaceAll('{username}', placeholder), site.url).toString();
    const pattern = resolved
      .replace(/\/+$/, '')
      .replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
      .replaceAll(placeholder, '[^/?#]*');
    return new RegExp(`^${pattern}/*$`, 'i').test(finalUrl);
  } catch {
    return false;
  }
}

function byStatusCode(site: CatalogueSite, answer: ClassifyInput): Verdict {
  const { status } = answer;
  if (isGone(status) || site.absent_codes?.includes(status)) return notFound;
  if (!is2xx(status)) return uncovered(status);
  if (!staysOnProfile(answer)) {
    return error(
      `redirected to ${answer.finalUrl}: a status code check cannot tell a profile from the page it was sent to`,
    );
  }
  return found;
}

function byMessage(site: CatalogueSite, answer: ClassifyInput): Verdict {
  const { status, body } = answer;
  const presence = (site.presence ?? []).filter(Boolean);
  const absence = (site.absence ?? []).filter(Boolean);
  if (presence.length === 0 && absence.length === 0) return error('the site has no marker to check');
  if (absence.some((marker) => body.includes(marker))) return notFound;
  const present = presence.some((marker) => body.includes(marker));
  if (present && is2xx(status)) return found;
  if (present) return error(`answered ${statusText(status)} with the presence marker in the page`);
  if (isGone(status)) return notFound;
  if (!is2xx(status)) return uncovered(status);
  const readPart = answer.truncated ? ` (in the first ${answer.bytes} bytes, the size cap)` : '';
  if (presence.length > 0) {
    return error(`the page matched neither marker${readPart}: the site may have changed`);
  }
  if (answer.truncated) {
    return error(
      `the page is longer than the size cap (${answer.bytes} bytes read): an absence marker may lie past it`,
    );
  }
  if (!staysOnProfile(answer)) {
    return error(`redirected to ${answer.finalUrl}, a page without the absence marker`);
  }
  return found;
}

function byResponseUrl(answer: ClassifyInput): Verdict {
  if (!staysOnProfile(answer)) return notFound;
  if (is2xx(answer.status)) return found;
  if (isGone(answer.status)) return notFound;
  return uncovered(answer.status);
}

/** The state of one site for one username, from the last answer of its profile GET (rules above). */
export function classify(site: CatalogueSite, answer: ClassifyInput): Verdict {
  if (answer.status === 429) return blocked(rateLimited(answer));
  const challenge = challengeSeen(site, answer);
  if (challenge) return blocked(challenge);
  if (site.check === 'response_url' && answer.redirects.length > 0 && atErrorUrl(site, answer.finalUrl)) {
    return notFound;
  }
  const wall = loginWall(answer);
  if (wall) return blocked(wall);
  if (answer.status >= 500) return error(`the site answered ${statusText(answer.status)}`);
  switch (site.check) {
    case 'status_code':
      return byStatusCode(site, answer);
    case 'message':
      return byMessage(site, answer);
    case 'response_url':
      return byResponseUrl(answer);
    default:
      return error(`unknown check type ${String(site.check)}`);
  }
}
