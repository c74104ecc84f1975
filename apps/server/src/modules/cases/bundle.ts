import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import {
  CAPTURE_KEY_FILE,
  CASE_EXPORT_FORMATS,
  type CaseDetail,
  legalBasisLine,
  searchLabel,
} from '@footprint/domain';
import { and, eq, like, or, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { auditEvents, type UserRow } from '../../db/schema.ts';
import type { ClientContext } from '../../http/context.ts';
import { auditCsvOf } from '../audit/query.ts';
import { recordAudit } from '../audit/service.ts';
import { type ReportService, reportKindOf, safeFilePart } from '../reports/service.ts';
import { type BundleArchive, createBundleArchive } from './bundle-archive.ts';
import {
  BUNDLE_FORMAT,
  BUNDLE_GENERATOR,
  type BundleFile,
  type BundleItem,
  type BundleManifest,
} from './bundle-manifest.ts';
import { caseSummaryJob } from './bundle-summary.ts';
import { chainFiles } from './captures/files.ts';
import type { CaptureSigner } from './captures/signer.ts';
import { caseExportInput } from './exports/input.ts';
import { renderCaseExport } from './exports/service.ts';
import type { Cases } from './service.ts';
import { referenceSlug, storedResultOf } from './stored-result.ts';

export interface CaseBundlesDeps {
  db: Database;
  cases: Cases;
  reports: ReportService;
  /** The capture key: its public half goes in every bundle beside the captures it signed. */
  signer: CaptureSigner;
  now: () => Date;
}

const NO_REPORT_KIND =
  'No PDF report exists for this kind of search: its stored result is included as JSON only.';

const kindPart = (kind: string) => kind.replace(/[^a-z0-9_]+/gi, '-');

/**
 * Registers a finished bundle (`reports`, kind case_bundle) with its audit row, in one transaction:
 * the ZIP's hash and size, and the reports drawn for it.
 */
async function registerBundle(
  deps: CaseBundlesDeps,
  user: UserRow,
  client: ClientContext,
  detail: CaseDetail,
  bundle: { fileName: string; sha256: string; bytes: number; files: BundleFile[]; items: BundleItem[] },
): Promise<void> {
  const { db, reports } = deps;
  const { fileName, sha256, bytes, files, items } = bundle;
  const reportId = randomUUID();
  await db.transaction(async (tx) => {
    await reports.register(tx, user, { id: reportId, kind: 'case_bundle', fileName, sha256, bytes });
    await recordAudit(tx, {
      action: 'case.bundle',
      outcome: 'success',
      user,
      client,
      target: detail.id,
      cost: 0,
      caseReference: detail.reference,
      details: {
        case_id: detail.id,
        ...(detail.legal_basis ? { legal_basis: legalBasisLine(detail.legal_basis) } : {}),
        report_id: reportId,
        file_name: fileName,
        sha256,
        bytes,
        items: items.length,
        files: files.length,
        // The reports drawn for it (the summary and each search's), registered each on its own.
        report_ids: files.flatMap((file) => (file.report_id ? [file.report_id] : [])),
      },
    });
  });
}

const json = (value: unknown) => Buffer.from(`${JSON.stringify(value, null, 2)}\n`, 'utf8');

/**
 * Searches whose stored result is read and report drawn ahead of the one the archive is taking: the
 * summary and the next reports render while the archive takes the earlier ones (and the reads of one
 * search overlap the drawing of another), yet at most this many drawn PDFs wait in memory however
 * large the case, and the files still go into the ZIP in the case's order.
 */
export const BUNDLE_DRAW_AHEAD = 4;

/** One search of the case made ready for the archive: its stored result and, where drawn, its report. */
interface DrawnSearch {
  entry: BundleItem;
  base: string;
  result: unknown;
  report: Awaited<ReturnType<ReportService['searchReport']>>;
}

/** Reads one search's stored result and draws its report (where its kind has one), without adding them. */
async function drawSearch(
  deps: CaseBundlesDeps,
  archive: BundleArchive,
  user: UserRow,
  item: CaseDetail['items'][number],
  n: number,
): Promise<DrawnSearch> {
  const { db, reports } = deps;
  const base = `${String(n).padStart(3, '0')}-${kindPart(item.kind)}-${item.lookup_id}`;
  const entry: BundleItem = {
    n,
    lookup_id: item.lookup_id,
    kind: item.kind,
    search: searchLabel(item),
    status: 'included',
    result: null,
    report: null,
  };
  const { result, purged } = await storedResultOf(db, item.lookup_id);
  if (result === null) {
    entry.status = purged ? 'purged' : 'no_result';
    return { entry, base, result, report: null };
  }
  if (!reportKindOf(item.kind)) {
    entry.report_note = NO_REPORT_KIND;
    return { entry, base, result, report: null };
  }
  // A client that left stops the drawing of reports not yet begun.
  if (archive.aborted) throw new Error('the client went away');
  const report = await archive.whenFree(() =>
    reports.searchReport(user, item.lookup_id, safeFilePart(`${base}.pdf`)),
  );
  if (!report) entry.report_note = 'This search has no report: its sources did not answer it.';
  return { entry, base, result, report };
}

/** Adds one drawn search to the archive: its report (where drawn), then its stored result. */
async function addSearch(archive: BundleArchive, drawn: DrawnSearch): Promise<BundleItem> {
  const { entry, base, result, report } = drawn;
  if (result === null) return entry;
  if (report) {
    const path = `reports/${base}.pdf`;
    await archive.add(path, report.pdf, false, { report_id: report.reportId });
    entry.report = path;
  }
  const path = `results/${base}.json`;
  await archive.add(path, json(result), true);
  entry.result = path;
  return entry;
}

/** Draws every file of the bundle into the archive, in order, then ends it. */
async function writeBundle(
  deps: CaseBundlesDeps,
  archive: BundleArchive,
  user: UserRow,
  detail: CaseDetail,
  started: Date,
  items: BundleItem[],
): Promise<void> {
  const { db, reports, now } = deps;
  // Drawn ahead, each awaited in turn below. A promise not yet awaited is marked handled, so that a
  // failure of one drawn ahead (the client left) is not an unhandled rejection: it throws when its
  // turn comes, or never matters if an earlier one already stopped the bundle.
  const ahead = <T>(promise: Promise<T>) => {
    promise.catch(() => undefined);
    return promise;
  };
  // 1. The case summary, drawn in the report pool like every report (first in the pool's queue).
  const summary = ahead(
    archive.whenFree(() =>
      reports.caseSummary(
        user,
        caseSummaryJob(detail, user, { reportId: randomUUID(), generatedAt: now().toISOString() }),
        'case-summary.pdf',
      ),
    ),
  );
  // 2. Every search, drawn up to BUNDLE_DRAW_AHEAD ahead of the archive while the summary draws.
  const pending: Array<Promise<DrawnSearch>> = [];
  let next = 0;
  const drawAhead = () => {
    while (next < detail.items.length && pending.length < BUNDLE_DRAW_AHEAD && !archive.aborted) {
      const item = detail.items[next]!;
      next += 1;
      pending.push(ahead(drawSearch(deps, archive, user, item, next)));
    }
  };
  drawAhead();
  const drawnSummary = await summary;
  await archive.add('case-summary.pdf', drawnSummary.pdf, false, { report_id: drawnSummary.reportId });

  // Every search in the case's order: its report (where its kind has one) and its stored result.
  // Each stored result as read here, so that the exports below do not read it again.
  const stored = new Map<string, { result: unknown; purged: boolean }>();
  while (pending.length > 0) {
    const drawn = await pending.shift()!;
    drawAhead();
    stored.set(drawn.entry.lookup_id, { result: drawn.result, purged: drawn.entry.status === 'purged' });
    items.push(await addSearch(archive, drawn));
  }

  // 3. The case's audit rows: its searches' (details.case_id) and its own actions (case.*).
  const where = or(
    sql`${auditEvents.details}->>'case_id' = ${detail.id}`,
    and(like(auditEvents.action, 'case.%'), eq(auditEvents.target, detail.id)),
  );
  await archive.add('audit.csv', auditCsvOf(db, where), true);

  // 4. The case in every export format (STIX, GraphML, …), drawn from the same reading of the case.
  const read = await caseExportInput(db, user, detail, started, stored);
  for (const format of CASE_EXPORT_FORMATS) {
    if (archive.aborted) throw new Error('the client went away');
    const file = renderCaseExport(read, format);
    await archive.add(`exports/${file.fileName}`, file.body, true);
  }

  // 5. The case's captured pages, entry by entry of their signed chain, and the key that signed them.
  for await (const entryFiles of chainFiles(db, detail.id)) {
    for (const file of entryFiles) {
      if (archive.aborted) throw new Error('the client went away');
      await archive.add(file.path, file.body, file.compress);
    }
  }
  await archive.add(CAPTURE_KEY_FILE, Buffer.from(deps.signer.publicKeyPem, 'utf8'), true);

  // 6. The manifest: every file above with its hash and size (it cannot hold the ZIP's own).
  const manifest: BundleManifest = {
    format: BUNDLE_FORMAT,
    generator: BUNDLE_GENERATOR,
    case: { id: detail.id, reference: detail.reference, title: detail.title },
    generated_at: started.toISOString(),
    generated_by: { name: user.name, email: user.email },
    files: archive.files,
    items,
    note: 'The SHA-256 of this ZIP file itself was recorded when it was generated: anyone holding it can check it at /verify (POST /api/verify).',
  };
  await archive.add('manifest.json', json(manifest), true);
  archive.end();
}

/**
 * Opens the bundle of a case the caller may see (404 otherwise, before anything is sent): answers
 * its file name and the stream to send.
 */
export async function openBundle(
  deps: CaseBundlesDeps,
  user: UserRow,
  caseId: string,
  client: ClientContext,
): Promise<{ fileName: string; stream: Readable }> {
  const detail = await deps.cases.get(user, caseId);
  const started = deps.now();
  const fileName = `case-${referenceSlug(detail.reference)}-${started.toISOString().slice(0, 10)}.zip`;
  const items: BundleItem[] = [];
  const archive = createBundleArchive({
    started,
    now: deps.now,
    seal: ({ sha256, bytes, files }) =>
      registerBundle(deps, user, client, detail, { fileName, sha256, bytes, files, items }),
  });
  writeBundle(deps, archive, user, detail, started, items).catch((error: Error) => archive.fail(error));
  return { fileName, stream: archive.stream };
}

/**
 * A case's evidence bundle: a ZIP streamed as it is made, each file drawn only when the archive has
 * taken the one before (so a large case never sits in memory, and a slow or vanished client stops the
 * drawing). The ZIP's SHA-256 is computed as it streams and registered (`reports`, kind case_bundle)
 * with its audit row once its last byte is made, never for an archive left unfinished.
 */
export function createCaseBundles(deps: {
  db: Database;
  cases: Cases;
  reports: ReportService;
  signer: CaptureSigner;
  now?: () => Date;
}) {
  const bundleDeps: CaseBundlesDeps = { ...deps, now: deps.now ?? (() => new Date()) };
  return {
    open: (user: UserRow, caseId: string, client: ClientContext) =>
      openBundle(bundleDeps, user, caseId, client),
  };
}

export type CaseBundles = ReturnType<typeof createCaseBundles>;
