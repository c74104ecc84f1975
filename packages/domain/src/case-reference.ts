import { z } from 'zod';
import { accountabilityMessages, noControl } from './accountability.ts';
import { fieldMessages, messages } from './messages.ts';

/** The case reference every search carries (not in the spec; added for accountability). */

export const CASE_REFERENCE_MAX_LENGTH = 100;

/**
 * The optional case reference of any search: trimmed, at most 100 characters; empty means none.
 * Parsed value: the reference or null.
 */
export const caseReferenceField = z
  .string({ error: fieldMessages.string('case reference') })
  .trim()
  .max(CASE_REFERENCE_MAX_LENGTH, messages.caseReference.tooLong)
  .regex(noControl, accountabilityMessages.caseReferenceControl)
  .nullish()
  .transform((value) => (value ? value : null));

export interface CaseReferencePolicyResponse {
  required: boolean;
}
