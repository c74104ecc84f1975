import { z } from 'zod';

/**
 * Shared pieces of the response contracts. Response schemas describe what the server really sends:
 * the server checks every JSON answer against its route's schema and drops keys the schema does not
 * declare, so a key missing here never reaches the browser. They hold no transforms (the server
 * encodes answers with them).
 */

/** An ISO 8601 timestamp as the server writes it (`Date#toISOString`). */
export const isoTimestamp = z.string().meta({ format: 'date-time' });

/**
 * An object passed through as it is: no key is checked, copied or dropped (vendor payloads, imported
 * fields, audit details). Documented as an open object.
 */
export const openObject = <T = Record<string, unknown>>(
  description: string,
  values?: Record<string, unknown>,
) =>
  z.unknown().meta({
    type: 'object',
    description,
    ...(values ? { additionalProperties: values } : {}),
  }) as unknown as z.ZodType<T>;

/**
 * The one error body (spec keys: message, errors, error, details, credits). Some errors carry more
 * (`retry_after`, `lookup_id`, `errors_by_source`): the shape is open so that none is dropped.
 */
export const errorResponse = z
  .looseObject({
    message: z.string(),
    errors: openObject<Record<string, string[]>>('Per field, its messages.', {
      type: 'array',
      items: { type: 'string' },
    }).optional(),
    error: z.string().optional(),
    details: z.unknown().optional(),
    credits: z.number().optional(),
    retry_after: z.number().optional(),
    account_status: z
      .enum(['pending', 'rejected', 'disabled'])
      .optional()
      .describe('A refused sign-in: why the account cannot sign in (after the right password only).'),
  })
  .meta({ id: 'Error', description: 'Every error answer: 4xx and 5xx, JSON.' });

/** A message-only answer (logout). */
export const messageResponse = z.object({ message: z.string() });

/** A status-only answer (forgot and reset password). */
export const statusResponse = z.object({ status: z.string() });

/** One page of a list: `{ data, total, page, per_page }`. */
export const pageOf = <T extends z.ZodType>(item: T) =>
  z.object({
    data: z.array(item),
    total: z.number().int(),
    page: z.number().int(),
    per_page: z.number().int(),
  });

/** A file download (PDF, CSV): documented, never validated as JSON. */
export const fileDownload = (mediaType: string, description: string) => ({
  description,
  // Unknown to the type system: the server sends a Buffer or a stream, never encoded with a schema.
  content: { [mediaType]: { schema: z.unknown().meta({ type: 'string', format: 'binary' }) } },
});

/** An answer with no body. */
export const noContent = z.undefined().meta({ description: 'No content.' });

/**
 * 402: the balance does not cover the search (`credits` is the balance), or an API key's monthly cap
 * would be passed (then with `monthly_credit_cap` and `credits_this_month`). Nothing was charged.
 */
export const paymentRequiredResponse = z
  .looseObject({
    message: z.string(),
    credits: z.number().int().describe('The balance, unchanged.'),
    monthly_credit_cap: z
      .number()
      .int()
      .optional()
      .describe("An API key's monthly credit cap, when that cap refused the search."),
    credits_this_month: z
      .number()
      .int()
      .optional()
      .describe('What the key has spent this calendar month (UTC), when its cap refused the search.'),
  })
  .meta({ id: 'PaymentRequired', description: 'A paid search refused for credits; nothing was charged.' });

/** 429 and 503 with Retry-After: try again after `retry_after` seconds. */
export const retryLaterResponse = z
  .looseObject({
    message: z.string(),
    retry_after: z.number().int().min(0).describe('Seconds to wait, as in the Retry-After header.'),
    credits: z.number().int().optional().describe('The balance, when a paid report was refunded.'),
  })
  .meta({ id: 'RetryLater', description: 'Busy or rate limited: try again after Retry-After seconds.' });
