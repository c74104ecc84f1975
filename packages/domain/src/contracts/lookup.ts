import { z } from 'zod';
import { SOURCE_MODES, SOURCE_STATES } from '../catalogue/sources.ts';
import { SITE_STATES } from '../username/sites.ts';
import { isoTimestamp, openObject } from './common.ts';

/**
 * Responses of the paid lookups. Their request schemas are `telQuery`, `emailQuery`,
 * `rcDetailsRequest`, `upiDetailsRequest` and `challanRequest`. The sources' answers are the
 * vendors' payloads, kept open: only what this server adds is fixed.
 */

/** What every lookup answer carries besides the sources' payloads. */
const lookupMeta = {
  credits: z.number().int().describe('The balance after this lookup.'),
  lookup_id: z.string().describe('The id of this lookup (history, reports).'),
  cached: z.boolean().describe('Served free from an identical lookup of the same user.'),
  sandbox: z.boolean().describe('True when any payload is synthetic sandbox data.'),
  source_status: z
    .record(
      z.string(),
      z.object({
        status: z.enum(SOURCE_STATES).describe('What became of the source in this answer.'),
        mode: z.enum(SOURCE_MODES).describe('Who answers it: a live vendor, the sandbox, or nobody.'),
        vendor: z.string().optional().describe('The vendor behind a live source.'),
        message: z.string().optional().describe('Why there is no payload.'),
      }),
    )
    .describe(
      'Every source of the lookup: ok, not_found, not_configured, rate_limited, failed or timed_out, and whether it is live or sandbox.',
    ),
  answered_at: isoTimestamp.describe(
    'When the sources answered. For a reused answer (`cached`), the time of the paid lookup it replays, not of this request.',
  ),
  reused_from: z
    .object({
      lookup_id: z.string().describe('The paid lookup whose stored answer this one replays.'),
      case_reference: z.string().nullable().describe("That lookup's case reference."),
    })
    .nullable()
    .describe('The paid lookup this answer reuses; null when the sources were asked for this answer.'),
};

/** Per source that did not answer, the reason. */
const sourceErrors = z
  .record(z.string(), z.string())
  .describe('Per source that did not answer, why (timed out, no record, ...).');

/**
 * GET /api/tel: one key per phone source that answered (its payload as the vendor gave it), the
 * failures under `errors`, and the lookup's own fields.
 */
export const telResponse = z.looseObject({ errors: sourceErrors, ...lookupMeta }).meta({
  id: 'PhoneLookup',
  description: 'One key per phone source that answered, holding its payload, plus the fields below.',
});

/** GET /api/email: the sources' payloads and failures under `data`. */
export const emailResponse = z
  .object({
    data: z
      .looseObject({ errors: sourceErrors })
      .describe('One key per e-mail source that answered, holding its payload, plus `errors`.'),
    ...lookupMeta,
  })
  .meta({ id: 'EmailLookup' });

const siteEvidence = z
  .object({
    final_url: z.string().describe('The address the last answer came from, after redirects.'),
    status: z.number().int().describe('Its HTTP status.'),
    title: z.string().describe("The page's title, on one line ('' when it has none)."),
    sha256: z.string().describe('SHA-256 (hex) of the body bytes read.'),
    bytes: z.number().int().describe('How many body bytes were read and hashed.'),
    checked_at: isoTimestamp.describe('When the answer came.'),
  })
  .meta({ id: 'SiteEvidence', description: 'What a site answered: enough to show which page it was.' });

const answeredSite = z
  .object({
    site: z.string().describe("The catalogue's id of the site ('github')."),
    name: z.string().describe("The site's name ('GitHub')."),
    category: z.string().describe("What kind of site ('social', 'forum', 'coding', ...)."),
    india: z.boolean().describe('Whether the site matters in India.'),
    state: z.enum(SITE_STATES).describe('found, not_found, blocked, error or not_checked.'),
    url: z.string().describe('The public profile address asked for.'),
    checked_at: isoTimestamp.describe('When the check of this site ended.'),
    evidence: siteEvidence.optional(),
    reason: z.string().optional().describe('Why, for blocked, error and not_checked.'),
  })
  .meta({ id: 'SiteCheck' });

