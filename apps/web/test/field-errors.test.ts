import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../src/lib/api.ts';
import {
  applyServerErrors,
  failureMessage,
  fieldErrorsOf,
  fieldFailure,
  fieldMessages,
  firstFieldErrors,
  hasStatus,
  isSessionEnd,
  refusalBody,
  serverMessage,
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

  it('tells a refusal by its status, never a call that got no answer', () => {
    expect(hasStatus(refusal, 422)).toBe(true);
    expect(hasStatus(new ApiError(429, {}), 403, 429)).toBe(true);
    expect(hasStatus(refusal, 404)).toBe(false);
    expect(hasStatus(new ApiError(0, {}), 0)).toBe(false);
    expect(hasStatus(new Error('offline'), 422)).toBe(false);
  });

  it("says the server's own message, or the screen's text when there is none", () => {
    expect(serverMessage(refusal, 'Failed.')).toBe('The given data was invalid.');
    expect(serverMessage(new ApiError(410, { message: '' }), 'Purged.')).toBe('Purged.');
    expect(serverMessage(new ApiError(0, {}), 'Failed.')).toBe('Failed.');
    expect(serverMessage(new TypeError('Failed to fetch'), 'Failed.')).toBe('Failed.');
  });

  it('hands over the body of a refusal with the asked status only', () => {
    const challenge = new ApiError(403, { message: 'Code sent.', otp_required: true } as never);
    expect(refusalBody(challenge, 403)).toMatchObject({ otp_required: true });
    expect(refusalBody(challenge, 429)).toBeNull();
    expect(refusalBody(new Error('offline'), 403)).toBeNull();
  });

  it("says a field's own message first, then the failure's", () => {
    expect(fieldFailure(refusal, 'password', 'Failed.')).toBe('Too short.');
    expect(fieldFailure(refusal, 'code', 'Failed.')).toBe('Taken.');
    expect(fieldFailure(new ApiError(500, {}), 'code', 'Failed.')).toBe('Failed.');
  });
});
