#!/usr/bin/env node
/**
 * Builds the username site catalogue (apps/server/src/providers/sites/catalogue.json, shape:
 * CatalogueSite in packages/domain/src/username/sites.ts) from the two MIT-licensed site lists
 * vendored in data/username-sites/ (Sherlock's and Maigret's data.json; see its README.md).
 *
 *   node scripts/build-username-catalogue.mjs                 write the catalogue
 *   node scripts/build-username-catalogue.mjs --check         exit 1 if the file differs from the build
 *   node scripts/build-username-catalogue.mjs --out <path>    write (or --check) another file instead
 *
 * Rules, in the order they apply:
 * 1. Placeholders: Sherlock's `{}` and Maigret's `{username}` become `{username}`; Maigret's `{urlMain}`
 *    and `{urlSubpath}` are filled from the site (`urlSubpath` defaults to ''; a trailing '/' of urlMain
 *    is dropped when the template goes on with '/'). A Maigret site with `engine` takes the fields it
 *    lacks from `engines[<engine>].site`; list fields (markers) are joined and `errors` merged, as
 *    Maigret itself does (the site's own entries first). The engine's top-level detection markers are
 *    not site fields and are ignored.
 * 2. Only a polite public profile check is kept: one GET of the public profile URL. An entry is dropped,
 *    and counted under the first reason that applies:
 *    - `disabled`: Maigret `disabled: true`;
 *    - `not_username`: Maigret `type` other than 'username' (ids of other kinds: gaia_id, steam_id, ...);
 *    - `post_or_payload`: a request method other than GET, or a request payload;
 *    - `custom_headers`: the check sends `headers` (tokens, cookies, spoofed browsers);
 *    - `url_probe`: the check asks a `urlProbe` other than the profile URL (an API rather than the page);
 *    - `url_not_http`: the URL is not http(s), or Maigret marks another `protocol` (dns, tor, i2p);
 *    - `url_username`: the URL does not hold the username placeholder exactly once;
 *    - `unknown_check`: no check type the catalogue knows after resolution;
 *    - `no_marker`: a `message` check with neither presence nor absence markers;
 *    - `no_claimed`: no username known to exist there (nothing to self-check against);
 *    - `duplicate`: the same site as a kept entry (rule 4), merged into it.
 * 3. Fields: Sherlock `errorType` (string, or array: its first supported type) or Maigret `checkType`
 *    gives `check`. Markers only for `message`: Sherlock `errorMsg` (string or array) and Maigret
 *    `absenceStrs` give `absence`, Maigret `presenseStrs`/`presenceStrs` give `presence`. Sherlock
 *    `errorCode` (number or array) gives `absent_codes`, only for `status_code`. `errorUrl` gives
 *    `error_url` (placeholder resolved), only for `response_url`. Maigret `errors` (marker ->
 *    description) gives `challenges`, only when present. `claimed`: Sherlock `username_claimed`, Maigret
 *    `usernameClaimed`; `unclaimed`: Maigret `usernameUnclaimed` when given. `regex`: `regexCheck`, kept
 *    only if it compiles as a JavaScript RegExp (with the `u` flag, else without; dropped otherwise).
 *    `main`: urlMain (a bare host gets the profile URL's scheme, 'http:/' is repaired, a missing one is
 *    the profile URL's origin). `rank`: Maigret `alexaRank`. `nsfw`: Sherlock `isNSFW` or a Maigret tag 'porn' or
 *    'nsfw' (written only when true). `tags`: Maigret's tags (Sherlock has none).
 * 4. Duplicates: two entries are one site when their profile URLs share the normalized host
 *    (lower-case, without `www.`) and path pattern (the rest of the URL, lower-case, without a trailing
 *    '/'), or share the host and the normalized name (the id rule below). Of a group the stricter check
 *    is kept: one with both presence and absence markers, then one with an unclaimed name, then
 *    Sherlock's, then the lower rank, then the name. The group's tags are the union (the kept entry's
 *    first), `from` lists every list in it, `rank` is the best Maigret rank, `nsfw` is any member's,
 *    `challenges` are merged, and a member's `regex` stands in when the kept entry has none and it
 *    matches the kept entry's claimed name.
 * 5. `id`: the lower-cased name with every run of characters other than letters, digits, '.' and '-'
 *    folded to one '-' (and none at either end); on a clash the site later in (name, url) order gets
 *    '-2', '-3', ... `category`: the first of CATEGORY_ORDER among its tags (the lists' tags are in
 *    alphabetical order, which would make GitHub 'business'), else the first tag that is not a
 *    two-letter country code, else 'other'.
 *    `india`: the tag 'in' (Maigret's mark of a site with an Indian audience), an id in INDIAN_IDS or
 *    USED_IN_INDIA, a
 *    host under an Indian second-level domain ('.co.in', '.org.in', '.net.in', '.gov.in', '.ac.in',
 *    '.edu.in'), or a plain '.in' host with no other country's tag ('teletype.in', tagged 'ru', is not).
 *    A kept entry without tags or rank (Sherlock's, whose Maigret twin was dropped by rule 2: GitHub,
 *    YouTube, TikTok, ...) takes the twin's tags and rank, matched by rule 4's keys.
 * 6. Output: { built_from, dropped, sites } with sites sorted by id, one site per line, keys in the
 *    order of CatalogueSite, nothing time-dependent: the same inputs always give the same bytes.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const SHERLOCK = join(ROOT, 'data/username-sites/sherlock/data.json');
const MAIGRET = join(ROOT, 'data/username-sites/maigret/data.json');
const DEFAULT_OUT = join(ROOT, 'apps/server/src/providers/sites/catalogue.json');

const CHECK_TYPES = ['status_code', 'message', 'response_url'];
const PLACEHOLDER = '{username}';

/**
 * Indian services of the lists (Sherlock has no tags, and Maigret's 'in' is missing on some); the build
 * fails if one is not in the catalogue, so the list cannot go stale unnoticed.
 */
