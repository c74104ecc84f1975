/**
 * A fake People Data Labs Person Enrichment API v5 (GET …/person/enrich?email=…) speaking the
 * documented wire format: {status: 200, likelihood, data: Person} with scheme-less URLs and
 * 'YYYY-MM' dates, lower-cased text unless `titlecase=true`, and the error body
 * {status, error: {type, message}} for 400, 401 and 404.
 *
 * Deterministic: the person is the sandbox persona of the address (same name, city, employer and
 * schools as the other sandbox sources), and each address has a fixed match likelihood (3–10): below
 * the request's `min_likelihood` (PDL's default 2) the answer is 404, as PDL does. The sandbox's
 * empty demo address never matches; the rich demo address always matches with likelihood 10.
 * With `plan: 'free'` the contact fields are true/false instead of values, as on PDL's free plan.
 */
import type { ServerResponse } from 'node:http';
import { DEMO, emailPersona } from '../../src/sandbox/providers/demo.ts';
import type { Persona } from '../../src/sandbox/providers/persona.ts';
import { hashFraction } from '../../src/sandbox/random.ts';
import { type RecordedRequest, sendJson } from '../support/upstream.ts';

export const PDL_FAKE_KEY = 'pdl-fake-key';

export interface PdlFakeOptions {
  /** The key the fake accepts in `X-Api-Key` (or the `api_key` parameter). */
  apiKey?: string;
  /** The match likelihood of an address, or null for "no record at all". */
  likelihood?: (email: string) => number | null;
  /** 'free' hides contact fields behind true/false. */
  plan?: 'pro' | 'free';
}

/** The default: the demo addresses fixed, every other address 3–10 from a hash of it. */
export function defaultLikelihood(email: string): number | null {
  if (email === DEMO.emptyEmail) return null;
  if (email === DEMO.richEmail) return 10;
  return 3 + Math.floor(hashFraction(`pdl:${email}`) * 8);
}

const error = (res: ServerResponse, status: number, type: string, message: string) =>
  sendJson(res, status, { status, error: { type, message } });

/** 'https://www.nimbuslane.example.com' → 'nimbuslane.example.com', as PDL writes websites. */
const bare = (url: string | undefined) => (url ? url.replace(/^https?:\/\/(www\.)?/, '') : null);
const lower = (s: string) => s.toLowerCase();
const slugOf = (p: Persona) =>
  `${lower(p.firstName)}-${lower(p.lastName)}-${Math.floor(hashFraction(`slug:${p.seed}`) * 36 ** 6).toString(36)}`;

