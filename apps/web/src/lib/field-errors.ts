import type { ErrorBody } from '@footprint/domain';
import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { isApiError } from './api.ts';

/**
 * What the server says about a refused call, read the same way by every form and modal: its field
 * messages (a 422 `errors` object, one list per field), its message, and whether the session ended.
 */

/** A 401 is settled app-wide (the injected session rule: toast and /login); a screen has nothing to add. */
export const isSessionEnd = (error: unknown): boolean => isApiError(error) && error.status === 401;

const bodyOf = (error: unknown): ErrorBody | undefined => (isApiError(error) ? error.body : undefined);

/** Whether the server refused the call with one of these statuses (never true when no answer came). */
export const hasStatus = (error: unknown, ...statuses: number[]): boolean =>
  isApiError(error) && error.status !== 0 && statuses.includes(error.status);

/**
 * The body of a refusal with this status, for the few refusals that carry more than messages (the
 * 403 that asks for the e-mailed code or the second factor, a blocked account); `null` otherwise.
 */
export const refusalBody = (error: unknown, status: number): ErrorBody | null =>
  isApiError(error) && error.status === status ? error.body : null;

/** The server's own message for a refused call, or the screen's text (no answer, or no message). */
export const serverMessage = (error: unknown, fallback: string): string => bodyOf(error)?.message || fallback;

/** The first message of each field of an error body. A field without a usable message is left out. */
export function firstFieldErrors(body: ErrorBody | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [field, list] of Object.entries(body?.errors ?? {})) {
    const first: unknown = Array.isArray(list) ? list[0] : list;
    if (typeof first === 'string' && first) out[field] = first;
  }
  return out;
}

/** The server's field messages of a failed call (422 `errors`), first message per field. */
export const fieldErrorsOf = (error: unknown): Record<string, string> => firstFieldErrors(bodyOf(error));

/**
 * Every message the server listed under one field, in order, e.g. the leak finder's `errors.fields`
 * (one entry per searched row, '' for a row that was fine). Empty when there is no such list.
 */
export function fieldMessages(error: unknown, field: string): unknown[] {
  const list: unknown = bodyOf(error)?.errors?.[field];
  return Array.isArray(list) ? list : [];
}

/** What to tell the user about a failed call: the server's first field message, its message, or a fallback. */
export function failureMessage(error: unknown, fallback: string): string {
  const body = bodyOf(error);
  if (!body) return fallback;
  return Object.values(firstFieldErrors(body))[0] || body.message || body.error || fallback;
}

/** A form's message for one field: the server's first message for it, else `failureMessage`. */
export const fieldFailure = (error: unknown, field: string, fallback: string): string =>
  fieldErrorsOf(error)[field] ?? failureMessage(error, fallback);

/**
 * For react-hook-form screens: puts the first server message of each field the form shows under that
 * field (focusing the first) and returns the messages of fields it does not show, to display elsewhere.
 */
export function applyServerErrors<T extends FieldValues>(
  error: unknown,
  setError: UseFormSetError<T>,
  fields: readonly Path<T>[],
): string[] {
  const leftover: string[] = [];
  let focused = false;
  for (const [field, message] of Object.entries(fieldErrorsOf(error))) {
    if ((fields as readonly string[]).includes(field)) {
      setError(field as Path<T>, { type: 'server', message }, { shouldFocus: !focused });
      focused = true;
    } else {
      leftover.push(message);
    }
  }
  return leftover;
}
