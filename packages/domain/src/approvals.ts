import { z } from 'zod';
import { SEARCH_KINDS, type SearchKind } from './catalogue/kinds.ts';
import { fieldMessages } from './messages.ts';
import type { ReviewPerson } from './reviews.ts';

/**
 * Approval of sensitive searches (not in the spec): the admin names the search kinds that are
 * sensitive (approval_kinds; for example bank account, UPI, credit report). Such a search is not run
 * when asked: it is held, with its case and legal basis, until a supervisor of the requester's unit
 * (or a unit above) approves it. Approval runs it as the requester's and charges it; rejection, with
 * a reason, charges nothing; a request nobody decides expires after approval_hours. Nobody decides
 * their own request; a supervisor of an unrelated unit does not see it. An admin decides only for a
 * requester who has no supervisor at all, so that no request is left without anyone to decide it.
 */

/**
 * The kinds that can wait for approval: every search a user asks for through the paid search of a
 * lookup or intel route. The leak search is not among them (its sensitivity is in the fields it
 * returns, known only once it ran).
 */
export const APPROVAL_KINDS: readonly SearchKind[] = SEARCH_KINDS.filter((kind) => kind !== 'leak');
const APPROVABLE = new Set<string>(APPROVAL_KINDS);
export const isApprovalKind = (value: unknown): value is SearchKind =>
  typeof value === 'string' && APPROVABLE.has(value);

export const APPROVAL_STATUSES = ['pending', 'approved', 'rejected', 'expired', 'failed'] as const;
export type ApprovalStatus = (typeof APPROVAL_STATUSES)[number];

export const APPROVAL_STATUS_LABELS: Record<ApprovalStatus, string> = {
  pending: 'Waiting for approval',
  approved: 'Approved and run',
  rejected: 'Rejected',
  expired: 'Expired',
  failed: 'Approved, could not run',
};

export const APPROVAL_HOURS_DEFAULT = 48;
export const APPROVAL_HOURS_MAX = 720;
export const APPROVAL_NOTE_MAX_LENGTH = 2_000;

/** The most rows a bulk job may have as the threshold above which it waits for approval. */
export const APPROVAL_BULK_ROWS_MAX = 100_000;

export const approvalsMessages = {
  held: (kind: string) =>
    `A ${kind} search needs a supervisor's approval: your request is waiting for them. Nothing was charged; you will be told when it is decided.`,
  notFound: 'No request for approval you may see has this id.',
  ownRequest: 'You cannot decide your own request: a supervisor of yours does. Nothing was changed.',
  decided: (status: string) => `This request is already ${status.toLowerCase()}. Nothing was changed.`,
  reasonRequired: 'Say why it is rejected: a reason is required.',
  /** Why an approved request made with an API key did not run: the key is no longer usable. */
  keyGone:
    'The API key this search was asked with has been revoked or has expired since, so it was not run. Nothing was charged.',
  /** Why an approved request has no answer: the server stopped before its search answered. */
  interrupted:
    'The server stopped before this approved search answered. Whatever it charged was given back; ask for it again.',
  decision: 'The decision must be approve or reject.',
} as const;

/** GET /api/approvals: the caller's queue of requests to decide (open) or decided by anyone (done). */
export const approvalsQuery = z.strictObject({
  status: z.enum(['open', 'done'], { error: 'The status must be open or done.' }).optional(),
});

/** POST /api/approvals/{id}: approve or reject; a reason (note) is required to reject. */
export const approvalDecisionBody = z
  .strictObject({
    decision: z.enum(['approve', 'reject'], { error: approvalsMessages.decision }),
    note: z
      .string({ error: fieldMessages.string('note') })
      .trim()
      .max(APPROVAL_NOTE_MAX_LENGTH, fieldMessages.max('note', APPROVAL_NOTE_MAX_LENGTH))
      .regex(
        /^(?:[^\p{Cc}]|[\n\r\t])*$/u,
        'The note may not contain control characters other than line breaks.',
      )
      .optional(),
  })
  .refine((body) => body.decision !== 'reject' || (body.note ?? '').length > 0, {
    message: approvalsMessages.reasonRequired,
    path: ['note'],
  });

/** A held search as its requester and its approvers see it. */
export interface SearchApproval {
  id: string;
  status: ApprovalStatus;
  kind: string;
  kind_label: string;
  /** The query as the requester typed it. */
  query: string;
  case_reference: string | null;
  /** The case's legal basis as printed everywhere, if it has one. */
  legal_basis: string | null;
  cost: number;
  requester: ReviewPerson;
  requested_at: string;
  expires_at: string;
  decided_by: ReviewPerson | null;
  decided_at: string | null;
  /** The approver's note, or the reason for a rejection. */
  note: string | null;
  /** The search it ran, once approved: open it with GET /api/history/{lookup_id}. */
  lookup_id: string | null;
  /** For a bulk job waiting for approval (kind `bulk:<type>`): the job (GET /api/bulk/{job_id}). */
  job_id?: string;
  /** Why an approved search could not run. */
  failure: string | null;
  /** Whether the caller may decide it now. */
  decides: boolean;
}

export interface ApprovalsList {
  data: SearchApproval[];
}

/** The 202 a held search answers: where to follow it. */
export interface HeldSearch {
  status: 'pending';
  message: string;
  approval: SearchApproval;
  /** GET this to follow the request; once approved it names the search's lookup_id. */
  poll: string;
}
