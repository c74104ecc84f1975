/**
 * 'RC Details', 'UPI Details' and 'Challan Details' PDFs (spec §2.5): the stored vendor record as
 * key/value rows, hiding exactly what the modals hide (empty, null and n/a values, and client_id).
 */

import {
  DETAIL_HIDDEN_KEYS,
  detailLabel as domainDetailLabel,
  isHiddenDetailString,
  isRecord,
  messages,
} from '@footprint/domain';
import { hasGlyph } from './fonts.ts';
import { clean, count, readableUtc, thousands } from './format.ts';
import { drawAbout, drawCover } from './frame.ts';
import { COLOR, type Column, type Row, STYLE, text, type Writer } from './layout.ts';
import type { DetailReportJob } from './types.ts';

export const DETAIL_TITLES = {
  rc: messages.details.rcTitle,
  upi: messages.details.upiTitle,
  challan: messages.details.challanTitle,
} as const;
const ID_LABELS = { rc: 'RC number', upi: 'UPI id', challan: 'RC number' } as const;

const HIDDEN_KEYS = DETAIL_HIDDEN_KEYS;

/**
 * Whether the detail modals (and these PDFs) hide a value: null or undefined, a string that is empty or
 * a placeholder once trimmed, a non-finite number, and an array or object with nothing shown inside.
 */
export function hiddenDetailValue(value: unknown): boolean {
  if (value === null || value === undefined) return true;
  if (typeof value === 'string') return isHiddenDetailString(value);
  if (typeof value === 'number') return !Number.isFinite(value);
  if (typeof value === 'boolean' || typeof value === 'bigint') return false;
  if (Array.isArray(value)) return value.every(hiddenDetailValue);
  if (typeof value === 'object') {
    return Object.entries(value).every(([key, item]) => HIDDEN_KEYS.has(key) || hiddenDetailValue(item));
  }
  return true;
}

/** 'owner_name' → 'Owner Name', 'pucc_upto' → 'PUCC Upto' (as the modals label rows). */
export function detailLabel(key: string): string {
  return domainDetailLabel(clean(key, { max: 120 }));
}

export interface DetailGroup {
  title?: string;
  rows: Array<{ label: string; value: string }>;
}

function scalar(value: unknown): string | undefined {
  if (hiddenDetailValue(value)) return undefined;
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  const shown = clean(value);
  return shown || undefined;
}

/**
 * Flattens a record into rows: nested objects as 'Parent › Child' labels, lists of scalars joined with
 * commas, lists of objects as their own numbered groups. Hidden values and keys never appear.
 */
export function detailGroups(record: unknown, title?: string, depth = 0): DetailGroup[] {
  const rows: DetailGroup['rows'] = [];
  const nested: DetailGroup[] = [];
  const walk = (value: unknown, prefix: string, level: number) => {
    if (!isRecord(value) || level > 6) return;
    for (const [key, item] of Object.entries(value)) {
      if (HIDDEN_KEYS.has(key) || hiddenDetailValue(item)) continue;
      const label = prefix ? `${prefix} › ${detailLabel(key)}` : detailLabel(key);
      if (Array.isArray(item)) {
        const objects = item.filter(isRecord).filter((entry) => !hiddenDetailValue(entry));
        if (objects.length > 0 && depth < 3) {
          objects.forEach((entry, index) => {
            nested.push(...detailGroups(entry, `${label} ${index + 1} of ${objects.length}`, depth + 1));
          });
        }
        const joined = item
          .filter((entry) => !isRecord(entry))
          .map(scalar)
          .filter(Boolean)
          .join(', ');
        if (joined) rows.push({ label, value: joined });
      } else if (isRecord(item)) {
        walk(item, label, level + 1);
      } else {
        const shown = scalar(item);
        if (shown !== undefined) rows.push({ label, value: shown });
      }
    }
  };
  walk(record, '', 0);
  return [...(rows.length > 0 ? [title ? { title, rows } : { rows }] : []), ...nested];
}

