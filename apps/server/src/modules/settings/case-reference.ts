import { caseReferenceField, toFieldErrors } from '@footprint/domain';
import type { Executor } from '../../db/client.ts';
import { caseReferenceRequired, validationError } from '../../errors.ts';
import { isCaseReferenceRequired } from './service.ts';

/**
 * The case reference of a search, checked on the server for every kind of search: trimmed, at most
 * 100 characters, and present when the deployment's `case_reference_required` setting is on. Call it
 * before anything is charged or written. Returns the reference or null; throws a 422 (with
 * `errors.case_reference`) that changes nothing.
 *
 *   const caseReference = await requireCaseReference(db, input.case_reference);
 */
export async function requireCaseReference(db: Executor, value: unknown): Promise<string | null> {
  const parsed = caseReferenceField.safeParse(value);
  if (!parsed.success) {
    const errors = toFieldErrors(parsed.error);
    throw validationError({ case_reference: Object.values(errors).flat() });
  }
  if (parsed.data === null && (await isCaseReferenceRequired(db))) {
    throw caseReferenceRequired();
  }
  return parsed.data;
}
