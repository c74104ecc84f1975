import { describe, expect, it } from 'vitest';
import {
  PHONE_INPUT_MAX_LENGTH,
  phoneDigits,
  sanitizePhoneInput,
} from '../src/features/search/phone-input.ts';

describe('sanitizePhoneInput', () => {
  it('keeps digits, spaces, plus, dashes and parentheses', () => {
    expect(sanitizePhoneInput('+91 (98765) 432-10')).toBe('+91 (98765) 432-10');
  });

  it('drops letters and other signs as they are typed', () => {
    expect(sanitizePhoneInput('98765abcde')).toBe('98765');
    expect(sanitizePhoneInput('9876.543_210#')).toBe('9876543210');
    expect(sanitizePhoneInput('e')).toBe('');
  });

  it('keeps the number of a pasted line longer than the field', () => {
    expect(sanitizePhoneInput('Registered mobile number of the subject: 98765 43210')).toBe('98765 43210');
    expect(sanitizePhoneInput('Tel: +91 98765-43210')).toBe('+91 98765-43210');
  });

  it('turns tabs and line breaks into single spaces and drops leading ones', () => {
    expect(sanitizePhoneInput('\t98765\n\n43210')).toBe('98765 43210');
  });

  it('stops at the field length', () => {
    expect(sanitizePhoneInput('1'.repeat(40))).toHaveLength(PHONE_INPUT_MAX_LENGTH);
  });
});

describe('phoneDigits', () => {
  it('takes 10 digits written with or without separators', () => {
    expect(phoneDigits('9876543210', '91')).toBe('9876543210');
    expect(phoneDigits(' 98765 43210 ', '91')).toBe('9876543210');
    expect(phoneDigits('(987) 654-3210', '1')).toBe('9876543210');
  });

  it("takes the picker's dial code in front, with or without '+'", () => {
    expect(phoneDigits('+91 98765 43210', '91')).toBe('9876543210');
    expect(phoneDigits('91-98765-43210', '91')).toBe('9876543210');
    expect(phoneDigits('+1 (987) 654-3210', '1')).toBe('9876543210');
  });

  it('refuses too few or too many digits, another dial code and a misplaced plus', () => {
    expect(phoneDigits('98765', '91')).toBeNull();
    expect(phoneDigits('98765432101', '91')).toBeNull();
    expect(phoneDigits('+44 98765 43210', '91')).toBeNull();
    expect(phoneDigits('+9876543210', '91')).toBeNull();
    expect(phoneDigits('98765+43210', '91')).toBeNull();
    expect(phoneDigits('', '91')).toBeNull();
  });

  it('refuses letters, should any reach it', () => {
    expect(phoneDigits('98765abcde', '91')).toBeNull();
    expect(phoneDigits('987654321O', '91')).toBeNull();
  });
});
