import { z } from 'zod';
import { isoTimestamp, noContent, openObject } from './common.ts';

/** The server's own endpoints: health, the CSRF cookie, the API description, the development outbox. */

/** GET /api/health. */
export const healthResponse = z.object({ status: z.literal('ok') });

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
