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

/** A batch as COPY text-format rows, in COLUMNS order. */
export function copyText(records: readonly PreparedLeakRecord[]): string {
  let text = '';
  for (const r of records) {
    const tokens = r.nameTokens === null ? null : arrayLiteral(r.nameTokens);
    // One test a row: most rows have nothing to escape (the hash and the norms never do).
    const row = `${r.name}${r.email}${r.phone}${r.username}${r.address}${r.otherJson}${tokens}`;
    if (COPY_SPECIAL.test(row)) {
      text += `${r.recordHash}\t${copyValue(r.name)}\t${copyValue(r.email)}\t${copyValue(r.phone)}\t${copyValue(
        r.username,
      )}\t${copyValue(r.address)}\t${copyValue(r.otherJson)}\t${copyValue(r.emailNorm)}\t${copyValue(
        r.phoneNorm,
      )}\t${copyValue(r.usernameNorm)}\t${copyValue(tokens)}\n`;
    } else {
      text += `${r.recordHash}\t${nullable(r.name)}\t${nullable(r.email)}\t${nullable(r.phone)}\t${nullable(
        r.username,
      )}\t${nullable(r.address)}\t${nullable(r.otherJson)}\t${nullable(r.emailNorm)}\t${nullable(
        r.phoneNorm,
      )}\t${nullable(r.usernameNorm)}\t${nullable(tokens)}\n`;
    }
  }
  return text;
}
