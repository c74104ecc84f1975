import { messages } from '@footprint/domain';
import { describe, expect, it } from 'vitest';
import {
  formatRemaining,
  resendLabel,
  resendRefusalOf,
  retryAfterOf,
} from '../src/features/auth/otp-resend.ts';

describe('resendRefusalOf', () => {
  it("says the server's cooldown message and waits the seconds it names", () => {
    const body = { message: messages.otp.cooldown(42), retry_after: 42 };
    expect(resendRefusalOf(429, body)).toEqual({
      message: 'Please wait 42 seconds before requesting a new OTP.',
      waitSeconds: 42,
    });
  });

  it('says the cooldown in its own words when the server sent no message, and still waits', () => {
    expect(resendRefusalOf(429, { retry_after: 30 })).toEqual({
      message: messages.otp.cooldown(30),
      waitSeconds: 30,
    });
  });

  it('says a 429 without a wait in the server’s words, and does not hold the button', () => {
    expect(resendRefusalOf(429, { message: 'Too many requests.' })).toEqual({
      message: 'Too many requests.',
      waitSeconds: 0,
    });
    expect(resendRefusalOf(429, {})).toEqual({ message: messages.otp.resendFailed, waitSeconds: 0 });
  });

  it("keeps the spec's 'Failed to resend OTP.' for every other failure", () => {
    for (const status of [0, 400, 422, 500, 502]) {
      expect(resendRefusalOf(status, { message: 'Something else.', retry_after: 9 })).toEqual({
        message: messages.otp.resendFailed,
        waitSeconds: 0,
      });
    }
  });
});

describe('retryAfterOf', () => {
  it('reads whole seconds, rounding up, and nothing that is not a positive number', () => {
    expect(retryAfterOf({ retry_after: 12 })).toBe(12);
    expect(retryAfterOf({ retry_after: 12.2 })).toBe(13);
    for (const value of [0, -5, Number.NaN, Number.POSITIVE_INFINITY, '12', null, undefined]) {
      expect(retryAfterOf({ retry_after: value })).toBe(0);
    }
    expect(retryAfterOf({})).toBe(0);
  });
});

describe('resendLabel', () => {
  it('counts the wait down on the button, then reads as the spec says', () => {
    expect(resendLabel(42)).toBe('Resend OTP (00:42)');
    expect(resendLabel(60)).toBe('Resend OTP (01:00)');
    expect(resendLabel(0)).toBe(messages.otp.resend);
    expect(formatRemaining(125)).toBe('02:05');
  });
});