/** Which tag names a site's category when it has several, most telling first. */
const CATEGORY_ORDER = [
  'social',
  'dating',
  'messaging',
  'video',
  'streaming',
  'photo',
  'music',
  'coding',
  'gaming',
  'forum',
  'blog',
  'news',
  'freelance',
  'shopping',
  'finance',
  'crypto',
  'hacking',
  'education',
  'business',
  'art',
  'design',
  'sharing',
  'tech',
];

/** Second-level domains under '.in' that only Indian registrants use. */
const INDIAN_SECOND_LEVEL = [
  '.co.in',
  '.org.in',
  '.net.in',
  '.gov.in',
  '.ac.in',
  '.edu.in',
  '.firm.in',
  '.gen.in',
  '.ind.in',
];

const isCountry = (tag) => /^[a-z]{2}$/.test(tag);

/** The category rule (5). */
const categoryOf = (tags) =>
  CATEGORY_ORDER.find((category) => tags.includes(category)) ??
  tags.find((tag) => !isCountry(tag)) ??
  'other';

/** The India rule (5). */
const indianOf = (tags, host, id) =>
  tags.includes('in') ||
  INDIAN_IDS.includes(id) ||
  USED_IN_INDIA.includes(id) ||
  INDIAN_SECOND_LEVEL.some((domain) => host.endsWith(domain)) ||
  (host.endsWith('.in') && !tags.some((tag) => isCountry(tag) && tag !== 'in'));

/**
 * Global services with a large Indian audience, where Indian suspects and victims keep accounts: they
 * matter in India though nothing in the lists says so.
 */
const USED_IN_INDIA = [
  'youtube',
  'telegram',
  'quora',
  'pinterest',
  'snapchat',
  'spotify',
  'github',
  'leetcode',
  'hackerrank',
  'codeforces.com',
  'tinder',
  'fiverr',
  'upwork',
];

