/**
 * What every case export reads (STIX, CASE/UCO, GraphML, the i2 CSV): the case as its page shows it,
 * each search with its stored result, and the case's audit rows as its chain of custody. Read once
 * per export, so that every format says the same facts; each renderer only changes how they are said.
 */
import type { CaseCapture, CaseDetail } from '@footprint/domain';
import { and, asc, eq, like, or, sql } from 'drizzle-orm';
import type { Database } from '../../../db/client.ts';
import { auditEvents, type UserRow } from '../../../db/schema.ts';
import { BUNDLE_GENERATOR } from '../bundle-manifest.ts';
import { capturesOf, chainOf } from '../captures/store.ts';
import { storedResultOf } from '../stored-result.ts';

/** One search of the case with what it stored (null when purged or never answered). */
export interface ExportedSearch {
  item: CaseDetail['items'][number];
  result: unknown;
  purged: boolean;
}

/** A finished capture, with the size of its signed manifest.json. */
export interface ExportedCapture extends CaseCapture {
  manifest_bytes: number;
}

/** The case's finished captures (kept or removed), oldest first, each with its manifest's size. */
async function exportedCaptures(db: Database, caseId: string): Promise<ExportedCapture[]> {
  const manifests = new Map(
    (await chainOf(db, caseId))
      .filter((entry) => entry.kind === 'capture')
      .map((entry) => [entry.captureId, Buffer.byteLength(entry.manifest, 'utf8')]),
  );
  return (await capturesOf(db, caseId))
    .flatMap((capture) => {
      const bytes = manifests.get(capture.id);
      return bytes === undefined ? [] : [{ ...capture, manifest_bytes: bytes }];
    })
    .reverse();
}

/** One audit row of the case: who did what to it, when (its chain of custody). */
export interface CustodyEvent {
  /** The trail's own sequence number. */
  id: number;
  at: string;
  action: string;
  outcome: string;
  actor: { id: string | null; email: string | null };
  target: string | null;
  details: Record<string, unknown>;
}

export interface CaseExportInput {
  detail: CaseDetail;
  searches: ExportedSearch[];
  /** The case's captured web pages that finished (kept, or removed since), oldest first. */
  captures: ExportedCapture[];
  custody: CustodyEvent[];
  generated: { at: string; by: { id: string; name: string; email: string }; generator: string };
}

/** The most audit rows an export carries (a case's own rows are far fewer). */
export const MAX_CUSTODY_EVENTS = 10_000;

/** The case's audit rows: its searches' (details.case_id) and its own actions (case.*), oldest first. */
export async function custodyOf(db: Database, caseId: string): Promise<CustodyEvent[]> {
  const rows = await db
    .select()
    .from(auditEvents)
    .where(
      or(
        sql`${auditEvents.details}->>'case_id' = ${caseId}`,
        and(like(auditEvents.action, 'case.%'), eq(auditEvents.target, caseId)),
      ),
    )
    .orderBy(asc(auditEvents.id))
    .limit(MAX_CUSTODY_EVENTS);
  return rows.map((row) => ({
    id: row.id,
    at: row.at.toISOString(),
    action: row.action,
    outcome: row.outcome,
    actor: { id: row.userId, email: row.actorEmail },
    target: row.target,
    details:
      typeof row.details === 'object' && row.details !== null ? (row.details as Record<string, unknown>) : {},
  }));
}

/**
 * Reads what an export of `detail` (a case the caller may see) says. `stored`: the searches' stored
 * results a caller has read already, by lookup id (the bundle's, which read each for its results/
 * file); the others are read here.
 */
export async function caseExportInput(
  db: Database,
  user: UserRow,
  detail: CaseDetail,
  now: Date,
  stored: ReadonlyMap<string, { result: unknown; purged: boolean }> = new Map(),
): Promise<CaseExportInput> {
  const searches: ExportedSearch[] = [];
  for (const item of detail.items) {
    const { result, purged } = stored.get(item.lookup_id) ?? (await storedResultOf(db, item.lookup_id));
    searches.push({ item, result, purged });
  }
  return {
    detail,
    searches,
    captures: await exportedCaptures(db, detail.id),
    custody: await custodyOf(db, detail.id),
    generated: {
      at: now.toISOString(),
      by: { id: user.id, name: user.name, email: user.email },
      generator: BUNDLE_GENERATOR,
    },
  };
}
