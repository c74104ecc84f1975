/**
 * Text hygiene and formatting for reports. Every value in a report comes from upstream answers or user
 * input (DESIGN §6: untrusted); it reaches the PDF only as plain text that went through `clean`.
 * Formatting is fixed (UTC, English, no locale data) so the same job always draws the same document.
 */

import { formatRecordDate, formatRupees } from '@footprint/domain';

// biome-ignore lint/suspicious/noControlCharactersInRegex: stripping control characters is the point
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/g;
/** Bidirectional overrides and isolates could make a value read differently from what it is. */
const BIDI = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/g;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Longest value a report prints in one place; upstream answers are capped, not trusted to be short. */
export const MAX_VALUE_LENGTH = 2000;

export interface CleanOptions {
  /** Keep line breaks (narratives); otherwise all whitespace runs become one space. */
  multiline?: boolean;
  max?: number;
}

/** A printable string from any scalar; objects and functions print nothing. */
export function clean(value: unknown, options: CleanOptions = {}): string {
  let text: string;
  if (typeof value === 'string') text = value;
  else if (typeof value === 'number') text = Number.isFinite(value) ? String(value) : '';
  else if (typeof value === 'boolean') text = value ? 'Yes' : 'No';
  else if (typeof value === 'bigint') text = value.toString();
  else return '';
  text = text
    .replace(LONE_SURROGATE, '\uFFFD')
    .replace(/\r\n?/g, '\n')
    .replace(/\t/g, ' ')
    .replace(CONTROL, '')
    .replace(BIDI, '');
  if (options.multiline) {
    text = text
      .split('\n')
      .map((line) => line.replace(/[^\S\n]+/g, ' ').trim())
      .join('\n')
      .replace(/\n{3,}/g, '\n\n')
      .trim();
  } else {
    text = text.replace(/\s+/g, ' ').trim();
  }
  const max = options.max ?? MAX_VALUE_LENGTH;
  if (text.length > max) text = `${Array.from(text.slice(0, max)).slice(0, -1).join('')}…`;
  return text;
}

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

const pad = (n: number) => String(n).padStart(2, '0');

/** '2026-10-01T06:30:00Z' → '1 October 2026, 06:30:00 UTC'; an unparsable value prints as given. */
export function readableUtc(iso: string): string {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return clean(iso);
  return `${at.getUTCDate()} ${MONTHS[at.getUTCMonth()]} ${at.getUTCFullYear()}, ${pad(at.getUTCHours())}:${pad(
    at.getUTCMinutes(),
  )}:${pad(at.getUTCSeconds())} UTC`;
}

/** The exact instant in ISO form, or the input as given when it is not a date. */
export function isoUtc(iso: string): string {
  const at = new Date(iso);
  return Number.isNaN(at.getTime()) ? clean(iso) : at.toISOString();
}

/**
 * '2024-04-18' (or the day of '2024-04-18T09:00:00Z') → '18 Apr 2024', by the domain's record
 * formatter, so reports print days as the screens do; anything else prints as given.
 */
export function readableDay(value: string): string {
  const iso = /^\d{4}-\d{2}-\d{2}(?=$|[T ])/.exec(value.trim());
  return formatRecordDate(iso ? iso[0] : value) ?? clean(value);
}

/** 123456 → '₹1,23,456' (the domain's formatter: Indian digit grouping). */
export function rupees(value: number): string {
  return formatRupees(value) ?? '';
}

/** 12402775 → '12,402,775'. */
export function thousands(value: number): string {
  if (!Number.isFinite(value)) return '';
  const [whole, fraction] = String(Math.abs(value)).split('.');
  const grouped = whole!.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${value < 0 ? '-' : ''}${grouped}${fraction ? `.${fraction}` : ''}`;
}

/** 1 → '1 entry', 2 → '2 entries'. */
export function count(n: number, singular: string, plural = `${singular}s`): string {
  return `${thousands(n)} ${n === 1 ? singular : plural}`;
}
