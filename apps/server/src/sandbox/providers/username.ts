/**
 * The sandbox's site check (`sitesData` of a username lookup): a synthetic answer over the real
 * catalogue, without one request to any site. Which sites find the name, block, fail or are
 * quarantined is drawn from the name, so the same name always gets the same answer. The demo names
 * (README, "Demo subjects") pin the three pictures an investigator meets: many accounts, none, and a
 * wall of blocked sites.
 */
import { createHash } from 'node:crypto';
import type { CatalogueSite, SiteCheck, SiteCheckAnswer, SiteState } from '@footprint/domain';
import { answerOf } from '../../providers/sites/answer.ts';
import { loadCatalogue, profileUrl, siteAllows } from '../../providers/sites/catalogue.ts';
import { createRng, isoDay, SANDBOX_NOW } from '../random.ts';

/** The fixed demo names of the username lookup. */
export const USERNAME_DEMO = {
  /** The rich persona's handle (also in the leak records): found on many sites, a few blocked. */
  rich: 'rohand90',
  /** Found nowhere: every site that answered said no. */
  none: 'nobody.demo',
  /** Most of the popular sites answer with a challenge or 429. */
  blocked: 'blocked.demo',
} as const;

/** Per demo name (and for any other name), the share of the catalogue in each state but not_found. */
const SHARES: Record<string, { found: number; blocked: number; error: number; quarantined: number }> = {
  [USERNAME_DEMO.rich]: { found: 0.03, blocked: 0.012, error: 0.006, quarantined: 0.004 },
  [USERNAME_DEMO.none]: { found: 0, blocked: 0.004, error: 0.002, quarantined: 0.004 },
  [USERNAME_DEMO.blocked]: { found: 0.004, blocked: 0.3, error: 0.01, quarantined: 0.004 },
};

const BLOCKED_REASONS = [
  '429 Too Many Requests, Retry-After 120 s',
  'Cloudflare challenge page (cf-mitigated: challenge)',
  'login wall: the profile address redirected to /login',
  'captcha page',
] as const;
const ERROR_REASONS = ['no answer within 10 s', 'HTTP 503', 'connection refused', 'TLS handshake failed'];

/** The popular and Indian sites first: those are where a found account is drawn from. */
const prominence = (site: CatalogueSite) => (site.india ? 0 : 1) * 1e9 + (site.rank ?? 1e8);

function shareOf(username: string, rng: ReturnType<typeof createRng>) {
  return (
    SHARES[username] ?? {
      found: rng.float(0, 0.008),
      blocked: rng.float(0.002, 0.012),
      error: 0.004,
      quarantined: 0.004,
    }
  );
}

/**
 * The synthetic answer of the site check for one username. Which site lands in which state depends on
 * the name alone, and so do the times: they count from the sandbox's fixed now, as every synthetic
 * answer's dates do, so the same name always gets the same bytes.
 */
export function sitesPayload(username: string, now: Date = SANDBOX_NOW): SiteCheckAnswer {
  const catalogue = loadCatalogue();
  const { sites } = catalogue;
  const rng = createRng(`sitesData:${username}`);
  const share = shareOf(username, rng);
  const ranked = [...sites].sort((a, b) => prominence(a) - prominence(b) || a.id.localeCompare(b.id));
  // Found accounts come from the most prominent third; the rest of the states from anywhere.
  const head = ranked.slice(0, Math.max(1, Math.floor(ranked.length / 3)));
  const found = new Set(rng.sample(head, Math.round(sites.length * share.found)).map((site) => site.id));
  const rest = rng.shuffle(sites.filter((site) => !found.has(site.id)));
  const take = (count: number) => new Set(rest.splice(0, Math.round(count)).map((site) => site.id));
  const blocked = take(sites.length * share.blocked);
  const failed = take(sites.length * share.error);
  const quarantined = take(sites.length * share.quarantined);

  const started = now.getTime();
  const lines = sites.map((site, index) => {
    const checkedAt = new Date(started + 200 + index * 7).toISOString();
    const state: SiteState = !siteAllows(site, username)
      ? 'not_checked'
      : found.has(site.id)
        ? 'found'
        : blocked.has(site.id)
          ? 'blocked'
          : failed.has(site.id)
            ? 'error'
            : quarantined.has(site.id)
              ? 'not_checked'
              : 'not_found';
    return lineOf(site, username, state, checkedAt, rng, now);
  });
  return answerOf(username, catalogue, lines, now, new Date(started + 200 + sites.length * 7));
}

function lineOf(
  site: CatalogueSite,
  username: string,
  state: SiteState,
  checkedAt: string,
  rng: ReturnType<typeof createRng>,
  now: Date,
): SiteCheck {
  const url = profileUrl(site, username);
  const base = { site: site.id, state, url };
  if (state === 'not_found') return { ...base, checked_at: checkedAt };
  if (state === 'found') {
    const body = `sandbox profile page of ${username} on ${site.name}`;
    return {
      ...base,
      checked_at: checkedAt,
      evidence: {
        final_url: url,
        status: 200,
        title: `${username} | ${site.name}`,
        sha256: createHash('sha256').update(body).digest('hex'),
        bytes: Buffer.byteLength(body),
        checked_at: checkedAt,
      },
    };
  }
  if (state === 'not_checked') {
    const reason = siteAllows(site, username)
      ? `not checked — site check failing since ${isoDay(new Date(now.getTime() - rng.int(1, 20) * 86_400_000))}`
      : 'the username is not one this site allows';
    return { ...base, checked_at: checkedAt, reason };
  }
  const reason = state === 'blocked' ? rng.pick(BLOCKED_REASONS) : rng.pick(ERROR_REASONS);
  return { ...base, checked_at: checkedAt, reason };
}