/** The Person record PDL would hold for this persona (PDL writes text in lower case). */
export function fakePdlPerson(email: string, persona: Persona, plan: 'pro' | 'free' = 'pro') {
  const p = persona;
  const slug = slugOf(p);
  const username = p.usernames[0] ?? slug;
  const place = `${lower(p.city.city)}, ${lower(p.city.state)}, india`;
  const phones = p.otherMobiles.slice(0, 2).map((n) => `+91${n}`);
  const current = p.positions[0];
  const contact = <T>(v: T) => (plan === 'free' ? (Array.isArray(v) ? v.length > 0 : v !== null) : v);
  return {
    id: `fake${slug.replace(/\W/g, '')}_0000`,
    full_name: lower(p.fullName),
    first_name: lower(p.firstName),
    middle_name: lower(p.middleName),
    last_name: lower(p.lastName),
    sex: lower(p.gender),
    birth_year: Number(p.dob.slice(0, 4)),
    linkedin_url: `linkedin.example.test/in/${slug}`,
    linkedin_username: slug,
    headline: current ? lower(`${current.title} at ${current.company}`) : null,
    facebook_url: null,
    twitter_url: `twitter.example.test/${username}`,
    github_url: null,
    work_email: contact(current ? `${lower(p.firstName)}@${bare(current.url)}` : null),
    personal_emails: contact([email]),
    emails: contact([{ address: email, type: 'personal' }]),
    mobile_phone: contact(phones[0] ?? null),
    phone_numbers: contact(phones),
    industry: p.sector,
    job_title: current ? lower(current.title) : null,
    job_company_name: current ? lower(current.company) : null,
    job_company_website: bare(current?.url),
    job_start_date: current ? String(current.startYear) : null,
    location_name: contact(place),
    location_locality: contact(lower(p.city.city)),
    location_region: contact(lower(p.city.state)),
    location_country: 'india',
    location_names: contact([place, `${lower(p.hometown.city)}, ${lower(p.hometown.state)}, india`]),
    skills: p.skills.map(lower),
    interests: [],
    experience: p.positions.map((job, i) => ({
      company: { name: lower(job.company), website: bare(job.url), linkedin_url: null, size: null },
      title: { name: lower(job.title), role: null, levels: [] },
      start_date: `${job.startYear}-0${(i % 9) + 1}`,
      end_date: job.endYear === undefined ? null : `${job.endYear}-0${(i % 9) + 1}`,
      is_primary: i === 0,
      location_names: [],
    })),
    education: p.education.map((e) => ({
      school: { name: lower(e.school), type: 'post-secondary institution', website: bare(e.url) },
      degrees: [lower(e.degree)],
      majors: [lower(e.field)],
      minors: [],
      start_date: String(e.startYear),
      end_date: String(e.endYear),
      gpa: null,
    })),
    profiles: [
      { network: 'linkedin', url: `linkedin.example.test/in/${slug}`, username: slug, id: null },
      { network: 'twitter', url: `twitter.example.test/${username}`, username, id: null },
      { network: 'github', url: `github.example.test/${username}`, username, id: null },
    ],
  };
}

/** PDL's titlecase=true, as the fake plays it: every word of the text values capitalized, links and ids kept. */
function titleCased(value: unknown, key = ''): unknown {
  if (typeof value === 'string')
    return /url|website|email|address|username|network|type|^id$/.test(key)
      ? value
      : value.replace(/\b[a-z]/g, (c) => c.toUpperCase());
  if (Array.isArray(value)) return value.map((v) => titleCased(v, key));
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, titleCased(v, k)]));
  return value;
}

/** A node handler for startFakeUpstream that answers like PDL's Person Enrichment endpoint. */
export function pdlFake(options: PdlFakeOptions = {}) {
  const apiKey = options.apiKey ?? PDL_FAKE_KEY;
  const likelihoodOf = options.likelihood ?? defaultLikelihood;
  const plan = options.plan ?? 'pro';

  return (req: RecordedRequest, res: ServerResponse): void => {
    const url = new URL(req.url, 'http://fake.invalid');
    const params = url.searchParams;
    if ((req.headers['x-api-key'] ?? params.get('api_key')) !== apiKey) {
      error(res, 401, 'authentication_error', 'Invalid API key');
      return;
    }
    if (!url.pathname.endsWith('/person/enrich')) {
      error(res, 404, 'not_found', 'Unknown endpoint');
      return;
    }
    if (req.method !== 'GET') {
      error(res, 405, 'invalid_request_error', 'Request method is not allowed on the requested resource');
      return;
    }
    const email = params.get('email')?.trim().toLowerCase();
    const minLikelihood = Number(params.get('min_likelihood') ?? '2');
    if (!email || !Number.isInteger(minLikelihood) || minLikelihood < 0 || minLikelihood > 10) {
      error(res, 400, 'invalid_request_error', 'Request contained either missing or invalid parameters');
      return;
    }
    const likelihood = likelihoodOf(email);
    if (likelihood === null || likelihood < minLikelihood) {
      error(res, 404, 'not_found', 'No records were found matching your request');
      return;
    }
    const person = fakePdlPerson(email, emailPersona(email), plan);
    const data = params.get('titlecase') === 'true' ? titleCased(person) : person;
    sendJson(res, 200, { status: 200, likelihood, data });
  };
}
