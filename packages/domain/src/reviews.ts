import { z } from 'zod';
import { fieldMessages } from './messages.ts';

/**
 * Sampled review (not in the spec): a share of searches, set by the admin (review_share_percent), is
 * drawn after the fact into the review queue of the searcher's supervisors (of their unit and the
 * units above). A supervisor marks each one in order or questioned, with a note; the review is
 * audited and the searcher sees it. Nobody reviews their own searches.
 */

export const REVIEW_VERDICTS = ['in_order', 'questioned'] as const;
export type ReviewVerdict = (typeof REVIEW_VERDICTS)[number];

export const REVIEW_VERDICT_LABELS: Record<ReviewVerdict, string> = {
  in_order: 'In order',
  questioned: 'Questioned',
};

export const REVIEW_NOTE_MAX_LENGTH = 2_000;

export const reviewsMessages = {
  notFound: 'No sampled search you review has this id.',
  already: 'This search has been reviewed already. Nothing was changed.',
  noteRequired: 'Say what is questioned: a note is required.',
  verdict: 'The verdict must be in_order or questioned.',
} as const;

/** GET /api/reviews: the caller's queue (open: not reviewed yet; done: reviewed). */
export const reviewsQuery = z.strictObject({
  status: z.enum(['open', 'done'], { error: 'The status must be open or done.' }).optional(),
});

/** POST /api/reviews/{lookupId}: the verdict, and a note (required when questioned). */
export const reviewBody = z
  .strictObject({
    verdict: z.enum(REVIEW_VERDICTS, { error: reviewsMessages.verdict }),
    note: z
      .string({ error: fieldMessages.string('note') })
      .trim()
      .max(REVIEW_NOTE_MAX_LENGTH, fieldMessages.max('note', REVIEW_NOTE_MAX_LENGTH))
      .regex(
        /^(?:[^\p{Cc}]|[\n\r\t])*$/u,
        'The note may not contain control characters other than line breaks.',
      )
      .optional(),
  })
  .refine((body) => body.verdict !== 'questioned' || (body.note ?? '').length > 0, {
    message: reviewsMessages.noteRequired,
    path: ['note'],
  });

export interface ReviewPerson {
  id: string;
  name: string;
  email: string;
}

/** A sampled search as its reviewers and its searcher see it. */
export interface ReviewItem {
  lookup_id: string;
  kind: string;
  query_typed: string;
  status: string;
  cost: number;
  created_at: string;
  case_reference: string | null;
  /** The legal basis of the case it is filed under, as one line; null when none. */
  legal_basis: string | null;
  /** The result in brief: which sources answered and which failed. */
  sources_answered: string[];
  sources_failed: string[];
  searcher: ReviewPerson;
  sampled_at: string;
  review: {
    verdict: ReviewVerdict;
    note: string | null;
    reviewer: ReviewPerson | null;
    reviewed_at: string;
  } | null;
}
