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