function challansOf(record: Record<string, unknown>): Record<string, unknown>[] {
  const list = record.challan_details;
  return Array.isArray(list) ? list.filter(isRecord) : [];
}

function groupsOf(job: DetailReportJob): DetailGroup[] {
  const record = isRecord(job.record) ? job.record : {};
  if (job.type !== 'challan') return detailGroups(record);
  const challans = challansOf(record);
  if (challans.length === 0) return [];
  const { challan_details: _, ...rest } = record;
  return [
    ...detailGroups(rest, 'Summary'),
    ...challans.flatMap((item, index) => detailGroups(item, `Challan ${index + 1} of ${challans.length}`)),
  ];
}

function amountOf(value: unknown): number | undefined {
  const n = typeof value === 'string' ? Number(value.replace(/[,\s₹]/g, '')) : value;
  return typeof n === 'number' && Number.isFinite(n) && n >= 0 ? n : undefined;
}

function drawChallanSummary(writer: Writer, challans: Record<string, unknown>[]): void {
  const pending = challans.filter((c) => clean(c.challan_status).toLowerCase() === 'pending');
  const sum = (list: Record<string, unknown>[]) =>
    list.reduce((total, c) => total + (amountOf(c.amount) ?? 0), 0);
  writer.tiles([
    { label: 'Challans', value: thousands(challans.length) },
    { label: 'Pending', value: thousands(pending.length), tone: pending.length ? 'warn' : 'default' },
    {
      label: 'Pending amount',
      value: `₹ ${thousands(sum(pending))}`,
      tone: pending.length ? 'warn' : 'default',
    },
    { label: 'Total amount', value: `₹ ${thousands(sum(challans))}` },
  ]);
}

export function noDataLine(type: DetailReportJob['type']): string {
  const mark = hasGlyph('regular', '⚠') ? '⚠' : '(!)';
  // The spec's line, with a plain mark when the font has no warning sign.
  return messages.details.noData(messages.details.typeNames[type]).replace('⚠', mark);
}

export function drawDetailReport(writer: Writer, job: DetailReportJob): void {
  const type = job.type;
  drawCover(writer, {
    title: DETAIL_TITLES[type],
    kindLabel: ID_LABELS[type],
    value: job.id,
    searchedAt: job.searchedAt,
    answeredAt: job.answeredAt,
    reusedFrom: job.reusedFrom,
    generatedAt: job.generatedAt,
    account: job.account,
    lookupId: job.lookupId,
    reportId: job.reportId,
    caseReference: job.caseReference ?? null,
    sandbox: job.sandbox,
  });

  const groups = groupsOf(job);
  if (groups.length === 0) {
    writer.notice([text(noDataLine(type), { size: 10, color: COLOR.amber, weight: 'bold' })], {
      fill: COLOR.amberFill,
      bar: COLOR.amberLine,
    });
  } else {
    if (type === 'challan') drawChallanSummary(writer, challansOf(job.record));
    const columns: Column[] = [
      { header: 'Field', weight: 34 },
      { header: 'Value', weight: 66 },
    ];
    const total = groups.reduce((sum, group) => sum + group.rows.length, 0);
    groups.forEach((group, i) => {
      const rows: Row[] = group.rows.map((row) => ({
        cells: [[text(row.label, STYLE.key)], [text(row.value, { ...STYLE.body, size: 9.2 })]],
      }));
      const title = group.title ?? (type === 'upi' ? 'UPI record' : 'Vehicle registration record');
      const lead = writer.keepFor({ columns, rows }, 300);
      if (i === 0 && !group.title) {
        writer.heading(title, { note: count(total, 'field'), keep: lead });
      } else {
        writer.heading(title, { note: count(group.rows.length, 'field'), keep: lead, level: 2 });
      }
      writer.table({ columns, rows, title });
    });
  }
  drawAbout(writer, {
    reportId: job.reportId,
    account: job.account,
    extra: `Rows the results page hides (empty, null and 'n/a' values and the vendor's request id) are left out. Retrieved on ${readableUtc(job.answeredAt ?? job.searchedAt)}.`,
  });
}
