/**
 * One source row → one stored leak record: column mapping, secret dropping, trimming, validation,
 * normalized search keys (the same domain functions the search uses) and the idempotency hash.
 * The file importer and the sandbox loader both go through `LeakRecordBuilder`, so the two agree.
 */
import { hash } from 'node:crypto';
import {
  EMAIL_PATTERN,
  nameTokens,
  normalizeLeakEmail,
  normalizeLeakPhone,
  normalizeLeakUsername,
} from '@footprint/domain';
import { isSecretColumn } from './secrets.ts';

export const LEAK_RECORD_FIELDS = ['name', 'email', 'phone', 'username', 'address'] as const;
export type LeakRecordField = (typeof LEAK_RECORD_FIELDS)[number];
export type LeakColumnTarget = LeakRecordField | 'other' | 'skip';
/** File column (or dotted JSONL key path) → where its value goes. */
export type LeakColumnMapping = Record<string, LeakColumnTarget>;

export const LEAK_COLUMN_TARGETS: readonly LeakColumnTarget[] = [...LEAK_RECORD_FIELDS, 'other', 'skip'];

/** Longest value kept in any column; a longer one makes the row a reject. */
export const MAX_VALUE_LENGTH = 2_000;
const MAX_EMAIL_LENGTH = 254;
const MIN_PHONE_DIGITS = 7;
const MAX_PHONE_DIGITS = 15;

/** A record as stored in leak_records (minus id and source_id). */
export interface PreparedLeakRecord {
  recordHash: string;
  name: string | null;
  email: string | null;
  phone: string | null;
  username: string | null;
  address: string | null;
  /**
   * Every other kept field as a JSON object, keys sorted (what is stored in the jsonb column, and
   * what the hash covers); null when there is none.
   */
  otherJson: string | null;
  emailNorm: string | null;
  phoneNorm: string | null;
  usernameNorm: string | null;
  nameTokens: string[] | null;
}

export interface RejectedRow {
  reject: string;
}

export type BuiltRow = PreparedLeakRecord | RejectedRow;

export const isRejected = (row: BuiltRow): row is RejectedRow => 'reject' in row;

/** Columns whose own name says what they hold, used when the mapping does not name that field. */
const SYNONYMS: Record<LeakRecordField, readonly string[]> = {
  name: ['name', 'full_name', 'fullname', 'customer_name', 'display_name', 'real_name'],
  email: ['email', 'e_mail', 'email_address', 'emailaddress', 'email_id', 'mail'],
  phone: [
    'phone',
    'phone_number',
    'phonenumber',
    'phone_no',
    'mobile',
    'mobile_number',
    'mobile_no',
    'msisdn',
    'tel',
    'telephone',
    'contact_number',
    'cell',
  ],
  username: ['username', 'user_name', 'login', 'handle', 'nick', 'nickname', 'screen_name'],
  address: ['address', 'full_address', 'street_address', 'addr'],
};

const squash = (column: string) =>
  column
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_|_$/g, '');

/** Values dumps use for "nothing here"; stored as absent. */
const EMPTY_PLACEHOLDERS = new Set([
  'null',
  'none',
  'n/a',
  'na',
  '-',
  '--',
  '\\n',
  'undefined',
  'nil',
  '(null)',
]);

const isEmptyValue = (value: string) =>
  value === '' || (value.length <= 9 && EMPTY_PLACEHOLDERS.has(value.toLowerCase()));

type Target = LeakColumnTarget | 'secret' | 'invalid';

/** Most `other` fields a record keeps; a row with more is a reject (untrusted input: cap its size). */
const MAX_OTHER_FIELDS = 100;
/** Longest column name (or JSONL key path) kept as an `other` key. */
const MAX_COLUMN_NAME_LENGTH = 200;

/**
 * Canonical JSON of a stored record: fixed field order, `other` keys sorted (integer-like keys first,
 * as JavaScript orders them). Equal to JSON.stringify of {name, email, phone, username, address, other}
 * with `other` built in sorted order.
 */
export function canonicalRecordJson(
  record: Pick<PreparedLeakRecord, 'name' | 'email' | 'phone' | 'username' | 'address' | 'otherJson'>,
): string {
  const j = JSON.stringify;
  return `{"name":${j(record.name)},"email":${j(record.email)},"phone":${j(record.phone)},"username":${j(
    record.username,
  )},"address":${j(record.address)},"other":${record.otherJson ?? '{}'}}`;
}

/**
 * JSON.stringify(Object.fromEntries(entries)) for entries sorted by key, written without building the
 * object (a third of a record's cost went there). Where the object would order or merge keys otherwise,
 * an integer-like key (JavaScript puts those first) or a repeated one (the last value wins), the
 * object is built after all, so the text, and the record hash over it, stays the same.
 */
export function sortedEntriesJson(entries: readonly (readonly [string, string])[]): string {
  let json = '{';
  let previous: string | undefined;
  for (let i = 0; i < entries.length; i++) {
    const [key, value] = entries[i] as readonly [string, string];
    const first = key.charCodeAt(0);
    if ((first >= 48 && first <= 57) || key === previous) return JSON.stringify(Object.fromEntries(entries));
    json += `${i === 0 ? '' : ','}${JSON.stringify(key)}:${JSON.stringify(value)}`;
    previous = key;
  }
  return `${json}}`;
}

/** sha256 hex of `${sourceName}\u0000${canonical JSON}`: the record's identity within its source. */
export function leakRecordHash(sourceName: string, canonicalJson: string): string {
  // The one-shot hash: half the cost of a Hash object per row (about 0.4 against 0.9 µs).
  return hash('sha256', `${sourceName}\u0000${canonicalJson}`, 'hex');
}

