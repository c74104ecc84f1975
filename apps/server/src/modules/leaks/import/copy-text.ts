/** COPY text format of a batch (no dependencies: also bundled into the parse worker). */
import type { PreparedLeakRecord } from './record.ts';

// ---------------------------------------------------------------- COPY text format

const COPY_SPECIAL = /[\\\n\r\t]/;
const COPY_SPECIAL_ALL = /[\\\n\r\t]/g;
const COPY_ESCAPES: Record<string, string> = { '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/** One value in COPY's text format: \N for NULL, backslash, newline, CR and tab escaped. */
export function copyValue(value: string | null): string {
  if (value === null) return '\\N';
  return COPY_SPECIAL.test(value) ? value.replace(COPY_SPECIAL_ALL, (c) => COPY_ESCAPES[c] as string) : value;
}

/** A PostgreSQL array literal with every element quoted (so a token 'null' stays a string). */
export function arrayLiteral(items: readonly string[]): string {
  let literal = '{';
  for (let i = 0; i < items.length; i++) {
    const item = items[i] as string;
    const quoted = item.includes('"') || item.includes('\\') ? item.replace(/["\\]/g, '\\$&') : item;
    literal += i === 0 ? `"${quoted}"` : `,"${quoted}"`;
  }
  return `${literal}}`;
}

const nullable = (value: string | null) => (value === null ? '\\N' : value);

/** One record as a COPY text-format row (newline included), in COLUMNS order. */
export function copyRow(r: PreparedLeakRecord): string {
  const tokens = r.nameTokens === null ? null : arrayLiteral(r.nameTokens);
  // One test a row: most rows have nothing to escape (the hash and the norms never do).
  const row = `${r.name}${r.email}${r.phone}${r.username}${r.address}${r.otherJson}${tokens}`;
  if (COPY_SPECIAL.test(row)) {
    return `${r.recordHash}\t${copyValue(r.name)}\t${copyValue(r.email)}\t${copyValue(r.phone)}\t${copyValue(
      r.username,
    )}\t${copyValue(r.address)}\t${copyValue(r.otherJson)}\t${copyValue(r.emailNorm)}\t${copyValue(
      r.phoneNorm,
    )}\t${copyValue(r.usernameNorm)}\t${copyValue(tokens)}\n`;
  }
  return `${r.recordHash}\t${nullable(r.name)}\t${nullable(r.email)}\t${nullable(r.phone)}\t${nullable(
    r.username,
  )}\t${nullable(r.address)}\t${nullable(r.otherJson)}\t${nullable(r.emailNorm)}\t${nullable(
    r.phoneNorm,
  )}\t${nullable(r.usernameNorm)}\t${nullable(tokens)}\n`;
}

/** A batch as COPY text-format rows, in COLUMNS order. */
export function copyText(records: readonly PreparedLeakRecord[]): string {
  let text = '';
  for (const r of records) text += copyRow(r);
  return text;
}

/**
 * A batch's COPY text, UTF-8 encoded row by row as it is built, into memory outside the JavaScript
 * heap: each row's string is garbage at once, instead of a batch of strings (and the records behind
 * them) that every young-generation collection copies until the batch ends.
 */
export class CopyBytes {
  #buffer: Buffer;
  #length = 0;

  constructor(capacity = 1 << 20) {
    this.#buffer = Buffer.allocUnsafe(capacity);
  }

  append(record: PreparedLeakRecord): void {
    const row = copyRow(record);
    // A UTF-16 code unit takes at most 3 bytes in UTF-8.
    if (this.#length + row.length * 3 > this.#buffer.length) {
      const bigger = Buffer.allocUnsafe(Math.max(this.#buffer.length * 2, this.#length + row.length * 3));
      this.#buffer.copy(bigger, 0, 0, this.#length);
      this.#buffer = bigger;
    }
    this.#length += this.#buffer.write(row, this.#length);
  }

  /** The bytes written so far (a view of this buffer's memory). */
  bytes(): Uint8Array {
    return this.#buffer.subarray(0, this.#length);
  }
}
