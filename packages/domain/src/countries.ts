/**
 * The country picker's 38 countries (spec §2.4): India first, then the neighbourhood, the Gulf (where
 * many Indian numbers roam or work), and the countries Indian investigations most often touch.
 */

export interface Country {
  name: string;
  /** Without '+', as the phone lookup sends it (spec §7: dial code followed by the digits). */
  dialCode: string;
  /** ISO 3166-1 alpha-2. */
  code: string;
  flag: string;
}

/** The flag emoji is the code spelled in regional-indicator letters, so it can never disagree with it. */
function flagOf(code: string): string {
  return String.fromCodePoint(
    ...[...code.toUpperCase()].map((letter) => 0x1f1e6 + letter.charCodeAt(0) - 65),
  );
}

const ENTRIES: ReadonlyArray<[name: string, dialCode: string, code: string]> = [
  ['India', '91', 'IN'],
  ['United States', '1', 'US'],
  ['United Kingdom', '44', 'GB'],
  ['United Arab Emirates', '971', 'AE'],
  ['Saudi Arabia', '966', 'SA'],
  ['Qatar', '974', 'QA'],
  ['Kuwait', '965', 'KW'],
  ['Oman', '968', 'OM'],
  ['Bahrain', '973', 'BH'],
  ['Pakistan', '92', 'PK'],
  ['Bangladesh', '880', 'BD'],
  ['Nepal', '977', 'NP'],
  ['Sri Lanka', '94', 'LK'],
  ['Bhutan', '975', 'BT'],
  ['Maldives', '960', 'MV'],
  ['Afghanistan', '93', 'AF'],
  ['China', '86', 'CN'],
  ['Singapore', '65', 'SG'],
  ['Malaysia', '60', 'MY'],
  ['Thailand', '66', 'TH'],
  ['Indonesia', '62', 'ID'],
  ['Philippines', '63', 'PH'],
  ['Japan', '81', 'JP'],
  ['South Korea', '82', 'KR'],
  ['Australia', '61', 'AU'],
  ['New Zealand', '64', 'NZ'],
  ['Canada', '1', 'CA'],
  ['Germany', '49', 'DE'],
  ['France', '33', 'FR'],
  ['Italy', '39', 'IT'],
  ['Spain', '34', 'ES'],
  ['Netherlands', '31', 'NL'],
  ['Switzerland', '41', 'CH'],
  ['Russia', '7', 'RU'],
  ['South Africa', '27', 'ZA'],
  ['Nigeria', '234', 'NG'],
  ['Kenya', '254', 'KE'],
  ['Iran', '98', 'IR'],
];

export const COUNTRIES: ReadonlyArray<Country> = ENTRIES.map(([name, dialCode, code]) => ({
  name,
  dialCode,
  code,
  flag: flagOf(code),
}));

export const DEFAULT_COUNTRY: Country = COUNTRIES[0]!;

/**
 * Name (substring, any case) or dial code (prefix, with or without '+'). Spec §2.4: when nothing
 * matches, the whole list comes back rather than an empty picker.
 */
export function searchCountries(query: string): ReadonlyArray<Country> {
  const needle = String(query ?? '')
    .trim()
    .toLowerCase();
  if (!needle) return COUNTRIES;
  const digits = needle.replace(/^\+\s*/, '');
  const byDialCode = /^\d+$/.test(digits);
  const matches = COUNTRIES.filter(
    (country) =>
      country.name.toLowerCase().includes(needle) || (byDialCode && country.dialCode.startsWith(digits)),
  );
  return matches.length > 0 ? matches : COUNTRIES;
}
