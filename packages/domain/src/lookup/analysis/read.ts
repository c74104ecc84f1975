/**
 * Reading untrusted answers for the analysis: every read tolerates missing or wrongly typed fields,
 * lists and strings are capped, and nothing here throws on junk input.
 */

export const MAX_LIST = 500;
export const MAX_VALUE_CHARS = 300;

export type Dict = Record<string, unknown>;

export function dict(value: unknown): Dict | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Dict) : undefined;
}

export function list(value: unknown): unknown[] {
  return Array.isArray(value) ? value.slice(0, MAX_LIST) : [];
}

/** Own properties only, so a key such as 'constructor' never reaches Object.prototype. */
export function at(value: unknown, ...path: string[]): unknown {
  let current = value;
  for (const key of path) {
    const container = dict(current);
    current = container && Object.hasOwn(container, key) ? container[key] : undefined;
  }
  return current;
}

const PLACEHOLDERS = new Set(['', 'n/a', 'na', '-', 'null', 'undefined', 'none']);

/** A report-safe string: control characters out, spacing folded, length capped; placeholders are nothing. */
export function text(value: unknown): string | undefined {
  let raw: string | undefined;
  if (typeof value === 'string') raw = value;
  else if (typeof value === 'number' && Number.isFinite(value)) raw = String(value);
  if (raw === undefined) return undefined;
  // Control characters never belong in a report line.
  const cleaned = raw
    .slice(0, MAX_VALUE_CHARS * 4)
    .replace(/[\p{Cc}\p{Cf}]+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  if (PLACEHOLDERS.has(cleaned.toLowerCase())) return undefined;
  return cleaned.length > MAX_VALUE_CHARS ? `${cleaned.slice(0, MAX_VALUE_CHARS - 1)}…` : cleaned;
}

/** hlrData may arrive as a JSON string; a string that does not parse is no answer. */
export function parseHlr(value: unknown): Dict | undefined {
  if (typeof value !== 'string') return dict(value);
  try {
    return dict(JSON.parse(value));
  } catch {
    return undefined;
  }
}
