import { describe, expect, it } from 'vitest';
import { COUNTRIES, DEFAULT_COUNTRY, DEFAULT_DIAL_CODE, searchCountries } from '../src/index.ts';

const codes = (list: ReadonlyArray<{ code: string }>) => list.map((c) => c.code);

describe('COUNTRIES', () => {
  it('has 38 countries with unique codes and dial codes of digits only', () => {
    expect(COUNTRIES).toHaveLength(38);
    expect(new Set(codes(COUNTRIES)).size).toBe(38);
    expect(new Set(COUNTRIES.map((c) => c.name)).size).toBe(38);
    for (const country of COUNTRIES) {
      expect(country.code).toMatch(/^[A-Z]{2}$/);
      expect(country.dialCode).toMatch(/^[1-9]\d{0,3}$/);
    }
  });

  it('spells each flag from its own code', () => {
    const india = COUNTRIES.find((c) => c.code === 'IN');
    expect(india?.flag).toBe('🇮🇳');
    for (const country of COUNTRIES) {
      const letters = [...country.flag].map((ch) => String.fromCharCode(ch.codePointAt(0)! - 0x1f1e6 + 65));
      expect(letters.join(''), country.name).toBe(country.code);
    }
  });

  it('starts with India, the default (+91)', () => {
    expect(COUNTRIES[0]).toBe(DEFAULT_COUNTRY);
    expect(DEFAULT_COUNTRY).toMatchObject({ name: 'India', dialCode: '91', code: 'IN' });
    expect(DEFAULT_COUNTRY.dialCode).toBe(DEFAULT_DIAL_CODE);
  });
});

describe('searchCountries', () => {
  it('matches the name as a case-insensitive substring', () => {
    expect(codes(searchCountries('ind'))).toEqual(['IN', 'ID']);
    expect(codes(searchCountries('  UNITED '))).toEqual(['US', 'GB', 'AE']);
  });

  it('matches the dial code as a prefix, with or without the plus', () => {
    expect(codes(searchCountries('91'))).toEqual(['IN']);
    expect(codes(searchCountries('+91'))).toEqual(['IN']);
    expect(codes(searchCountries('+1'))).toEqual(['US', 'CA']);
    expect(codes(searchCountries('97'))).toEqual(['AE', 'QA', 'BH', 'NP', 'BT']);
  });

  it('returns the full list when nothing matches or the query is blank', () => {
    expect(searchCountries('Atlantis')).toBe(COUNTRIES);
    expect(searchCountries('+999')).toBe(COUNTRIES);
    expect(searchCountries('')).toBe(COUNTRIES);
    expect(searchCountries('   ')).toBe(COUNTRIES);
  });
});