const INDIAN_IDS = [
  'codechef',
  'community.simplilearn.com',
  'defenceforumindia',
  'geeksfor-geeks',
  'geeksforgeeks',
  'getmyuni',
  'hackerearth',
  'mouthshut',
  'truelancer',
];

/** The order of CatalogueSite's fields, which is the order they are written in. */
const FIELD_ORDER = [
  'id',
  'name',
  'main',
  'url',
  'check',
  'presence',
  'absence',
  'absent_codes',
  'error_url',
  'challenges',
  'claimed',
  'unclaimed',
  'regex',
  'category',
  'tags',
  'india',
  'rank',
  'nsfw',
  'from',
];

const asList = (value) =>
  value === undefined || value === null ? [] : Array.isArray(value) ? value : [value];
const strings = (value) => asList(value).filter((item) => typeof item === 'string' && item.length > 0);
const unique = (items) => [...new Set(items)];

/** Whether a pattern compiles in JavaScript (with the `u` flag, or without). */
export function compiles(pattern) {
  for (const flags of ['u', '']) {
    try {
      new RegExp(pattern, flags);
      return true;
    } catch {}
  }
  return false;
}

export function toId(name) {
  return name
    .toLowerCase()
    .replace(/[^\p{L}\p{N}.-]+/gu, '-')
    .replace(/^-+|-+$/g, '');
}

/** Fills Maigret's `{urlMain}` and `{urlSubpath}`, and turns Sherlock's `{}` into `{username}`. */
function resolveUrl(template, main, subpath) {
  if (typeof template !== 'string' || template.length === 0) return undefined;
  let url = template.replaceAll('{}', PLACEHOLDER);
  const sub = typeof subpath === 'string' ? subpath : '';
  url = url.replaceAll('{urlSubpath}', sub);
  if (url.includes('{urlMain}')) {
    if (typeof main !== 'string' || main.length === 0) return undefined;
    url = url.replace(/\{urlMain\}(\/?)/g, (_all, slash) => (slash ? `${main.replace(/\/+$/, '')}/` : main));
  }
  return url;
}

/** Maigret's engine merge: the engine's fields fill what the site lacks; lists join, dicts merge. */
function withEngine(site, engines) {
  const engine = site.engine === undefined ? undefined : engines[site.engine]?.site;
  if (!engine) return site;
  const merged = { ...site };
  for (const [key, value] of Object.entries(engine)) {
    const own = site[key];
    if (own === undefined) merged[key] = value;
    else if (Array.isArray(own) && Array.isArray(value)) merged[key] = unique([...own, ...value]);
    else if (isPlainObject(own) && isPlainObject(value)) merged[key] = { ...value, ...own };
  }
  return merged;
}

const isPlainObject = (value) => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The parts both lists share, in the catalogue's vocabulary, before the checks of rule 2. */
function fromSherlock(name, raw) {
  const types = asList(raw.errorType).filter((type) => CHECK_TYPES.includes(type));
  const method = raw.request_method;
  return {
    list: 'sherlock',
    name,
    main: raw.urlMain,
    url: resolveUrl(raw.url),
    probe: resolveUrl(raw.urlProbe),
    check: types[0],
    presence: [],
    absence: strings(raw.errorMsg),
    absentCodes: asList(raw.errorCode).filter((code) => Number.isInteger(code)),
    errorUrl: resolveUrl(raw.errorUrl),
    challenges: {},
    claimed: raw.username_claimed,
    unclaimed: undefined,
    regex: raw.regexCheck,
    tags: [],
    rank: undefined,
    nsfw: raw.isNSFW === true,
    disabled: false,
    notUsername: false,
    post:
      (method !== undefined && String(method).toUpperCase() !== 'GET') || raw.request_payload !== undefined,
    headers: raw.headers !== undefined && Object.keys(raw.headers).length > 0,
    protocol: undefined,
  };
}

