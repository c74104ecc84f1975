/**
 * The username site catalogue: catalogue.json beside this file, built from the MIT-licensed Sherlock
 * and Maigret site lists by scripts/build-username-catalogue.mjs (`npm run catalogue:username`; its
 * header comment holds the rules). Read once, validated, and kept. The server's build copies
 * catalogue.json and LICENSES/ into dist/sites/, beside the bundle, so both places are looked in.
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { type CatalogueSite, SITE_CHECK_TYPES, SITE_LISTS, type SiteList } from '@footprint/domain';
import { z } from 'zod';

/** The folder that holds catalogue.json and LICENSES/: beside the source, or dist/sites/ beside the bundle. */
const folder = [new URL('./', import.meta.url), new URL('./sites/', import.meta.url)]
  .map((url) => fileURLToPath(url))
  .find((path) => existsSync(`${path}catalogue.json`));

const markers = z.array(z.string().min(1)).min(1);

const siteSchema = z
  .object({
    id: z
      .string()
      .regex(/^[\p{L}\p{N}.-]+$/u)
      .refine((id) => id === id.toLowerCase(), 'lower-case'),
    name: z.string().min(1),
    main: z.string().regex(/^https?:\/\//),
    url: z
      .string()
      .regex(/^https?:\/\/[^/?#\s]+/)
      .refine((url) => url.split('{username}').length === 2, 'holds {username} exactly once'),
    check: z.enum(SITE_CHECK_TYPES),
    presence: markers.optional(),
    absence: markers.optional(),
    absent_codes: z.array(z.number().int().min(100).max(599)).min(1).optional(),
    error_url: z.string().min(1).optional(),
    challenges: z.record(z.string(), z.string()).optional(),
    claimed: z.string().min(1),
    unclaimed: z.string().min(1).optional(),
    regex: z
      .string()
      .refine((pattern) => compile(pattern) !== undefined, 'compiles')
      .optional(),
    category: z.string().min(1),
    tags: z.array(z.string().min(1)),
    india: z.boolean(),
    rank: z.number().int().positive().optional(),
    nsfw: z.boolean().optional(),
    from: z.array(z.enum(SITE_LISTS)).min(1),
  })
  .strict()
  .refine(
    (site) => site.check !== 'message' || (site.presence?.length ?? 0) + (site.absence?.length ?? 0) > 0,
    'a message check needs a presence or an absence marker',
  ) satisfies z.ZodType<CatalogueSite>;

const catalogueSchema = z
  .object({
    built_from: z.object({
      sherlock: z.object({ sites: z.number().int().nonnegative() }),
      maigret: z.object({ sites: z.number().int().nonnegative() }),
    }),
    dropped: z.record(z.string(), z.number().int().nonnegative()),
    sites: z.array(siteSchema),
  })
  .strict();

export interface SiteCatalogue {
  sites: readonly CatalogueSite[];
  byId: ReadonlyMap<string, CatalogueSite>;
  /** How many sites each list held. */
  builtFrom: Readonly<Record<SiteList, { sites: number }>>;
  /** Entries of the lists left out, per reason (the build script's rule 2), merged duplicates included. */
  dropped: Readonly<Record<string, number>>;
}

const cached = new Map<string, SiteCatalogue>();

/**
 * The catalogue, read and validated on the first call and kept: the shipped one, or the file an
 * operator names instead (SITE_CHECK_CATALOGUE, same format). Throws if the file is missing or malformed.
 */
export function loadCatalogue(path?: string): SiteCatalogue {
  const file = path ?? (folder ? `${folder}catalogue.json` : undefined);
  if (!file) throw new Error('The username site catalogue (catalogue.json) is missing beside the server.');
  const known = cached.get(file);
  if (known) return known;
  const parsed = catalogueSchema.parse(JSON.parse(readFileSync(file, 'utf8')));
  const byId = new Map<string, CatalogueSite>();
  for (const site of parsed.sites) {
    if (byId.has(site.id)) throw new Error(`The username site catalogue holds the id '${site.id}' twice.`);
    byId.set(site.id, site);
  }
  const catalogue = { sites: parsed.sites, byId, builtFrom: parsed.built_from, dropped: parsed.dropped };
  cached.set(file, catalogue);
  return catalogue;
}

/** The site's profile address for a username, the name percent-encoded (`a b/c` → `a%20b%2Fc`). */
export function profileUrl(site: Pick<CatalogueSite, 'url'>, username: string): string {
  return site.url.replace('{username}', () => encodeURIComponent(username));
}

const compiled = new Map<string, RegExp | undefined>();

/** A pattern as the build script compiles it: with the `u` flag, else without; undefined if neither. */
function compile(pattern: string): RegExp | undefined {
  if (compiled.has(pattern)) return compiled.get(pattern);
  let regex: RegExp | undefined;
  for (const flags of ['u', '']) {
    try {
      regex = new RegExp(pattern, flags);
      break;
    } catch {}
  }
  compiled.set(pattern, regex);
  return regex;
}

/** Whether the site's `regex` compiles in neither way (the shipped catalogue holds none such). */
export const sitePatternBroken = (site: Pick<CatalogueSite, 'regex'>): boolean =>
  site.regex !== undefined && compile(site.regex) === undefined;

/** Whether the site allows the username (its `regex`); a site without one allows every name. */
export function siteAllows(site: Pick<CatalogueSite, 'regex'>, username: string): boolean {
  if (site.regex === undefined) return true;
  return compile(site.regex)?.test(username) ?? false;
}

/** The licences of the two site lists, shipped with the server beside the catalogue. */
export const SITE_LIST_LICENCES: readonly { list: SiteList; copyright: string; path: string }[] = [
  { list: 'sherlock', copyright: 'Copyright (c) 2019 Sherlock Project', path: licencePath('sherlock') },
  { list: 'maigret', copyright: 'Copyright (c) 2020-2026 Soxoj', path: licencePath('maigret') },
];

function licencePath(list: SiteList): string {
  return `${folder ?? fileURLToPath(new URL('./', import.meta.url))}LICENSES/${list}.txt`;
}
