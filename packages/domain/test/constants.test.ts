import { describe, expect, it } from 'vitest';
import {
  COPIED_HINT_MS,
  COUNTRIES,
  corporateTypes,
  DEFAULT_COUNTRY,
  DEFAULT_DIAL_CODE,
  EMAIL_MAX_LENGTH,
  INTEL_YEARS,
  LEAK_FIELD_TYPES,
  LEAK_INPUT_MAX_LENGTH,
  LEAK_MAX_ROWS,
  LEAK_PAGE_SIZE,
  LEAK_PAGINATION_WINDOW,
  LOGOUT_DELAY_MS,
  OTP_LENGTH,
  OTP_TICK_MS,
  PAGE_TRANSITION_S,
  PARTICLES,
  PHONE_LENGTH,
  SESSION_CHECK_INTERVAL_MS,
  TOAST_AUTO_CLOSE_MS,
  toIntelRequestData,
  validateIntel,
} from '../src/index.ts';

/**
 * The business constants and limits of spec §9, each against the number the spec gives. The web and the
 * server read these constants; the e2e specs check the places they reach the page (input lengths, page
 * size, the country list).
 */
describe('§9 business constants and limits', () => {
  it.each([
    ['session expiry check interval (ms)', SESSION_CHECK_INTERVAL_MS, 60_000],
    ['UI logout delay (ms)', LOGOUT_DELAY_MS, 2_000],
    ['phone length', PHONE_LENGTH, 10],
    ['e-mail maximum length', EMAIL_MAX_LENGTH, 100],
    ['country list entries', COUNTRIES.length, 38],
    ['toast auto close (ms)', TOAST_AUTO_CLOSE_MS, 5_000],
    ['Copied! hint (ms)', COPIED_HINT_MS, 3_000],
    ['leak finder rows', LEAK_MAX_ROWS, 4],
    ['leak finder input max length', LEAK_INPUT_MAX_LENGTH, 50],
    ['leak finder page size', LEAK_PAGE_SIZE, 10],
    ['leak finder pagination window', LEAK_PAGINATION_WINDOW, 3],
    ['OTP digits', OTP_LENGTH, 6],
    ['OTP countdown tick (ms)', OTP_TICK_MS, 1_000],
    ['particles', PARTICLES.count, 100],
    ['particle frame rate cap', PARTICLES.fpsLimit, 120],
    ['particle link distance', PARTICLES.linkDistance, 120],
    ['particle grab distance on hover', PARTICLES.grabDistance, 180],
    ['page transition (s)', PAGE_TRANSITION_S, 0.4],
  ])('%s is %s', (_name, actual, fromSpec) => {
    expect(actual).toBe(fromSpec);
  });

  it('defaults to India (+91)', () => {
    expect(DEFAULT_DIAL_CODE).toBe('91');
    expect(DEFAULT_COUNTRY).toMatchObject({ name: 'India', dialCode: '91' });
  });

  it('offers the financial years 2024, 2023, 2022, 2021', () => {
    expect([...INTEL_YEARS]).toEqual(['2024', '2023', '2022', '2021']);
  });

  it('searches the leak finder by name, email, phone and username', () => {
    expect([...LEAK_FIELD_TYPES]).toEqual(['name', 'email', 'phone', 'username']);
  });

  it("sends the credit report's consent as 'Y' and its gender as male or female", () => {
    const credit = corporateTypes.find((type) => type.type === 'credit_report')!;
    const values = {
      mobile: '9876543210',
      pan: 'ABCDE1234F',
      name: 'A Person',
      gender: 'female',
      consent: true,
    };
    expect(validateIntel(credit, values)).toBeNull();
    expect(toIntelRequestData(credit, values)).toMatchObject({ consent: 'Y', gender: 'female' });
    expect(validateIntel(credit, { ...values, gender: 'other' })).not.toBeNull();
  });

  it('takes corporate and verification mobile numbers of 7 to 12 digits', () => {
    const findUan = corporateTypes.find((type) => type.type === 'find_uan')!;
    for (const [digits, ok] of [
      ['123456', false],
      ['1234567', true],
      ['123456789012', true],
      ['1234567890123', false],
    ] as const) {
      expect(validateIntel(findUan, { mobile_number: digits }) === null, digits).toBe(ok);
    }
  });
});
