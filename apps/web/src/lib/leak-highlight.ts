import {
  type LeakFieldType,
  type LeakRecord,
  type LeakRow,
  nameTokens,
  normalizeLeakEmail,
  normalizeLeakPhone,
  normalizeLeakUsername,
} from '@footprint/domain';

/**
 * Which parts of a leak record answer the search, compared the way the server's index compares them
 * (the domain's normalizers): e-mail and username case-insensitive, phone on its last 10 digits, names
 * word by word, case- and accent-insensitive. Everything here returns plain strings: records are
 * untrusted and are only ever rendered as text.
 */

/** The searched values, normalized once per search. */
export interface LeakNeedles {
  names: Set<string>;
  emails: Set<string>;
  phones: Set<string>;
  usernames: Set<string>;
}

export function needlesOf(rows: readonly Pick<LeakRow, 'type' | 'value'>[]): LeakNeedles {
  const needles: LeakNeedles = {
    names: new Set(),
    emails: new Set(),
    phones: new Set(),
    usernames: new Set(),
  };
  for (const row of rows) {
    const value = row.value.trim();
    if (!value) continue;
    if (row.type === 'name') for (const token of nameTokens(value)) needles.names.add(token);
    else if (row.type === 'email') needles.emails.add(normalizeLeakEmail(value));
    else if (row.type === 'phone') needles.phones.add(normalizeLeakPhone(value));
    else needles.usernames.add(normalizeLeakUsername(value));
  }
  return needles;
}

/** A stretch of a value, marked when it matched the search. */
export interface Segment {
  text: string;
  match: boolean;
}

const whole = (text: string, match: boolean): Segment[] => [{ text, match }];

/** Splits a name into words and the text between them, marking the words the search asked for. */
function nameSegments(value: string, names: Set<string>): Segment[] {
  if (names.size === 0) return whole(value, false);
  const segments: Segment[] = [];
  // Same word boundaries as nameTokens, on the composed form so an accented letter stays in its word.
  for (const part of value.normalize('NFC').split(/([\p{L}\p{N}\p{M}]+)/u)) {
    if (!part) continue;
    const tokens = nameTokens(part);
    const match = tokens.length > 0 && tokens.every((token) => names.has(token));
    const previous = segments[segments.length - 1];
    if (previous && previous.match === match && !match) previous.text += part;
    else segments.push({ text: part, match });
  }
  return segments;
}

const phoneMatches = (value: string, phones: Set<string>): boolean =>
  phones.size > 0 && value.replace(/\D/g, '').length >= 10 && phones.has(normalizeLeakPhone(value));

/** The segments of one of the record's own fields. */
export function fieldSegments(
  type: LeakFieldType | 'address',
  value: string,
  needles: LeakNeedles,
): Segment[] {
  switch (type) {
    case 'name':
      return nameSegments(value, needles.names);
    case 'email':
      return whole(value, needles.emails.has(normalizeLeakEmail(value)));
    case 'phone':
      return whole(value, phoneMatches(value, needles.phones));
    case 'username':
      return whole(value, needles.usernames.has(normalizeLeakUsername(value)));
    default:
      return whole(value, false);
  }
}

/**
 * The segments of an extra field (`other`): a secondary e-mail, phone or handle that equals a searched
 * value is marked too, since it ties the record to the subject just as well. Names are left alone there:
 * a single common word in a free-text field says little.
 */
export function otherSegments(value: string, needles: LeakNeedles): Segment[] {
  const lower = value.trim().toLowerCase();
  const match =
    needles.emails.has(lower) || needles.usernames.has(lower) || phoneMatches(value, needles.phones);
  return whole(value, match);
}

export const hasMatch = (segments: readonly Segment[]): boolean => segments.some((s) => s.match);

const ACRONYMS = new Set(['id', 'ip', 'dob', 'url', 'pan', 'ssn', 'uid', 'imei', 'gps', 'pin', 'otp', 'upi']);

/** 'ip_address' → 'IP Address', 'dateOfBirth' → 'Date Of Birth', 'zip-code' → 'Zip Code'. */
export function humanizeKey(key: string): string {
  const words = key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[\s_.-]+/)
    .filter(Boolean);
  if (words.length === 0) return key;
  return words
    .map((word) =>
      ACRONYMS.has(word.toLowerCase())
        ? word.toUpperCase()
        : word[0]!.toUpperCase() + word.slice(1).toLowerCase(),
    )
    .join(' ');
}

/** One labelled value of a record card, in the order an investigator reads them. */
export interface RecordField {
  key: string;
  label: string;
  value: string;
  segments: Segment[];
}

const OWN_FIELDS = [
  ['name', 'Name'],
  ['email', 'Email'],
  ['phone', 'Phone'],
  ['username', 'Username'],
  ['address', 'Address'],
] as const;

const text = (value: unknown): string | null => {
  if (typeof value === 'string') return value.trim() || null;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return null;
};

/** Name, e-mail, phone, username, address, then every extra field; empty values are left out. */
export function recordFields(record: LeakRecord, needles: LeakNeedles): RecordField[] {
  const fields: RecordField[] = [];
  for (const [key, label] of OWN_FIELDS) {
    const value = text(record[key]);
    if (value) fields.push({ key, label, value, segments: fieldSegments(key, value, needles) });
  }
  const other = record.other && typeof record.other === 'object' ? record.other : {};
  for (const [key, raw] of Object.entries(other)) {
    const value = text(raw);
    if (value)
      fields.push({
        key: `other.${key}`,
        label: humanizeKey(key),
        value,
        segments: otherSegments(value, needles),
      });
  }
  return fields;
}

/**
 * '2019-03-14' → '14 Mar 2019', and a month alone (as leak-search vendors give it) '2019-07' →
 * 'Jul 2019'; anything unreadable is shown as it came.
 */
export function formatBreachDate(value: string): string {
  if (/^\d{4}-\d{2}$/.test(value)) {
    const month = new Date(`${value}-01T00:00:00Z`);
    if (Number.isNaN(month.getTime())) return value;
    return month.toLocaleDateString('en-GB', { month: 'short', year: 'numeric', timeZone: 'UTC' });
  }
  const date = /^\d{4}-\d{2}-\d{2}/.test(value) ? new Date(`${value.slice(0, 10)}T00:00:00Z`) : null;
  if (!date || Number.isNaN(date.getTime())) return value;
  return date.toLocaleDateString('en-GB', {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    timeZone: 'UTC',
  });
}
