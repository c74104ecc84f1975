import { describe, expect, it } from 'vitest';
import {
  challanRequest,
  emailQuery,
  isDialedPhoneNumber,
  isValidEmailInput,
  isValidPhoneInput,
  normalizeRc,
  rcDetailsRequest,
  telQuery,
  upiDetailsRequest,
} from '../src/index.ts';

describe('phone numbers sent to /api/tel', () => {
  it.each([
    ['919876543210', true],
    ['14155550100', true],
    ['9779812345678', true],
    ['9198765432101', false], // +91 with 11 digits
    ['919876543', false],
    ['9876543210', false], // no dial code
    ['999876543210', false], // 99 is no dial code in the picker
    ['91987654321a', false],
  ])('%s → %s', (value, expected) => {
    expect(isDialedPhoneNumber(value)).toBe(expected);
    expect(telQuery.safeParse({ number: value }).success).toBe(expected);
  });

  it('refuses unknown parameters', () => {
    expect(telQuery.safeParse({ number: '919876543210', debug: '1' }).success).toBe(false);
  });
});

describe('search input checks of the dashboard', () => {
  it('wants exactly 10 digits for a phone', () => {
    expect(isValidPhoneInput('9876543210')).toBe(true);
    expect(isValidPhoneInput('98765 43210')).toBe(false);
    expect(isValidPhoneInput('987654321')).toBe(false);
    expect(isValidPhoneInput('98765432101')).toBe(false);
  });

  it('wants an e-mail shape without spaces, at most 100 characters', () => {
    expect(isValidEmailInput('a@b.co')).toBe(true);
    expect(isValidEmailInput('a b@c.co')).toBe(false);
    expect(isValidEmailInput(`${'a'.repeat(95)}@b.com`)).toBe(false);
    expect(emailQuery.parse({ email: 'A@B.CO' })).toEqual({
      email: 'a@b.co',
      case_reference: null,
      legal_basis: null,
      fresh: false,
    });
  });

  it('normalises registration numbers', () => {
    expect(normalizeRc(' mh-12 ab 1234 ')).toBe('MH12AB1234');
  });
});

describe('the fresh opt-out of reuse', () => {
  it('reads fresh=1/true as fresh and 0/false or absent as not, on both GET lookups', () => {
    for (const schema of [telQuery, emailQuery]) {
      const base = schema === telQuery ? { number: '919876543210' } : { email: 'a@b.co' };
      expect(schema.parse({ ...base, fresh: '1' }).fresh).toBe(true);
      expect(schema.parse({ ...base, fresh: 'true' }).fresh).toBe(true);
      expect(schema.parse({ ...base, fresh: '0' }).fresh).toBe(false);
      expect(schema.parse({ ...base, fresh: 'false' }).fresh).toBe(false);
      expect(schema.parse(base).fresh).toBe(false);
      expect(schema.safeParse({ ...base, fresh: 'yes' }).success).toBe(false);
      expect(schema.safeParse({ ...base, fresh: ['1', '1'] }).success).toBe(false);
    }
  });

  it('takes a JSON boolean in the detail bodies', () => {
    expect(rcDetailsRequest.parse({ id_number: 'MH12AB1234', fresh: true }).fresh).toBe(true);
    expect(upiDetailsRequest.parse({ upi_id: 'payee@oksbi' }).fresh).toBeUndefined();
    expect(challanRequest.safeParse({ rc_number: 'MH12AB1234', fresh: 'true' }).success).toBe(false);
  });
});
