/**
 * The username site check: the catalogue's shape (built from the MIT-licensed Sherlock and Maigret
 * site lists) and what one check of one site answers. The server's catalogue, its checker, the
 * self-check and the web's results page all read these types; nothing else names a site state.
 */

/**
 * How a site tells an account that exists from one that does not, as the source lists name it:
 * - `status_code`: a 2xx answer means the profile exists; 404 (or the site's own codes) that it does not;
 * - `message`: the page holds a marker text (`presence`) when it exists, or one (`absence`) when not;
 * - `response_url`: a missing profile redirects (to `error_url`, or anywhere); an existing one answers 2xx in place.
 */
export const SITE_CHECK_TYPES = ['status_code', 'message', 'response_url'] as const;
export type SiteCheckType = (typeof SITE_CHECK_TYPES)[number];

/** Where a catalogue entry came from. */
export const SITE_LISTS = ['sherlock', 'maigret'] as const;
export type SiteList = (typeof SITE_LISTS)[number];

/** One site of the catalogue. */
export interface CatalogueSite {
  /** Stable key: the lower-cased name with anything but letters, digits, '.' and '-' folded to '-' ('github'). */
  id: string;
  /** Its name as people know it ('GitHub'). */
  name: string;
  /** The site's home page ('https://github.com/'). */
  main: string;
  /** The public profile URL, with `{username}` where the name goes ('https://github.com/{username}'). */
  url: string;
  check: SiteCheckType;
  /** `message`: marker texts, any of which in the page means the account exists. */
  presence?: string[];
  /** `message`: marker texts, any of which in the page means it does not. */
  absence?: string[];
  /** `status_code`: answer codes that mean the account does not exist (besides 404). */
  absent_codes?: number[];
  /** `response_url`: the address a missing profile lands on (with `{username}` if it carries it). */
  error_url?: string;
  /** Marker texts of the site's own challenge or error pages, each with what it means ('Captcha'). */
  challenges?: Record<string, string>;
  /** A username known to exist there. */
  claimed: string;
  /** A username known not to exist there (generated when the lists give none). */
  unclaimed?: string;
  /** The names the site allows; a username that does not match is not checked there. */
  regex?: string;
  /** What kind of site it is: one word from the lists' tags ('social', 'forum', 'coding', ...). */
  category: string;
  /** Every tag of the lists, country codes included. */
  tags: string[];
  /** Whether it matters in India: tagged 'in', on an Indian domain, or Indian by the catalogue's own list. */
  india: boolean;
  /** The lists' popularity rank (lower is more popular), when they give one. */
  rank?: number;
  /** Adult content (Sherlock's isNSFW, Maigret's 'porn'/'dating' tags). */
  nsfw?: boolean;
  /** The lists it came from. */
  from: SiteList[];
}

/**
 * What became of one site in one check, never a catch-all:
 * - `found`: the site's own signal says the account exists;
 * - `not_found`: its signal says it does not;
 * - `blocked`: a challenge, a WAF page, a login wall or 429: the site would not say;
 * - `error`: it could not be reached, timed out, or answered in a way its signal does not cover;
 * - `not_checked`: not asked (the site is quarantined, or the username is not one it allows).
 */
export const SITE_STATES = ['found', 'not_found', 'blocked', 'error', 'not_checked'] as const;
export type SiteState = (typeof SITE_STATES)[number];

/** What a "found" rests on: enough to show the page was there, and which page it was. */
export interface SiteEvidence {
  /** The address the last answer came from, after redirects. */
  final_url: string;
  /** Its HTTP status. */
  status: number;
  /** The page's <title>, cleaned to one line (empty when it has none). */
  title: string;
  /** SHA-256 of the body as received (hex), up to the size cap. */
  sha256: string;
  /** Bytes of body read (the hash covers exactly these). */
  bytes: number;
  /** When the answer came (ISO 8601). */
  checked_at: string;
}

/** One site's line in a username check. */
export interface SiteCheck {
  /** The catalogue id. */
  site: string;
  state: SiteState;
  /** The profile URL asked for. */
  url: string;
  /** When the check ended (ISO 8601). */
  checked_at: string;
  /** The answer's evidence (every state that got an answer; always for `found`). */
  evidence?: SiteEvidence;
  /** Why, in words, for every state but found and not_found ('429, Retry-After 120 s', 'Cloudflare challenge'). */
  reason?: string;
}

/** A site's line in a username answer: the check, with what the page needs to show it. */
export interface AnsweredSite extends SiteCheck {
  /** The site's name ('GitHub'). */
  name: string;
  category: string;
  india: boolean;
}

/**
 * What the site-check source answers for one username (`sitesData`): every site it was asked about in
 * a state, the found, blocked, failed and unchecked ones listed with their lines, the ones that said no
 * only by id (a username is absent from most sites; their lines would be most of the answer).
 */
export interface SiteCheckAnswer {
  /** The name checked, as sent to the sites. */
  username: string;
  /** Sites in the catalogue, and how many this check covered (the rest are out of its scope). */
  catalogue: { sites: number; scope: number };
  /** Sites per state, over the scope. */
  counts: Record<SiteState, number>;
  /** Every site of the scope but those that said no, found first, then blocked, error, not checked. */
  sites: AnsweredSite[];
  /** The ids of the sites that said there is no such account. */
  not_found: string[];
  /** When the first request went out and the last answer came (ISO 8601). */
  started_at: string;
  finished_at: string;
}

/** The states in the order the results page and the report list them. */
export const siteStateOrder = (state: SiteState): number => SITE_STATES.indexOf(state);

/** A stored payload that is a site-check answer (older or foreign payloads are not). */
export const isSiteCheckAnswer = (value: unknown): value is SiteCheckAnswer =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as SiteCheckAnswer).username === 'string' &&
  Array.isArray((value as SiteCheckAnswer).sites) &&
  Array.isArray((value as SiteCheckAnswer).not_found) &&
  typeof (value as SiteCheckAnswer).counts === 'object';

/** What a site check that found the name nowhere says, as its source's message. */
export const siteCheckNothingFound = (answer: SiteCheckAnswer): string => {
  const asked = answer.catalogue.scope - answer.counts.not_checked;
  const answered = answer.counts.not_found;
  return `No account found: ${answered} of the ${asked} sites asked said there is none.`;
};
