/**
 * The results pages of Corporate and Identity Intelligence (spec §2.7, §2.8) show nested answers as
 * label/value lines:
 *   - the label is the last key segment with underscores as spaces ('legal_name' → 'legal name');
 *     inside an array of objects the array's key and the item's position lead it
 *     ('directors 1 name', 'filing status 1.3 status'), so repeated keys stay apart;
 *   - null, empty, 'N/A' and '-' values are hidden, and so is the date 1800-01-01 (the vendors'
 *     "unknown"), as is the vendor's request id (client_id);
 *   - arrays of scalars are joined with ', ', arrays of objects are indexed from 1.
 */

import { isRecord } from '../records.ts';

export interface IntelLine {
  /** Where the value sits: 'directors[0].name'; unique within one result. */
  path: string;
  label: string;
  value: string;
}

/** Keys whose values say nothing about the subject. */
const HIDDEN_KEYS: ReadonlySet<string> = new Set(['client_id']);
/** Deeper nesting than this is shown as nothing rather than walked (answers are untrusted input). */
const MAX_DEPTH = 12;
/** At most this many lines from one answer. */
export const MAX_INTEL_LINES = 5_000;

const SENTINEL_DATE = /^(1800-01-01(?:[T ][\d:.]+Z?)?|01[-/]01[-/]1800)$/;

/** Whether a scalar is hidden: null, empty, 'N/A', '-' or the sentinel date 1800-01-01. */
export function isHiddenIntelValue(value: unknown): boolean {
  if (value === null || value === undefined) return true;
  if (typeof value === 'number') return !Number.isFinite(value);
  if (typeof value !== 'string') return false;
  const v = value.trim();
  return v === '' || v === '-' || v.toUpperCase() === 'N/A' || SENTINEL_DATE.test(v);
}

const isContainer = (value: unknown): boolean => typeof value === 'object' && value !== null;

function scalarText(value: unknown): string | null {
  if (isHiddenIntelValue(value)) return null;
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (typeof value === 'string') return value.trim();
  if (typeof value === 'number' || typeof value === 'bigint') return String(value);
  return null;
}

const keyLabel = (key: string): string => key.replaceAll('_', ' ').trim();

export function flattenIntelResult(data: unknown): IntelLine[] {
  const lines: IntelLine[] = [];
  const push = (line: IntelLine) => {
    if (lines.length < MAX_INTEL_LINES) lines.push(line);
  };

  /**
   * `lead` is the label's prefix inherited from the nearest array of objects ('directors 1'), `key`
   * the last key segment seen.
   */
  const walk = (value: unknown, path: string, key: string, lead: string, depth: number): void => {
    if (depth > MAX_DEPTH || lines.length >= MAX_INTEL_LINES) return;
    const label = [lead, keyLabel(key)].filter(Boolean).join(' ') || 'value';
    if (Array.isArray(value)) {
      if (!value.some(isContainer)) {
        const joined = value
          .map(scalarText)
          .filter((v): v is string => v !== null)
          .join(', ');
        if (joined) push({ path, label, value: joined });
        return;
      }
      // Arrays of objects are indexed; a nested array continues its parent's index ('1.3').
      const base = lead && key === '' ? lead : [lead, keyLabel(key)].filter(Boolean).join(' ');
      value.forEach((item, i) => {
        const position = key === '' && lead ? `${base}.${i + 1}` : `${base} ${i + 1}`;
        if (isContainer(item)) walk(item, `${path}[${i}]`, '', position.trim(), depth + 1);
        else {
          const shown = scalarText(item);
          if (shown !== null) push({ path: `${path}[${i}]`, label: position.trim(), value: shown });
        }
      });
      return;
    }
    if (isRecord(value)) {
      for (const [k, item] of Object.entries(value)) {
        if (HIDDEN_KEYS.has(k)) continue;
        walk(item, path ? `${path}.${k}` : k, k, lead, depth + 1);
      }
      return;
    }
    const shown = scalarText(value);
    if (shown !== null) push({ path, label, value: shown });
  };

  walk(data, '', '', '', 0);
  return lines;
}

/** The results page's search box: lines whose label or value contains the query, any case. */
export function filterIntelLines(lines: readonly IntelLine[], query: string): IntelLine[] {
  const q = query.trim().toLowerCase();
  if (!q) return [...lines];
  return lines.filter((line) => line.label.toLowerCase().includes(q) || line.value.toLowerCase().includes(q));
}