function fromMaigret(name, original, engines) {
  const raw = withEngine(original, engines);
  const url = (field) => resolveUrl(raw[field], raw.urlMain, raw.urlSubpath);
  const tags = strings(raw.tags);
  const method = raw.requestMethod;
  return {
    list: 'maigret',
    name,
    main: raw.urlMain,
    url: url('url'),
    probe: url('urlProbe'),
    check: CHECK_TYPES.includes(raw.checkType) ? raw.checkType : undefined,
    presence: unique([...strings(raw.presenseStrs), ...strings(raw.presenceStrs)]),
    absence: strings(raw.absenceStrs),
    absentCodes: [],
    errorUrl: url('errorUrl'),
    challenges: isPlainObject(raw.errors) ? raw.errors : {},
    claimed: raw.usernameClaimed,
    unclaimed: typeof raw.usernameUnclaimed === 'string' ? raw.usernameUnclaimed : undefined,
    regex: raw.regexCheck,
    tags,
    rank: Number.isInteger(raw.alexaRank) && raw.alexaRank > 0 ? raw.alexaRank : undefined,
    nsfw: tags.includes('porn') || tags.includes('nsfw'),
    disabled: raw.disabled === true,
    notUsername: raw.type !== undefined && raw.type !== 'username',
    post:
      (method !== undefined && String(method).toUpperCase() !== 'GET') || raw.requestPayload !== undefined,
    headers: isPlainObject(raw.headers) && Object.keys(raw.headers).length > 0,
    protocol: raw.protocol,
  };
}

