import { z } from 'zod';
import { noControl } from '../accountability.ts';
import { CASE_REFERENCE_MAX_LENGTH } from '../case-reference.ts';
import { EMAIL_MAX_LENGTH } from '../constants.ts';
import { fieldMessages } from '../messages.ts';
import type { CaseUnitShare } from '../units.ts';
import { emailField, requiredText } from '../validation.ts';
import { type LegalBasis, legalBasisInput } from './legal-basis.ts';
import type { TimelineEntry } from './timeline.ts';

/**
 * Cases (not in the spec): an investigation that collects the searches made under it, the people who
 * work on it, their notes and the legal basis that allows the searches. A search that carries a case
 * reference files itself under the user's case of that reference (created when absent). Request
 * schemas are shared by the web and the server; the server always parses with them again.
 */

export const CASE_STATUSES = ['open', 'closed'] as const;
export type CaseStatus = (typeof CASE_STATUSES)[number];

export const CASE_TITLE_MAX_LENGTH = 200;
export const CASE_NOTE_MAX_LENGTH = 5_000;

export const casesMessages = {
  notFound: 'No case of yours has this id.',
  closed: 'This case is closed: reopen it to add to it. Nothing was changed.',
  ownerOnly: 'Only the owner of this case can do this. Nothing was changed.',
  memberUnknown: 'No active user has this e-mail address.',
  memberAlready: 'This user is already on this case.',
  memberIsOwner: 'The owner is always on the case.',
  memberNotFound: 'This user is not a member of this case.',
  lookupNotFound: 'No search of yours has this id.',
  itemAlready: 'This search is already filed under this case.',
  legalBasisRequired:
    'Every search needs a legal basis: file it under a case that has one, or state the legal basis of this search itself (its kind, the facts of that kind and the purpose).',
  legalBasisMissing: (reference: string) =>
    `The case ${reference} has no legal basis yet: add its kind, number and purpose on the case page first, or state the legal basis of this search itself.`,
  closedCase: (reference: string) => `The case ${reference} is closed: reopen it to search under it.`,
  titleControl: 'The title may not contain control characters.',
  noteControl: 'The note may not contain control characters other than line breaks.',
  textControl: (field: string) => `The ${field} may not contain control characters.`,
  nothingToChange: 'Send at least one field to change.',
  holdNotAllowed:
    'Only the case owner, a supervisor of the owner or an admin can place or release a legal hold. Nothing was changed.',
  notHeld: 'This case is not under a legal hold.',
} as const;

const text = (field: string, max: number) =>
  requiredText(field, max)
    .trim()
    .min(1, { error: fieldMessages.required(field), abort: true })
    .regex(noControl, casesMessages.textControl(field));

export const caseTitleField = text('title', CASE_TITLE_MAX_LENGTH);
export const caseReferenceValue = text('reference', CASE_REFERENCE_MAX_LENGTH);

/** POST /api/cases. Without a reference the case gets one of its own (`CASE-` and eight letters). */
export const createCaseBody = z.strictObject({
  title: caseTitleField,
  reference: caseReferenceValue.optional(),
  legal_basis: legalBasisInput.nullish(),
});

/** PATCH /api/cases/{id}: the owner (or an admin) changes the title, the status or the legal basis. */
export const updateCaseBody = z
  .strictObject({
    title: caseTitleField.optional(),
    status: z.enum(CASE_STATUSES, { error: 'The status must be open or closed.' }).optional(),
    legal_basis: legalBasisInput.nullable().optional(),
  })
  .refine((body) => Object.values(body).some((value) => value !== undefined), {
    message: casesMessages.nothingToChange,
  });

/** PUT /api/cases/{id}/hold: keep the case's results past every retention period until released. */
export const legalHoldBody = z.strictObject({
  reason: z
    .string({ error: fieldMessages.required('reason') })
    .trim()
    .min(1, fieldMessages.required('reason'))
    .max(500, fieldMessages.max('reason', 500))
    .regex(noControl, casesMessages.textControl('reason')),
});

/** A legal hold on a case: its searches' results are kept, whatever the retention, until it is released. */
export interface LegalHold {
  at: string;
  by: CasePerson | null;
  reason: string;
}

export const casesQuery = z.strictObject({
  status: z.enum(CASE_STATUSES, { error: 'The status must be open or closed.' }).optional(),
});

export const addMemberBody = z.strictObject({
  email: emailField('email', EMAIL_MAX_LENGTH),
});

/** Notes keep their line breaks; no other control characters. */
export const addNoteBody = z.strictObject({
  body: z
    .string({ error: fieldMessages.string('note') })
    .trim()
    .min(1, fieldMessages.required('note'))
    .max(CASE_NOTE_MAX_LENGTH, fieldMessages.max('note', CASE_NOTE_MAX_LENGTH))
    .regex(/^(?:[^\p{Cc}]|[\n\r\t])*$/u, casesMessages.noteControl),
});

export const addItemBody = z.strictObject({
  lookup_id: z.string({ error: fieldMessages.required('lookup id') }).uuid(casesMessages.lookupNotFound),
});

/**
 * How the caller sees a case: its owner, a member the owner added, a member of a unit it is shared
 * with ('unit'), a supervisor of its owner's unit or a unit above ('supervisor'), or an admin who is
 * none of these.
 */
export const CASE_ROLES = ['owner', 'member', 'unit', 'supervisor', 'admin'] as const;
export type CaseRole = (typeof CASE_ROLES)[number];

export interface CasePerson {
  id: string;
  name: string;
  email: string;
}

export interface CaseSummary {
  id: string;
  title: string;
  reference: string;
  status: CaseStatus;
  legal_basis: LegalBasis | null;
  /** Set while the case's results are held past retention (PUT /api/cases/{id}/hold). */
  legal_hold: LegalHold | null;
  owner: CasePerson;
  /** How the caller sees it: its owner, a member, or an admin who is neither. */
  role: CaseRole;
  items_count: number;
  created_at: string;
  updated_at: string;
}

export interface CaseMember extends CasePerson {
  added_at: string;
}

export interface CaseNote {
  id: string;
  author: CasePerson;
  body: string;
  created_at: string;
}

export interface CaseItem {
  lookup_id: string;
  kind: string;
  query: string;
  query_typed: string;
  status: string;
  cost: number;
  sandbox: boolean;
  /** Who ran the search. */
  user: CasePerson;
  created_at: string;
  added_at: string;
  /** Whether its stored result can still be opened (GET /api/cases/{id}/items/{lookupId}). */
  result_available: boolean;
}

export interface CaseEntity {
  type: string;
  value: string;
  /** Every source that gave it, across the case's searches. */
  sources: string[];
  /** The case's searches (lookup ids) whose results hold it. */
  items: string[];
  /** Found by two different sources, or by two searches. */
  corroborated: boolean;
  /** Other cases the caller can see whose searches found it too. */
  other_cases: Array<{ id: string; title: string; reference: string }>;
}

export interface CaseDetail extends CaseSummary {
  members: CaseMember[];
  notes: CaseNote[];
  items: CaseItem[];
  entities: CaseEntity[];
  /** Dated facts of its searches' results and the searches themselves, oldest first (capped). */
  timeline: TimelineEntry[];
  /** The units it is shared with: their members (and those of the units below) see it. */
  units: CaseUnitShare[];
  /** Whether the caller may share it with another unit, or stop sharing it (owner, a supervisor of the owner, admins). */
  shares: boolean;
}
