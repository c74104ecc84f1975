import { z } from 'zod';
import { isoTimestamp, noContent, openObject } from './common.ts';

/** The server's own endpoints: health, the CSRF cookie, the API description, the development outbox. */

/** GET /api/health (when ready) and GET /api/health/live. */
export const healthResponse = z.object({ status: z.literal('ok') });

/**
 * What GET /api/health/ready checked: each dependency `ok` or what is wrong with it. Redis is
 * `not configured` when the rate limits do not use it; `draining` is true from SIGTERM on.
 */
export const readinessChecks = z.object({
  database: z.enum(['ok', 'unreachable']),
  migrations: z.enum(['ok', 'pending', 'unknown']),
  redis: z.enum(['ok', 'not configured', 'unreachable']),
  jobs: z.enum(['ok', 'stopped']),
  draining: z.boolean(),
});
export type ReadinessChecks = z.infer<typeof readinessChecks>;

/** GET /api/health/ready: 200 when every check passes. */
export const readyResponse = z.object({ status: z.literal('ready'), checks: readinessChecks });

/** GET /api/health/ready (and /api/health): 503, with Retry-After, naming the failing checks. */
export const notReadyResponse = z.object({
  status: z.literal('not_ready'),
  /** One line naming what fails, e.g. "Not ready: database unreachable, draining." */
  message: z.string(),
  /** The names of the failing checks. */
  failing: z.array(z.enum(['database', 'migrations', 'redis', 'jobs', 'draining'])),
  checks: readinessChecks,
});

/** GET /sanctum/csrf-cookie: sets the XSRF-TOKEN cookie, no body. */
export const csrfCookieResponse = noContent;

/** GET /api/openapi.json: this document. */
export const openApiDocumentResponse = openObject('An OpenAPI 3.1 document.');

/** A page of HTML or a stylesheet: documented, not validated. */
export const textPage = (mediaType: 'text/html' | 'text/css' | 'text/javascript', description: string) => ({
  description,
  content: { [mediaType]: { schema: z.string() } },
});

/** GET /dev/outbox.json (outside production): the newest mails, newest first. */
export const outboxResponse = z.array(
  z.object({
    id: z.number().int(),
    to: z.string(),
    subject: z.string(),
    text: z.string(),
    created_at: isoTimestamp,
  }),
);

/**
 * GET /api/attributions: the notices of the third-party works the product ships, each with its licence
 * text as shipped (the username site catalogue is built from the MIT-licensed Sherlock and Maigret lists).
 */
export const attributionsResponse = z
  .object({
    notices: z.array(
      z.object({
        work: z.string().describe("The work's name ('Sherlock')."),
        part: z.string().describe('What of the product it is part of.'),
        url: z.string().describe("The work's home."),
        licence: z.string().describe("The licence's short name ('MIT')."),
        copyright: z.string().describe('Its copyright line.'),
        text: z.string().describe('The licence text, as shipped with the product.'),
      }),
    ),
    catalogue: z
      .object({
        sites: z.number().int().describe('Sites in the username catalogue.'),
        built_from: z
          .record(z.string(), z.number().int())
          .describe('Entries of each list it was built from.'),
      })
      .describe('The username site catalogue the notices concern.'),
  })
  .meta({ id: 'Attributions' });
export type AttributionsResponse = z.infer<typeof attributionsResponse>;
