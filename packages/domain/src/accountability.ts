import { z } from 'zod';
import { fieldMessages } from './messages.ts';

/**
 * What the accountability capabilities share (none of it is in the spec): the texts of their API's
 * answers, paging, and the rule against control characters. Case references are in
 * case-reference.ts, search history and the credit statement in history.ts, the operator API under
 * /api/admin in admin.ts. Request schemas are shared by the web and the server; the server always
 * parses with them again.
 */

export const AUDIT_PAGE_SIZE = 25;
export const MAX_PER_PAGE = 100;
export const MAX_CREDIT_CHANGE = 1_000_000;

/** Texts of the accountability API's answers (the case reference's own are in `messages.caseReference`). */
export const accountabilityMessages = {
  caseReferenceControl: 'The case reference may not contain control characters.',
  resultPurged: 'This result is no longer kept.',
  noStoredResult: 'This lookup has no stored result.',
  lookupNotFound: 'No lookup of yours has this id.',
  historyCaseId: 'The case_id field must be a case id.',
  historyJobId: 'The job_id field must be a bulk job id.',
  historyGroup: 'The group field must be job.',
  historyJobNotFound: 'No bulk job of yours has this id.',
  exportFormat: 'The format must be csv, json or xlsx.',
  userNotFound: 'No user has this id.',
  amountInteger: 'The amount must be a whole number.',
  amountZero: 'The amount may not be zero.',
  amountTooLarge: `The amount may not be greater than ${MAX_CREDIT_CHANGE.toLocaleString('en-US')} either way.`,
  belowZero: (balance: number) =>
    `This deduction would take the balance below zero (the balance is ${balance}). Nothing was changed.`,
  lastAdmin: 'This is the last active admin: make another admin first. Nothing was changed.',
  nothingToChange: 'Send at least one field to change.',
  dateFormat: (field: string) => `The ${field} date must be a date in the form YYYY-MM-DD.`,
  dateOrder: 'The end date must be on or after the start date.',
  emailTaken: fieldMessages.taken('email'),
  notPending: (status: string) =>
    `This account is not waiting for approval (its status is ${status}). Nothing was changed.`,
  decideByApproval:
    'This account registered itself and waits for a decision: approve or reject it instead. Nothing was changed.',
} as const;

/** Free text may hold no control characters. */
export const noControl = /^[^\p{Cc}]*$/u;

const wholeNumber = (field: string, fallback: number, max: number) =>
  z.coerce
    .number({ error: `The ${field} field must be a whole number.` })
    .int(`The ${field} field must be a whole number.`)
    .min(1, `The ${field} field must be at least 1.`)
    .max(max, `The ${field} field must not be greater than ${max}.`)
    .default(fallback);

/** ?page=1&per_page=25 (per_page at most 100). */
export const pageFields = {
  page: wholeNumber('page', 1, 1_000_000),
  per_page: wholeNumber('per page', AUDIT_PAGE_SIZE, MAX_PER_PAGE),
};

export interface Page<T> {
  data: T[];
  total: number;
  page: number;
  per_page: number;
}
