import { isApiError } from '../../lib/api.ts';

/** What to tell the admin about a failed call: the server's first field message, its message, or a fallback. */
export function failureMessage(error: unknown, fallback: string): string {
  if (!isApiError(error)) return fallback;
  const errors = error.body.errors;
  if (errors) {
    for (const list of Object.values(errors)) {
      const first = Array.isArray(list) ? list[0] : list;
      if (typeof first === 'string' && first) return first;
    }
  }
  return error.body.message || error.body.error || fallback;
}

/** A 401 is settled app-wide (toast and /login); the screen has nothing to add. */
export const isSessionEnd = (error: unknown): boolean => isApiError(error) && error.status === 401;

/** The server's field messages (422 `errors`), first message per field. */
export function fieldErrorsOf(error: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (!isApiError(error) || !error.body.errors) return out;
  for (const [field, list] of Object.entries(error.body.errors)) {
    const first = Array.isArray(list) ? list[0] : list;
    if (typeof first === 'string' && first) out[field] = first;
  }
  return out;
}
