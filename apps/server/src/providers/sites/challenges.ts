/**
 * The pages that are a site's door, not its answer: challenges and block pages of the site itself (its
 * catalogue `challenges` markers) and of the web application firewalls in front of sites, and login
 * walls. Each sign names what was seen, so a "blocked" line says which door it was. The rules are
 * listed in classify.ts's top comment.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { CatalogueSite } from '@footprint/domain';
import type { SiteAnswer } from './types.ts';

/** A page at most this long may be a challenge page on a weak sign ("captcha", "Access denied"). */
export const CHALLENGE_PAGE_BYTES = 32 * 1024;

/** Words of a challenge that are weak alone: a 403/503 challenge-sized page, or a page's title. */
const WEAK_SIGNS = [
  'captcha',
  'access denied',
  'verify you are human',
  'are you a robot',
  'unusual traffic',
  'request blocked',
  'security check',
] as const;

const LOGIN_SEGMENTS = new Set([
  'login',
  'log-in',
  'log_in',
  'signin',
  'sign-in',
  'sign_in',
  'logon',
  'auth',
  'authenticate',
  'sso',
]);

const headerOf = (headers: IncomingHttpHeaders, name: string): string => {
  const value = headers[name];
  return (Array.isArray(value) ? value.join(', ') : (value ?? '')).toLowerCase();
};

type Page = Pick<SiteAnswer, 'status' | 'headers' | 'body' | 'title' | 'bytes'>;

/** A firewall's own signs, whatever the page's size: what was seen, or undefined. */
function firewallSign({ status, headers, body, title, bytes }: Page): string | undefined {
  const refusal = status === 403 || status === 503;
  const small = bytes <= CHALLENGE_PAGE_BYTES;
  const server = headerOf(headers, 'server');
  if (headerOf(headers, 'cf-mitigated').includes('challenge')) {
    return 'Cloudflare challenge (cf-mitigated: challenge)';
  }
  if (/^just a moment\b/i.test(title)) return 'Cloudflare challenge ("Just a moment...")';
  if (/attention required! \| cloudflare/i.test(title)) {
    return 'Cloudflare block page ("Attention Required! | Cloudflare")';
  }
  if (refusal && body.includes('/cdn-cgi/challenge-platform/')) {
    return `Cloudflare challenge (${status} with the challenge platform's script)`;
  }
  if (/ddos-guard/i.test(title) || (refusal && server.includes('ddos-guard'))) return 'DDoS-Guard challenge';
  const waf = headerOf(headers, 'x-amzn-waf-action');
  if (waf) return `AWS WAF ${waf} (x-amzn-waf-action)`;
  if (/access denied/i.test(title) && /Reference #[\d.a-f]+/i.test(body)) {
    return 'Akamai block page ("Access Denied", Reference #)';
  }
  if (body.includes('Incapsula incident ID') || (small && body.includes('_Incapsula_Resource'))) {
    return 'Imperva (Incapsula) block page';
  }
  if ((refusal || small) && body.includes('captcha-delivery.com')) return 'DataDome captcha';
  if ((refusal || small) && body.includes('px-captcha')) return 'PerimeterX (HUMAN) captcha';
  if (/sucuri website firewall/i.test(title)) return 'Sucuri firewall block page';
  return undefined;
}

/** A challenge or block page: what was seen ('Cloudflare challenge (cf-mitigated: challenge)'), or undefined. */
export function challengeSeen(site: CatalogueSite, page: Page): string | undefined {
  for (const [marker, meaning] of Object.entries(site.challenges ?? {})) {
    if (marker && page.body.includes(marker)) return `${meaning} ("${marker}")`;
  }
  const firewall = firewallSign(page);
  if (firewall) return firewall;
  const small = page.bytes <= CHALLENGE_PAGE_BYTES;
  // A weak sign in the title of a refusal or of a page too small to be a profile (a big 2xx page
  // titled after a user called "captcha" is that user's profile).
  const title = page.title.toLowerCase();
  const inTitle = WEAK_SIGNS.find((sign) => title.includes(sign));
  if (inTitle && (small || page.status < 200 || page.status > 299)) {
    return `challenge page (title "${page.title}")`;
  }
  if ((page.status === 403 || page.status === 503) && small) {
    const body = page.body.toLowerCase();
    const inBody = WEAK_SIGNS.find((sign) => body.includes(sign));
    if (inBody) return `challenge page (${page.status} with "${inBody}")`;
  }
  return undefined;
}

const isLoginPath = (pathname: string): boolean =>
  pathname
    .split('/')
    .some((segment) => LOGIN_SEGMENTS.has(segment.toLowerCase().replace(/\.(php|html?|aspx?|jsp)$/, '')));

/**
 * A redirect that ended on a login page when the profile URL asked was not one: 'login wall
 * (redirected to example.com/login)', or undefined.
 */
export function loginWall(answer: Pick<SiteAnswer, 'url' | 'finalUrl' | 'redirects'>): string | undefined {
  if (answer.redirects.length === 0) return undefined;
  try {
    const asked = new URL(answer.url);
    const final = new URL(answer.finalUrl);
    if (isLoginPath(asked.pathname) || !isLoginPath(final.pathname)) return undefined;
    return `login wall (redirected to ${final.host}${final.pathname})`;
  } catch {
    return undefined;
  }
}
