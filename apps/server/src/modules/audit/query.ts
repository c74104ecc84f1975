import type { AuditEvent, AuditFilters, Page } from '@footprint/domain';
import { and, count, desc, eq, gte, ilike, like, lt, or, type SQL, sql } from 'drizzle-orm';
import { auditOf } from '../../access/policy.ts';
import type { Executor } from '../../db/client.ts';
import { auditEvents } from '../../db/schema.ts';
import { presentAuditEvent } from './present.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DAY_MS = 86_400_000;
const LAST_DAY = '9999-12-31';

/** `%` and `_` typed in a filter are literal characters. */
const escapeLike = (value: string) => value.replace(/[\\%_]/g, (c) => `\\${c}`);
const contains = (value: string) => `%${escapeLike(value)}%`;

/**
 * The filters of the audit trail as SQL:
 * - `user`: a user id, or part of the actor's e-mail ('cli' for the operator commands);
 * - `action`: an exact action, or a prefix when it ends with '.' or '*' ('lookup.' = every lookup);
 * - `from`/`to`: whole UTC days, both inclusive;
 * - `q`: part of the target (the searched query of a lookup, the user id of an admin action) or of
 *   a search's query as typed;
 * - `case_reference`: part of the case reference.
 */
export function auditWhere(filters: AuditFilters): SQL | undefined {
  const where: SQL[] = [];
  if (filters.user) {
    where.push(
      UUID.test(filters.user) ? auditOf(filters.user) : ilike(auditEvents.actorEmail, contains(filters.user)),
    );
  }
  if (filters.action) {
    const prefix = filters.action.endsWith('*') ? filters.action.slice(0, -1) : filters.action;
    where.push(
      prefix !== filters.action || prefix.endsWith('.')
        ? like(auditEvents.action, `${escapeLike(prefix)}%`)
        : eq(auditEvents.action, filters.action),
    );
  }
  if (filters.from) where.push(gte(auditEvents.at, new Date(`${filters.from}T00:00:00.000Z`)));
  // The day after 9999-12-31 is past what a timestamp is written as: that `to` bounds nothing.
  if (filters.to && filters.to < LAST_DAY) {
    where.push(lt(auditEvents.at, new Date(new Date(`${filters.to}T00:00:00.000Z`).getTime() + DAY_MS)));
  }
  if (filters.q) {
    // A search is found by its query as matched (the target) or as the user typed it.
    where.push(
      or(
        ilike(auditEvents.target, contains(filters.q)),
        ilike(sql`${auditEvents.details}->>'query_typed'`, contains(filters.q)),
      )!,
    );
  }
  if (filters.case_reference) {
    where.push(ilike(auditEvents.caseReference, contains(filters.case_reference)));
  }
  return where.length > 0 ? and(...where) : undefined;
}

/** One page of the trail, newest first. */
export async function listAuditEvents(
  db: Executor,
  filters: AuditFilters,
  page: { page: number; per_page: number },
): Promise<Page<AuditEvent>> {
  const where = auditWhere(filters);
  const [rows, [counted]] = await Promise.all([
    db
      .select()
      .from(auditEvents)
      .where(where)
      .orderBy(desc(auditEvents.id))
      .limit(page.per_page)
      .offset((page.page - 1) * page.per_page),
    db.select({ n: count() }).from(auditEvents).where(where),
  ]);
  return {
    data: rows.map(presentAuditEvent),
    total: Number(counted?.n ?? 0),
    page: page.page,
    per_page: page.per_page,
  };
}

export async function countAuditEvents(db: Executor, filters: AuditFilters): Promise<number> {
  const [counted] = await db.select({ n: count() }).from(auditEvents).where(auditWhere(filters));
  return Number(counted?.n ?? 0);
}

export const AUDIT_CSV_COLUMNS = [
  'id',
  'at',
  'user_id',
  'actor_email',
  'ip',
  'device_id',
  'action',
  'target',
  'cost',
  'outcome',
  'case_reference',
  'details',
  // Added after the original columns, so that readers of the old layout keep working.
  'query_typed',
  'query_normalized',
] as const;

/**
 * One CSV field (RFC 4180). Text that a spreadsheet would run as a formula (=, +, -, @, tab, CR at
 * the start) gets a leading apostrophe: targets and case references are typed by users.
 */
export function csvField(value: unknown, text = true): string {
  if (value === null || value === undefined) return '';
  let cell =
    typeof value === 'string' ? value : typeof value === 'object' ? JSON.stringify(value) : String(value);
  if (text && /^[=+\-@\t\r]/.test(cell)) cell = `'${cell}`;
  return /[",\r\n]/.test(cell) ? `"${cell.replaceAll('"', '""')}"` : cell;
}

const auditCsvLine = (event: AuditEvent) =>
  [
    csvField(event.id, false),
    csvField(event.at, false),
    csvField(event.user_id),
    csvField(event.actor_email),
    csvField(event.ip),
    csvField(event.device_id),
    csvField(event.action),
    csvField(event.target),
    csvField(event.cost, false),
    csvField(event.outcome),
    csvField(event.case_reference),
    csvField(event.details),
    csvField(event.query_typed),
    csvField(event.query_normalized),
  ].join(',');

/**
 * The filtered trail as CSV, newest first, read in keyset batches so memory stays flat however
 * long the range is. Yields the header line first, then one chunk per batch.
 */
export function auditCsv(db: Executor, filters: AuditFilters, batchSize = 1000): AsyncGenerator<string> {
  return auditCsvOf(db, auditWhere(filters), batchSize);
}

/** The rows of the trail that `base` selects as CSV (the same layout and batches as `auditCsv`). */
export async function* auditCsvOf(
  db: Executor,
  base: SQL | undefined,
  batchSize = 1000,
): AsyncGenerator<string> {
  yield `${AUDIT_CSV_COLUMNS.join(',')}\r\n`;
  let before: number | undefined;
  for (;;) {
    const rows = await db
      .select()
      .from(auditEvents)
      .where(before === undefined ? base : and(base, lt(auditEvents.id, before)))
      .orderBy(desc(auditEvents.id))
      .limit(batchSize);
    if (rows.length === 0) return;
    yield rows.map((row) => `${auditCsvLine(presentAuditEvent(row))}\r\n`).join('');
    if (rows.length < batchSize) return;
    before = rows[rows.length - 1]!.id;
  }
}

/** A file name for an export of these filters, e.g. audit-2026-01-01-to-2026-01-31.csv. */
export const auditCsvFileName = (filters: AuditFilters, today: Date = new Date()) =>
  `audit-${filters.from ?? 'start'}-to-${filters.to ?? today.toISOString().slice(0, 10)}.csv`;

/** One CSV line, CRLF-terminated; numbers and dates the server wrote are not neutralised. */
export const csvLine = (cells: ReadonlyArray<unknown>, plain: ReadonlySet<number> = new Set()) =>
  `${cells.map((cell, i) => csvField(cell, !plain.has(i))).join(',')}\r\n`;

/** 'Rich.Demo@Example.TEST' → 'rich-demo-example-test': safe in a file name and a header. */
export const slug = (value: string, max = 60) =>
  value
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .slice(0, max)
    .replace(/^-+|-+$/g, '') || 'lookup';
