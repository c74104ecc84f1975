import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../src/lib/api.ts';
import {
  applyServerErrors,
  failureMessage,
  fieldErrorsOf,
  fieldMessages,
  firstFieldErrors,
  isSessionEnd,
} from '../src/lib/field-errors.ts';

const refusal = new ApiError(422, {
  message: 'The given data was invalid.',
  errors: { email: ['Taken.', 'Second.'], password: ['Too short.'], name: [] },
});

describe('field errors', () => {
  it('keeps the first usable message of each field', () => {
    expect(fieldErrorsOf(refusal)).toEqual({ email: 'Taken.', password: 'Too short.' });
    expect(firstFieldErrors({ errors: { a: 'plain' as unknown as string[], b: [''] } })).toEqual({
      a: 'plain',
    });
    expect(fieldErrorsOf(new Error('x'))).toEqual({});
  });

  it('lists every message of one field', () => {
    const rows = new ApiError(422, { errors: { fields: ['', 'Enter a valid e-mail.'] } });
    expect(fieldMessages(rows, 'fields')).toEqual(['', 'Enter a valid e-mail.']);
    expect(fieldMessages(rows, 'other')).toEqual([]);
    expect(fieldMessages('not an error', 'fields')).toEqual([]);
  });

  it("says the first field message, then the server's message or error, then the fallback", () => {
    expect(failureMessage(refusal, 'Fallback')).toBe('Taken.');
    expect(failureMessage(new ApiError(403, { message: 'Registration is closed.' }), 'Fallback')).toBe(
      'Registration is closed.',
    );
    expect(failureMessage(new ApiError(400, { error: 'Bad request.' }), 'Fallback')).toBe('Bad request.');
    expect(failureMessage(new ApiError(500, {}), 'Fallback')).toBe('Fallback');
    expect(failureMessage(new TypeError('x'), 'Fallback')).toBe('Fallback');
  });

  it('knows a 401 from other failures', () => {
    expect(isSessionEnd(new ApiError(401, {}))).toBe(true);
    expect(isSessionEnd(new ApiError(403, {}))).toBe(false);
    expect(isSessionEnd({ status: 401 })).toBe(false);
  });

  it('puts the messages of shown fields under them, focusing the first, and returns the rest', () => {
    const setError = vi.fn();
    const leftover = applyServerErrors<{ email: string; name: string }>(refusal, setError, ['email', 'name']);
    expect(setError).toHaveBeenCalledTimes(1);
    expect(setError).toHaveBeenCalledWith(
      'email',
      { type: 'server', message: 'Taken.' },
      { shouldFocus: true },
    );
    expect(leftover).toEqual(['Too short.']);
  });
});