/** The site-check source's answer to a username lookup (`sitesData`). */
export const siteCheckAnswer = z
  .object({
    username: z.string().describe('The name checked, as sent to the sites.'),
    catalogue: z.object({
      sites: z.number().int().describe('Sites in the catalogue.'),
      scope: z.number().int().describe('Sites this check covered.'),
    }),
    counts: z
      .object({
        found: z.number().int(),
        not_found: z.number().int(),
        blocked: z.number().int(),
        error: z.number().int(),
        not_checked: z.number().int(),
      } satisfies Record<(typeof SITE_STATES)[number], z.ZodNumber>)
      .describe('Sites per state.'),
    sites: z
      .array(answeredSite)
      .describe(
        'Every site of the scope but those that said no: found first, then blocked, error, not checked.',
      ),
    not_found: z.array(z.string()).describe('The ids of the sites that said there is no such account.'),
    started_at: isoTimestamp,
    finished_at: isoTimestamp,
  })
  .meta({ id: 'SiteCheckAnswer' });

const vendorAccount = z
  .object({
    site: z.string().describe("The site or service, as the vendor names it ('GitHub')."),
    username: z.string().nullable().describe("The account's name there, when the vendor gives it."),
    url: z.string().nullable().describe('The profile address, when the vendor gives one.'),
    found_at: isoTimestamp.describe('When the vendor reported it.'),
  })
  .meta({ id: 'VendorAccount' });

/** A vendor's account search answering a username lookup (`pseudonymData`). */
export const accountSearchAnswer = z
  .object({
    search_id: z.string().describe("The vendor's id of the search."),
    accounts: z.array(vendorAccount).describe('The accounts found, in the order the vendor reported them.'),
    complete: z
      .boolean()
      .describe(
        "False when the vendor's search had not finished by the lookup's deadline (or ended failed): the accounts are those reported by then.",
      ),
  })
  .meta({ id: 'AccountSearchAnswer' });

/** GET /api/username: one key per username source that answered, the failures under `errors`. */
export const usernameResponse = z
  .looseObject({
    sitesData: siteCheckAnswer.optional(),
    pseudonymData: accountSearchAnswer.optional(),
    errors: sourceErrors,
    ...lookupMeta,
  })
  .meta({
    id: 'UsernameLookup',
    description:
      "One key per username source that answered, holding its payload (`sitesData`: the site check; `pseudonymData`: a vendor's account search), plus the fields below.",
  });

/**
 * POST /api/rcfull-details, /api/upifull-details, /api/rc-challan-details: `data` is the vendor's
 * envelope `{ data, status_code, success, message, message_code }` as it came, or that envelope
 * with `data: null` when the source had no record.
 */
export const detailResponse = z
  .object({
    data: openObject<unknown>(
      "The vendor's envelope: { data, status_code, success, message, message_code }.",
    ),
    ...lookupMeta,
  })
  .meta({ id: 'DetailLookup' });

/** GET /api/sources: which searches this deployment can answer, and who answers each source. */
export const sourcesResponse = z.object({
  sandbox: z
    .boolean()
    .describe('The deployment runs the sandbox: sources without a vendor answer synthetic data.'),
  kinds: z
    .record(
      z.string(),
      z.object({
        available: z.boolean().describe('At least one source answers this search; false: it answers 503.'),
        price: z.number().int().describe('What one search of this kind costs, in credits.'),
        sources: z
          .record(z.string(), z.enum(SOURCE_MODES))
          .describe('Each source: live, sandbox or not_configured.'),
      }),
    )
    .describe('One entry per search kind (tel, email, rc, upi, challan, corporate:*, verification:*).'),
  prices: z
    .record(z.string(), z.number().int())
    .describe('What one search of every paid kind costs, in credits (the leak search included).'),
});
export type SourcesResponse = z.infer<typeof sourcesResponse>;