export class LeakRecordBuilder {
  readonly #sourceName: string;
  readonly #explicit = new Map<string, LeakColumnTarget>();
  readonly #explicitLower = new Map<string, LeakColumnTarget>();
  readonly #mappedFields = new Set<LeakColumnTarget>();
  readonly #targets = new Map<string, Target>();
  readonly #droppedSecrets = new Set<string>();

  constructor(sourceName: string, mapping: LeakColumnMapping = {}) {
    this.#sourceName = sourceName;
    for (const [column, target] of Object.entries(mapping)) {
      if (!LEAK_COLUMN_TARGETS.includes(target)) {
        throw new Error(`Unknown mapping target '${String(target)}' for column '${column}'.`);
      }
      this.#explicit.set(column, target);
      this.#explicitLower.set(column.toLowerCase(), target);
      this.#mappedFields.add(target);
    }
  }

  /** Where a column goes; secrets first, whatever the mapping says. */
  target(column: string): Target {
    let target = this.#targets.get(column);
    if (target !== undefined) return target;
    target = this.#resolve(column);
    this.#targets.set(column, target);
    return target;
  }

  #resolve(column: string): Target {
    if (isSecretColumn(column)) return 'secret';
    const explicit = this.#explicit.get(column) ?? this.#explicitLower.get(column.toLowerCase());
    if (explicit) return explicit;
    if (column.length > MAX_COLUMN_NAME_LENGTH) return 'invalid';
    const key = squash(column);
    for (const field of LEAK_RECORD_FIELDS) {
      if (!this.#mappedFields.has(field) && SYNONYMS[field].includes(key)) return field;
    }
    return 'other';
  }

  noteDroppedSecret(column: string): void {
    this.#droppedSecrets.add(column);
  }

  /** Secret columns seen so far, in the order first seen. */
  get droppedSecretColumns(): string[] {
    return [...this.#droppedSecrets];
  }

  /** Builds one record from parallel column/value arrays (values untrimmed, as read). */
  build(columns: readonly string[], values: readonly (string | undefined)[]): BuiltRow {
    let name: string | null = null;
    let email: string | null = null;
    let phone: string | null = null;
    let username: string | null = null;
    let address: string | null = null;
    const otherEntries: [string, string][] = [];
    let emailColumn = '';
    let phoneColumn = '';

    for (let i = 0; i < columns.length; i++) {
      const column = columns[i] as string;
      const target = this.target(column);
      if (target === 'secret') {
        this.#droppedSecrets.add(column);
        continue;
      }
      if (target === 'skip') continue;
      const raw = values[i];
      if (raw === undefined) continue;
      const value = raw.trim();
      if (isEmptyValue(value)) continue;
      if (target === 'invalid') {
        return {
          reject: `column name too long (${column.length} characters, max ${MAX_COLUMN_NAME_LENGTH})`,
        };
      }
      if (value.length > MAX_VALUE_LENGTH) {
        return {
          reject: `value too long in column '${column}' (${value.length} characters, max ${MAX_VALUE_LENGTH})`,
        };
      }
      if (value.includes('\u0000')) return { reject: `NUL byte in column '${column}'` };
      switch (target) {
        case 'name':
          name = name === null ? value : `${name} ${value}`;
          break;
        case 'address':
          address = address === null ? value : `${address}, ${value}`;
          break;
        case 'email':
          if (email === null) {
            email = value;
            emailColumn = column;
          } else otherEntries.push([column, value]);
          break;
        case 'phone':
          if (phone === null) {
            phone = value;
            phoneColumn = column;
          } else otherEntries.push([column, value]);
          break;
        case 'username':
          if (username === null) username = value;
          else otherEntries.push([column, value]);
          break;
        default:
          otherEntries.push([column, value]);
      }
    }

    if (email !== null && (email.length > MAX_EMAIL_LENGTH || !EMAIL_PATTERN.test(email))) {
      return { reject: `invalid e-mail in column '${emailColumn}'` };
    }
    let phoneNorm: string | null = null;
    if (phone !== null) {
      const digits = phone.replace(/\D/g, '').length;
      if (digits < MIN_PHONE_DIGITS || digits > MAX_PHONE_DIGITS) {
        return { reject: `invalid phone in column '${phoneColumn}' (${digits} digits)` };
      }
      phoneNorm = normalizeLeakPhone(phone);
    }
    if (name === null && email === null && phone === null && username === null) {
      return { reject: 'no name, email, phone or username' };
    }

    if (otherEntries.length > MAX_OTHER_FIELDS) {
      return { reject: `too many fields (${otherEntries.length} other fields, max ${MAX_OTHER_FIELDS})` };
    }
    let otherJson: string | null = null;
    if (otherEntries.length > 0) {
      otherEntries.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
      otherJson = sortedEntriesJson(otherEntries);
    }
    const tokens = name === null ? null : nameTokens(name);
    return {
      recordHash: leakRecordHash(
        this.#sourceName,
        canonicalRecordJson({ name, email, phone, username, address, otherJson }),
      ),
      name,
      email,
      phone,
      username,
      address,
      otherJson,
      emailNorm: email === null ? null : normalizeLeakEmail(email),
      phoneNorm,
      usernameNorm: username === null ? null : normalizeLeakUsername(username),
      nameTokens: tokens && tokens.length > 0 ? tokens : null,
    };
  }
}
