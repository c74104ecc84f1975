/**
 * People Data Labs Person Enrichment API v5, by e-mail → getuserData (the person card of an e-mail
 * lookup: name, headline, places, phones, positions, schools, skills, other accounts).
 *
 * Checked against PDL's OpenAPI file (peopledatalabs/openAPI-specifications pdl-specs.json), its
 * JS SDK types (peopledatalabs/peopledatalabs-js src/types) and docs.peopledatalabs.com (Reference,
 * Output Response, Person Schema, Example Person Record, Errors & Status Codes):
 * - GET /person/enrich?email=… with the key in `X-Api-Key`; `min_likelihood` is an integer 0–10
 *   (PDL's default 2), `titlecase=true` title-cases the person data of a 200 (default: lower case).
 * - 200 is {status: 200, likelihood: 1–10, data: Person}; absent fields are null. URLs come without
 *   a scheme ('linkedin.com/in/…', websites as bare domains); dates are 'YYYY', 'YYYY-MM' or
 *   'YYYY-MM-DD'. On free plans contact fields (phone_numbers, mobile_phone, location_* …) are
 *   `true`/`false` in place of the value (Person Schema page; the SDK types them `string | boolean`).
 * - 404 {status: 404, error: {type: 'not_found', message}} is "no match at this likelihood" and is
 *   not billed; other errors share that body: 400, 401, 402 (out of credits), 405, 429, 5xx.
 */
import type { Education, LinkedPersonData, Position, SocialProfile } from '@footprint/domain';
import { z } from 'zod';
import {
  type Provider,
  SourceFailedError,
  SourceMisconfiguredError,
  SourceNotFoundError,
  type VendorInfo,
} from '../types.ts';
import { baseUrl, defineVendor, secret } from '../vendor.ts';
import { parseVendorBody, vendorFetch } from './fetch-json.ts';

export interface PdlConfig {
  apiKey: string;
  baseUrl: string;
  /** Matches below this likelihood (1–10) come back as 404, unbilled. */
  minLikelihood: number;
}

/**
 * Our default min_likelihood. PDL's own default (2) lets weak matches through; on an investigator's
 * screen a stranger's career is worse than no card, and a miss costs nothing.
 */
export const PDL_DEFAULT_MIN_LIKELIHOOD = 6;

/** A full person record is tens of kilobytes; this leaves room for long careers, not for abuse. */
export const PDL_MAX_BYTES = 2 * 1024 * 1024;

const text = z.string().nullish();
/** A contact field a free plan replaces with true/false ("we have one"). */
const hidden = z.union([z.string(), z.boolean()]).nullish();
const texts = z.array(z.string()).nullish();
const hiddenTexts = z.union([z.array(z.string()), z.boolean()]).nullish();

/** The documented fields that are read, each checked for its type; the rest of the record is dropped. */
const experience = z.object({
  company: z.object({ name: text, website: text }).nullish(),
  title: z.object({ name: text }).nullish(),
  start_date: text,
  end_date: text,
  is_primary: z.boolean().nullish(),
});

const education = z.object({
  school: z.object({ name: text, website: text }).nullish(),
  degrees: texts,
  majors: texts,
  start_date: text,
  end_date: text,
});

const profile = z.object({ network: text, url: text, username: text });

const person = z.object({
  full_name: text,
  first_name: text,
  last_name: text,
  headline: text,
  job_title: text,
  job_company_name: text,
  linkedin_url: text,
  location_name: hidden,
  location_locality: hidden,
  location_region: hidden,
  location_country: text,
  location_names: hiddenTexts,
  mobile_phone: hidden,
  phone_numbers: hiddenTexts,
  skills: texts,
  experience: z.array(experience).nullish(),
  education: z.array(education).nullish(),
  profiles: z.array(profile).nullish(),
});

const enrichment = z.object({
  status: z.literal(200),
  likelihood: z.number().int().min(0).max(10),
  data: person,
});

type Person = z.infer<typeof person>;
type Dates = { start_date?: string | null; end_date?: string | null };

/** A value, or null for null, '' and a free plan's true/false. */
const value = (v: string | boolean | null | undefined): string | null =>
  typeof v === 'string' && v.trim() ? v.trim() : null;
const values = (v: string[] | boolean | null | undefined): string[] =>
  Array.isArray(v) ? v.map(value).filter((s): s is string => s !== null) : [];