/** Rule 2: why an entry cannot be kept, or undefined when it can. */
function dropReason(entry) {
  if (entry.disabled) return 'disabled';
  if (entry.notUsername) return 'not_username';
  if (entry.post) return 'post_or_payload';
  if (entry.headers) return 'custom_headers';
  if (entry.probe !== undefined && entry.probe !== entry.url) return 'url_probe';
  if (entry.protocol !== undefined || !/^https?:\/\/[^/?#\s]+/i.test(entry.url ?? '')) return 'url_not_http';
  if (entry.url.split(PLACEHOLDER).length !== 2) return 'url_username';
  if (entry.check === undefined) return 'unknown_check';
  if (entry.check === 'message' && entry.presence.length + entry.absence.length === 0) return 'no_marker';
  if (typeof entry.claimed !== 'string' || entry.claimed.length === 0) return 'no_claimed';
  return undefined;
}

/** Rule 4's keys: the normalized host with the path pattern, and with the normalized name. */
function dedupKeys(entry) {
  const match = /^https?:\/\/([^/?#]+)(.*)$/i.exec(entry.url);
  const host = match[1].toLowerCase().replace(/^www\./, '');
  const path = match[2].toLowerCase().replace(/\/+$/, '');
  return [`path ${host}${path}`, `name ${host} ${toId(entry.name)}`];
}

/** Groups entries that share a key (union-find over the keys), in input order. */
function groupDuplicates(entries) {
  const parent = entries.map((_entry, index) => index);
  const find = (index) => {
    while (parent[index] !== index) {
      parent[index] = parent[parent[index]];
      index = parent[index];
    }
    return index;
  };
  const firstWithKey = new Map();
  entries.forEach((entry, index) => {
    for (const key of dedupKeys(entry)) {
      const other = firstWithKey.get(key);
      if (other === undefined) firstWithKey.set(key, index);
      else parent[find(index)] = find(other);
    }
  });
  const groups = new Map();
  entries.forEach((entry, index) => {
    const root = find(index);
    groups.set(root, [...(groups.get(root) ?? []), entry]);
  });
  return [...groups.values()];
}

/** Rule 4's order: the entry to keep comes first. */
function stricterFirst(a, b) {
  const score = (entry) =>
    (entry.presence.length > 0 && entry.absence.length > 0 ? 2 : 0) + (entry.unclaimed ? 1 : 0);
  return (
    score(b) - score(a) ||
    (a.list === b.list ? 0 : a.list === 'sherlock' ? -1 : 1) ||
    (a.rank ?? Number.MAX_SAFE_INTEGER) - (b.rank ?? Number.MAX_SAFE_INTEGER) ||
    compare(a.name, b.name) ||
    compare(a.url, b.url)
  );
}

const compare = (a, b) => (a < b ? -1 : a > b ? 1 : 0);

function regexFor(kept, group) {
  if (typeof kept.regex === 'string' && compiles(kept.regex)) return kept.regex;
  for (const other of group) {
    if (typeof other.regex !== 'string' || !compiles(other.regex)) continue;
    if (allows(other.regex, kept.claimed)) return other.regex;
  }
  return undefined;
}

function allows(pattern, username) {
  try {
    return new RegExp(pattern, 'u').test(username);
  } catch {
    return new RegExp(pattern).test(username);
  }
}

/** urlMain as an http(s) address: 'http:/x' repaired, a bare host given the profile URL's scheme. */
function mainUrl(main, url) {
  const scheme = /^(https?):/i.exec(url)[1].toLowerCase();
  if (typeof main !== 'string' || main.trim().length === 0) return /^https?:\/\/[^/?#]+/i.exec(url)[0];
  const fixed = main.trim().replace(/^(https?):\/*/i, '$1://');
  return /^https?:\/\//i.test(fixed) ? fixed : `${scheme}://${fixed.replace(/^\/+/, '')}`;
}

/** One catalogue site from a group of duplicates (rules 3 to 5, but the id's clash suffix). */
function toSite(group, twins) {
  const [kept] = [...group].sort(stricterFirst);
  const borrowed = group.some((entry) => entry.tags.length > 0 || entry.rank !== undefined)
    ? []
    : [...new Set(dedupKeys(kept).flatMap((key) => twins.get(key) ?? []))];
  const tags = unique([
    ...kept.tags,
    ...group.flatMap((entry) => entry.tags),
    ...borrowed.flatMap((twin) => twin.tags),
  ]);
  const ranks = [...group, ...borrowed].map((entry) => entry.rank).filter((rank) => rank !== undefined);
  const challenges = Object.assign({}, ...group.map((entry) => entry.challenges).reverse());
  const host = /^https?:\/\/([^/?#]+)/i.exec(kept.url)[1].toLowerCase();
  const id = toId(kept.name);
  const site = {
    id,
    name: kept.name,
    main: mainUrl(kept.main, kept.url),
    url: kept.url,
    check: kept.check,
    presence: kept.check === 'message' && kept.presence.length > 0 ? kept.presence : undefined,
    absence: kept.check === 'message' && kept.absence.length > 0 ? kept.absence : undefined,
    absent_codes: kept.check === 'status_code' && kept.absentCodes.length > 0 ? kept.absentCodes : undefined,
    error_url: kept.check === 'response_url' ? kept.errorUrl : undefined,
    challenges: Object.keys(challenges).length > 0 ? challenges : undefined,
    claimed: kept.claimed,
    unclaimed: kept.unclaimed,
    regex: regexFor(kept, group),
    category: categoryOf(tags),
    tags,
    india: indianOf(tags, host, id),
    rank: ranks.length > 0 ? Math.min(...ranks) : undefined,
    nsfw: group.some((entry) => entry.nsfw) ? true : undefined,
    from: ['sherlock', 'maigret'].filter((list) => group.some((entry) => entry.list === list)),
  };
  return Object.fromEntries(
    FIELD_ORDER.filter((key) => site[key] !== undefined).map((key) => [key, site[key]]),
  );
}

/** Rule 5's clash suffix: the first of each id in (name, url) order keeps it. */
function uniqueIds(sites) {
  const ordered = [...sites].sort((a, b) => compare(a.name, b.name) || compare(a.url, b.url));
  const taken = new Set(ordered.map((site) => site.id));
  const seen = new Set();
  for (const site of ordered) {
    if (!seen.has(site.id)) {
      seen.add(site.id);
      continue;
    }
    let n = 2;
    while (taken.has(`${site.id}-${n}`)) n += 1;
    site.id = `${site.id}-${n}`;
    taken.add(site.id);
  }
  return ordered.sort((a, b) => compare(a.id, b.id));
}

/** The catalogue's text from the two lists' parsed data.json. */
export function buildCatalogue(sherlock, maigret) {
  const sherlockSites = Object.entries(sherlock).filter(
    ([name, raw]) => name !== '$schema' && isPlainObject(raw),
  );
  const maigretSites = Object.entries(maigret.sites);
  const entries = [
    ...sherlockSites.map(([name, raw]) => fromSherlock(name, raw)),
    ...maigretSites.map(([name, raw]) => fromMaigret(name, raw, maigret.engines ?? {})),
  ];
  const dropped = {};
  const count = (reason, n = 1) => {
    dropped[reason] = (dropped[reason] ?? 0) + n;
  };
  // Dropped Maigret entries with a usable URL, by rule 4's keys: their tags and rank stand in for a
  // kept Sherlock twin's, which has none.
  const twins = new Map();
  const kept = entries.filter((entry) => {
    const reason = dropReason(entry);
    if (reason !== undefined) count(reason);
    if (reason !== undefined && entry.list === 'maigret' && /^https?:\/\/[^/?#\s]+/i.test(entry.url ?? '')) {
      for (const key of dedupKeys(entry)) twins.set(key, [...(twins.get(key) ?? []), entry]);
    }
    return reason === undefined;
  });
  const groups = groupDuplicates(kept);
  for (const group of groups) if (group.length > 1) count('duplicate', group.length - 1);
  const sites = uniqueIds(groups.map((group) => toSite(group, twins)));
  return render({
    built_from: { sherlock: { sites: sherlockSites.length }, maigret: { sites: maigretSites.length } },
    dropped: Object.fromEntries(Object.entries(dropped).sort(([a], [b]) => compare(a, b))),
    sites,
  });
}

/** JSON with one site per line, so a change of the lists reads as a change of lines. */
function render({ built_from, dropped, sites }) {
  const lines = sites.map(
    (site, index) => `    ${JSON.stringify(site)}${index < sites.length - 1 ? ',' : ''}`,
  );
  return [
    '{',
    `  "built_from": ${JSON.stringify(built_from)},`,
    `  "dropped": ${JSON.stringify(dropped)},`,
    '  "sites": [',
    ...lines,
    '  ]',
    '}',
    '',
  ].join('\n');
}

function main(argv) {
  const check = argv.includes('--check');
  const outAt = argv.indexOf('--out');
  if (outAt !== -1 && !argv[outAt + 1]) throw new Error('--out needs a path');
  const out = outAt === -1 ? DEFAULT_OUT : resolve(argv[outAt + 1]);
  const text = buildCatalogue(
    JSON.parse(readFileSync(SHERLOCK, 'utf8')),
    JSON.parse(readFileSync(MAIGRET, 'utf8')),
  );
  const ids = new Set(JSON.parse(text).sites.map((site) => site.id));
  const missing = [...INDIAN_IDS, ...USED_IN_INDIA].filter((id) => !ids.has(id));
  if (missing.length > 0)
    throw new Error(`INDIAN_IDS or USED_IN_INDIA name ids the catalogue lacks: ${missing.join(', ')}`);
  if (!check) {
    writeFileSync(out, text);
    console.log(`wrote ${out}`);
    return 0;
  }
  let current;
  try {
    current = readFileSync(out, 'utf8');
  } catch {
    current = undefined;
  }
  if (current === text) {
    console.log(`${out} is up to date`);
    return 0;
  }
  console.error(`${out} differs from the build: run npm run catalogue:username`);
  return 1;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = main(process.argv.slice(2));
}
