import { firstErrors } from '@footprint/domain';
import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { isApiError } from '../../../lib/api.ts';

/**
 * Puts the first server message of each known field under that field (spec §5) and returns the
 * messages of fields the form does not show, so the page can display them elsewhere.
 */
export function applyServerErrors<T extends FieldValues>(
  error: unknown,
  setError: UseFormSetError<T>,
  fields: readonly Path<T>[],
): string[] {
  if (!isApiError(error)) return [];
  const leftover: string[] = [];
  let focused = false;
  for (const [field, message] of Object.entries(firstErrors(error.body.errors))) {
    if ((fields as readonly string[]).includes(field)) {
      setError(field as Path<T>, { type: 'server', message }, { shouldFocus: !focused });
      focused = true;
    } else {
      leftover.push(message);
    }
  }
  return leftover;
}