/** PDL's scheme-less URLs ('github.com/x') as https links; another scheme (javascript:) is dropped. */
export function withScheme(url: string | null | undefined): string | null {
  const bare = value(url);
  if (!bare) return null;
  if (/^https?:\/\//i.test(bare)) return bare;
  return /^[a-z][a-z\d+.-]*:/i.test(bare) ? null : `https://${bare}`;
}

/** The year of 'YYYY', 'YYYY-MM' or 'YYYY-MM-DD'. */
const yearOf = (date: string | null | undefined) => {
  const match = /^(\d{4})\b/.exec(date ?? '');
  return match ? { year: Number(match[1]) } : null;
};

const span = ({ start_date, end_date }: Dates) => ({
  start: yearOf(start_date),
  end: yearOf(end_date),
});

const titleAt = (title: string | null, company: string | null) =>
  title && company ? `${title} at ${company}` : title;

/** The current job first, then the most recent start ('2019-05' sorts after '2019'). */
function byRecency(a: z.infer<typeof experience>, b: z.infer<typeof experience>): number {
  if (Boolean(a.is_primary) !== Boolean(b.is_primary)) return a.is_primary ? -1 : 1;
  return (b.start_date ?? '').localeCompare(a.start_date ?? '');
}

function toPosition(job: z.infer<typeof experience>): Position {
  return {
    title: value(job.title?.name),
    companyName: value(job.company?.name),
    companyUrl: withScheme(job.company?.website),
    startEndDate: span(job),
  };
}

function toEducation(school: z.infer<typeof education>): Education {
  return {
    schoolName: value(school.school?.name),
    degreeName: values(school.degrees).join(', ') || null,
    fieldOfStudy: values(school.majors).join(', ') || null,
    schoolUrl: withScheme(school.school?.website),
    startEndDate: span(school),
  };
}

/** 'linkedin.com/in/x/' and 'https://www.linkedin.com/in/x' are the same profile. */
const sameUrl = (a: string | null, b: string | null) => {
  const key = (url: string | null) =>
    url
      ?.toLowerCase()
      .replace(/^https?:\/\/(www\.)?/, '')
      .replace(/\/+$/, '');
  return a !== null && b !== null && key(a) === key(b);
};

/** The record as the LinkedIn-style person card. PDL has no photos: `photoUrl` stays null. */
export function toLinkedPerson(found: Person): LinkedPersonData {
  const linkedInUrl = withScheme(found.linkedin_url);
  const place = [found.location_locality, found.location_region, found.location_country].map(value);
  const phones = [...values(found.phone_numbers), value(found.mobile_phone)].filter((p): p is string => !!p);
  const profiles: SocialProfile[] = (found.profiles ?? [])
    .map((account) => ({
      network: value(account.network),
      url: withScheme(account.url),
      username: value(account.username),
    }))
    .filter((account) => (account.network || account.url) && !sameUrl(account.url, linkedInUrl));
  return {
    person: {
      displayName:
        value(found.full_name) ??
        ([value(found.first_name), value(found.last_name)].filter(Boolean).join(' ') || null),
      location: value(found.location_name) ?? (place.filter(Boolean).join(', ') || null),
      locationHistory: values(found.location_names),
      phoneNumbers: [...new Set(phones)],
      linkedInUrl,
      photoUrl: null,
      headline: value(found.headline) ?? titleAt(value(found.job_title), value(found.job_company_name)),
      schools: { educationHistory: (found.education ?? []).map(toEducation) },
      positions: { positionHistory: [...(found.experience ?? [])].sort(byRecency).map(toPosition) },
      skills: values(found.skills),
      profiles,
    },
  };
}

/** The enrichment URL: the address, our likelihood floor, and title-cased names for display. */
export function enrichUrl(config: PdlConfig, email: string): string {
  const params = new URLSearchParams({
    email,
    min_likelihood: String(config.minLikelihood),
    titlecase: 'true',
  });
  return `${config.baseUrl}/person/enrich?${params}`;
}

/** People Data Labs answering getuserData for e-mail lookups. 404 is "no match", 402 "no credits". */
export function pdlProvider(config: PdlConfig, vendor?: VendorInfo): Provider {
  return {
    id: 'pdl:getuserData',
    source: 'getuserData',
    kinds: ['email'],
    sandbox: false,
    vendor,
    async fetch(query, signal) {
      let res: Awaited<ReturnType<typeof vendorFetch>>;
      try {
        res = await vendorFetch(enrichUrl(config, query.value), {
          vendor: 'People Data Labs',
          method: 'GET',
          signal,
          maxBytes: PDL_MAX_BYTES,
          headers: { 'x-api-key': config.apiKey, accept: 'application/json' },
        });
      } catch (error) {
        // Out of credits: only the operator can fix it, so flag it like a refused key.
        if (error instanceof SourceFailedError && error.status === 402)
          throw new SourceMisconfiguredError('People Data Labs: the account is out of credits (402)', 402);
        throw error;
      }
      if (res.status === 404)
        throw new SourceNotFoundError(
          'No People Data Labs match for this address at the required likelihood.',
        );
      const answer = parseVendorBody(enrichment, res.body, 'People Data Labs', res.status);
      return toLinkedPerson(answer.data);
    },
  };
}

/** An integer variable where unset and empty both mean the default. */
const likelihood = z.preprocess(
  (v) => (typeof v === 'string' && v.trim() === '' ? undefined : v),
  z.coerce.number().int().min(1).max(10).default(PDL_DEFAULT_MIN_LIKELIHOOD),
);

/**
 * People Data Labs: the person card behind an e-mail address (getuserData): positions, schools,
 * skills, places and other accounts. On when PDL_API_KEY is set.
 */
export const pdl = defineVendor({
  id: 'pdl',
  name: 'People Data Labs',
  prefix: 'PDL',
  currency: 'USD',
  env: z.object({
    PDL_API_KEY: secret().describe('People Data Labs API key (`X-Api-Key`). Turns on getuserData.'),
    PDL_BASE_URL: baseUrl('https://api.peopledatalabs.com/v5').describe('People Data Labs API base URL.'),
    PDL_MIN_LIKELIHOOD: likelihood.describe(
      `Lowest match likelihood (1–10) People Data Labs may answer with; weaker matches are "not found" and not billed. Default ${PDL_DEFAULT_MIN_LIKELIHOOD} (PDL's own default, 2, admits weak matches).`,
    ),
  }),
  configure: (env) =>
    env.PDL_API_KEY
      ? { apiKey: env.PDL_API_KEY, baseUrl: env.PDL_BASE_URL, minLikelihood: env.PDL_MIN_LIKELIHOOD }
      : undefined,
  providers: (config, vendor) => [pdlProvider(config, vendor)],
});
