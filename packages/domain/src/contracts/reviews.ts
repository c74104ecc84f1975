import { z } from 'zod';
import { REVIEW_VERDICTS, type ReviewItem } from '../reviews.ts';
import { isoTimestamp } from './common.ts';

/** The answers of /api/reviews (requests: reviewsQuery, reviewBody). */

const person = z.object({ id: z.string(), name: z.string(), email: z.string() });

export const reviewItemResponse: z.ZodType<ReviewItem> = z
  .object({
    lookup_id: z.string(),
    kind: z.string(),
    query_typed: z.string(),
    status: z.string(),
    cost: z.number().int(),
    created_at: isoTimestamp,
    case_reference: z.string().nullable(),
    legal_basis: z
      .string()
      .nullable()
      .describe('The legal basis of the case it is filed under, as one line.'),
    sources_answered: z.array(z.string()),
    sources_failed: z.array(z.string()),
    searcher: person,
    sampled_at: isoTimestamp,
    review: z
      .object({
        verdict: z.enum(REVIEW_VERDICTS),
        note: z.string().nullable(),
        reviewer: person.nullable(),
        reviewed_at: isoTimestamp,
      })
      .nullable(),
  })
  .meta({ id: 'ReviewItem', description: 'A search sampled for review after the fact.' });

export const reviewListResponse: z.ZodType<{ data: ReviewItem[] }> = z.object({
  data: z.array(reviewItemResponse),
});
