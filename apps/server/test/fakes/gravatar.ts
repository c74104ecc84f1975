/**
 * A fake Gravatar REST API v3 (GET /profiles/{sha256 of the address}) speaking the documented wire
 * format: the `Profile` object, 404 for an unknown hash, the `Error` body {error, code}, and the
 * X-RateLimit-* headers on every answer. Deterministic: a profile is derived from its hash, so the
 * same address always gets the same person.
 *
 * - A Bearer token other than the fake's key is refused with 401; without one the public profile is
 *   served (no authenticated-only fields, at most 4 verified accounts), as Gravatar does.
 * - Addresses passed in `emails` get the sandbox persona of that address (same name, city and job as
 *   the other sandbox sources); any other hash gets a persona seeded by the hash.
 * - The sandbox's empty demo address, and a quarter of all other hashes (first byte below 0x40), have
 *   no profile; the rich demo address always has one.
 */
import { createHash } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { DEMO, emailPersona } from '../../src/sandbox/providers/demo.ts';
import { type Persona, personaFor } from '../../src/sandbox/providers/persona.ts';
import { createRng } from '../../src/sandbox/random.ts';
import { type RecordedRequest, sendJson } from '../support/upstream.ts';

export const GRAVATAR_FAKE_KEY = 'gravatar-fake-key';

export interface GravatarFakeOptions {
  /** The key the fake accepts as a Bearer token. */
  apiKey?: string;
  /** Addresses whose profile follows their sandbox persona. */
  emails?: readonly string[];
  /** Whether a hash has no profile (default: the empty demo address and hashes below 0x40…). */
  missing?: (hash: string) => boolean;
}

const sha256 = (email: string) => createHash('sha256').update(email.trim().toLowerCase()).digest('hex');

const RICH = sha256(DEMO.richEmail);
const EMPTY = sha256(DEMO.emptyEmail);

/** The default: no profile for the empty demo address and for about a quarter of the rest. */
export function defaultMissing(hash: string): boolean {
  if (hash === RICH) return false;
  return hash === EMPTY || Number.parseInt(hash.slice(0, 2), 16) < 0x40;
}

const rateHeaders = () => ({
  'x-ratelimit-limit': '1000',
  'x-ratelimit-remaining': '999',
  'x-ratelimit-reset': String(Math.ceil(Date.now() / 3_600_000) * 3600),
});

/** Sites a Gravatar user can verify, as `service_type`, `service_label` and the fake's profile host. */
const SERVICES = [
  ['github', 'GitHub', 'github.example.test'],
  ['mastodon', 'Mastodon', 'mastodon.example.test/@'],
  ['tumblr', 'Tumblr', 'tumblr.example.test/'],
  ['wordpress', 'WordPress', 'wordpress.example.test/'],
  ['twitter', 'X', 'x.example.test'],
] as const;

/** The profile Gravatar would hold for this persona; `authenticated` adds the key-only fields. */
export function fakeGravatarProfile(hash: string, persona: Persona, authenticated: boolean) {
  const rng = createRng(`gravatar:${hash}`);
  const slug = (persona.usernames[0] ?? `user${hash.slice(0, 8)}`).replace(/[^a-z0-9_]/gi, '').toLowerCase();
  const position = persona.positions[0];
  const accounts = rng.sample(SERVICES, rng.int(1, SERVICES.length)).map(([type, label, host], i) => ({
    service_type: type,
    service_label: label,
    service_icon: `https://gravatar.example.test/icons/${type}.svg`,
    url: `https://${host}${host.endsWith('@') || host.endsWith('/') ? '' : '/'}${slug}`,
    is_hidden: i === 3,
  }));
  const shown = authenticated ? accounts : accounts.filter((a) => !a.is_hidden).slice(0, 4);
  const publicProfile = {
    hash,
    display_name: persona.fullName,
    profile_url: `https://gravatar.example.test/${slug}`,
    avatar_url: `https://gravatar.example.test/avatar/${hash}`,
    avatar_alt_text: rng.chance(0.5) ? `${persona.firstName}'s avatar image.` : '',
    location: rng.chance(0.8) ? `${persona.city.city}, India` : '',
    description: rng.chance(0.5) ? `${persona.occupation} from ${persona.hometown.city}.` : '',
    job_title: position && rng.chance(0.8) ? position.title : '',
    company: position && rng.chance(0.7) ? position.company : '',
    verified_accounts: shown,
    pronunciation: '',
    pronouns: rng.pick(['', 'she/her', 'he/him', 'they/them']),
  };
  if (!authenticated) return publicProfile;
  return {
    ...publicProfile,
    first_name: persona.firstName,
    last_name: persona.lastName,
    is_organization: false,
    links: [{ label: 'Blog', url: `https://${slug}.example.test` }],
    interests: [],
    contact_info: { cell_phone: `+1-555-555-01${String(rng.int(0, 99)).padStart(2, '0')}` },
    number_verified_accounts: accounts.length,
    last_profile_edit: '2026-05-01T10:00:00Z',
    registration_date: '2019-02-14T08:30:00Z',
  };
}

/** A node handler for startFakeUpstream that answers like Gravatar's profile endpoint. */
export function gravatarFake(options: GravatarFakeOptions = {}) {
  const apiKey = options.apiKey ?? GRAVATAR_FAKE_KEY;
  const missing = options.missing ?? defaultMissing;
  const known = new Map((options.emails ?? []).map((email) => [sha256(email), email.trim().toLowerCase()]));
  known.set(RICH, DEMO.richEmail);

  return (req: RecordedRequest, res: ServerResponse): void => {
    const auth = req.headers.authorization;
    if (auth !== undefined && auth !== `Bearer ${apiKey}`) {
      sendJson(res, 401, { error: 'You are not authorized to perform this action' });
      return;
    }
    if (req.method !== 'GET') {
      sendJson(res, 405, { error: 'Method not allowed' });
      return;
    }
    const path = new URL(req.url, 'http://fake.invalid').pathname;
    const match = /\/profiles\/([^/]+)$/.exec(path);
    const hash = match ? decodeURIComponent(match[1]!).toLowerCase() : '';
    if (!/^[0-9a-f]{64}$/.test(hash) || missing(hash)) {
      res.writeHead(404, rateHeaders());
      res.end();
      return;
    }
    const address = known.get(hash);
    const persona = address ? emailPersona(address) : personaFor(`gravatar:${hash}`);
    sendJson(res, 200, fakeGravatarProfile(hash, persona, auth !== undefined), rateHeaders());
  };
}
