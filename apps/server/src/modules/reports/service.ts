/**
 * Reports are drawn from what the server stored for the requesting user's own lookup, never from
 * what the browser sends: the browser only says which lookup it means. Each report is one function
 * of its own below; the stored lookups (stored.ts), the tasks the threads draw (builders.ts), the
 * files (files.ts), the checks (checks.ts) and the audit (audited.ts) are in their own files.
 */
import { createHash, randomUUID } from 'node:crypto';
import {
  type DetailKind,
  declarationOf,
  detailFacts,
  type LookupKind,
  type ProfileKind,
} from '@footprint/domain';
import type { Database } from '../../db/client.ts';
import { type LookupRow, reports, type UserRow } from '../../db/schema.ts';
import { notFound, validationError } from '../../errors.ts';
import type { ClientContext } from '../../http/context.ts';
import { auditedReport } from './audited.ts';
import { commonOf, detailJob, displayQuery, lookupJob, metaOf, statusesOf, usernameJob } from './builders.ts';
import { verifyReport, verifyReportHash } from './checks.ts';
import { createReportFiles, type ReportFile, type ReportFiles, safeFilePart } from './files.ts';
import { lookupViews } from './job.ts';
import { type LlmWriter, narrativeFor } from './narrative/llm.ts';
import type { ReportPool } from './pool.ts';
import type { CaseSummaryJob, ReportJob } from './render/types.ts';
import { createStoredLookups, type StoredLookups } from './stored.ts';

export type { ReportFile, ReportKind } from './files.ts';
export type { DetailKind, ProfileKind };
export { safeFilePart };

/** The report kind a search kind has, if any (its declaration says): the lookup report, or its own. */
export const reportKindOf = (kind: string): 'lookup' | DetailKind | null => {
  const report = declarationOf(kind)?.report;
  return report === 'detail' ? (kind as DetailKind) : (report ?? null);
};

const noLookup = () =>
  notFound('No stored lookup of yours matches this report. Run the search again, then download.');

/**
 * What a lookup report is asked for with: the value as the user typed it, normalized as its search
 * normalized it (a username: trimmed, a leading '@' dropped, case kept; usernameQuery).
 */
const typedQuery = (kind: LookupKind, userInput: string) => {
  if (kind === 'email') return userInput.trim().toLowerCase();
  if (kind === 'username') return userInput.trim().replace(/^@/, '').normalize('NFC');
  return userInput.replace(/\D/g, '');
};

interface ReportDeps {
  db: Database;
  stored: StoredLookups;
  files: ReportFiles;
  llm?: LlmWriter;
  now: () => Date;
}

/**
 * The stored lookup a phone or e-mail report is drawn from: refused first when every report thread is
 * busy, then found by what the user typed (or the lookup id the page holds), else 404.
 */
async function storedForReport(
  deps: ReportDeps,
  user: UserRow,
  kind: LookupKind,
  userInput: string,
  hint: unknown,
) {
  deps.files.refuseWhenBusy();
  const found = await deps.stored.forUser(user, kind, typedQuery(kind, userInput), hint);
  if (!found) throw noLookup();
  return found;
}

/**
 * The PDF report of a phone, e-mail or username lookup (the username report is its own template: the
 * sites found with their evidence).
 */
export async function lookupReport(
  deps: ReportDeps,
  user: UserRow,
  kind: LookupKind,
  userInput: string,
  hint: unknown,
): Promise<ReportFile> {
  const found = await storedForReport(deps, user, kind, userInput, hint);
  // The worker merges and analyses a phone or e-mail answer (job.ts): this thread only read the row.
  if (kind === 'username') {
    const job = usernameJob(user, found, deps.now(), randomUUID());
    const fileName = `username-report-${safeFilePart(found.row.query)}.pdf`;
    return deps.files.finish(user, found.row, job, 'lookup', fileName, null);
  }
  const job = lookupJob(user, kind, found, deps.now(), randomUUID());
  return deps.files.finish(user, found.row, job, 'lookup', `report-${safeFilePart(userInput)}.pdf`, null);
}

/** The written-analysis report of a phone or e-mail lookup: the analysis and its narrative. */
export async function aiReport(
  deps: ReportDeps,
  user: UserRow,
  kind: ProfileKind,
  userInput: string,
  hint: unknown,
): Promise<ReportFile> {
  const found = await storedForReport(deps, user, kind, userInput, hint);
  const sources = statusesOf(kind, found);
  const analysis = lookupViews(kind, found.result, metaOf(found, sources)).analysis();
  const shown = displayQuery(kind, found.row.query);
  const narrative = await narrativeFor(
    {
      kind,
      query: shown,
      analysis,
      sourcesAnswered: found.row.sourcesAnswered.length,
      // "No record" answers are in `errors` too; only sources that did not answer failed.
      sourcesFailed: Object.keys(found.result.errors).filter(
        (key) => !found.row.sourcesAnswered.includes(key),
      ),
    },
    deps.llm,
  );
  const job: ReportJob = {
    template: 'ai',
    ...commonOf(user, found, sources, deps.now(), randomUUID()),
    kind,
    query: shown,
    writer: narrative.writer,
    narrative: narrative.text,
    analysis,
  };
  const writer = narrative.writer.kind === 'llm' ? `llm:${narrative.writer.model ?? ''}` : 'deterministic';
  const fileName = `ai-generated-report-${safeFilePart(userInput)}.pdf`;
  return deps.files.finish(user, found.row, job, 'ai', fileName, writer);
}

/** A detail kind's report: the record the modal shows names the value, whose stored lookup is drawn. */
export async function detailReport(
  deps: ReportDeps,
  user: UserRow,
  type: DetailKind,
  data: Record<string, unknown>,
): Promise<ReportFile> {
  deps.files.refuseWhenBusy();
  const facts = detailFacts(type);
  const raw = facts.recordKeys.map((key) => data[key]).find((value) => value !== undefined && value !== null);
  if (typeof raw !== 'string' || raw.trim() === '' || raw.length > 100) {
    throw validationError({ data: [`The data field must name the ${facts.idLabel}.`] });
  }
  const id = facts.normalize(raw);
  const found = await deps.stored.forUser(user, type, id);
  if (!found) throw noLookup();
  const job = detailJob(user, type, id, found, deps.now(), randomUUID());
  return deps.files.finish(user, found.row, job, type, `${type}-details-${safeFilePart(id)}.pdf`, null);
}

/**
 * The report of one stored search, drawn as its kind's report endpoint draws it (the lookup report
 * for phone and e-mail lookups, a detail kind's own report) and registered like every report, for a
 * caller who may see it (a case's member: the caller checks that). 'Run by account' names who ran
 * the search; the report is registered to `user`, who made the file. Null when the kind has no
 * report (leak, corporate and verification searches) or its result is no longer kept. A full report
 * queue answers 503 (reports_busy), as the report endpoints do.
 */
export async function searchReport(
  deps: ReportDeps,
  user: UserRow,
  lookupId: string,
  fileName: string,
): Promise<ReportFile | null> {
  const found = await deps.stored.withRunner(lookupId);
  const report = found && reportKindOf(found.row.kind);
  if (!found || !report) return null;
  if (!['complete', 'no_record'].includes(found.row.status)) return null;
  const stored = await deps.stored.keptAnswer(found.row);
  if (!stored) return null;
  const reportId = randomUUID();
  const job =
    report !== 'lookup'
      ? detailJob(found.runner, report, found.row.query, stored, deps.now(), reportId)
      : declarationOf(found.row.kind)?.shape === 'username'
        ? usernameJob(found.runner, stored, deps.now(), reportId)
        : lookupJob(found.runner, found.row.kind as ProfileKind, stored, deps.now(), reportId);
  const file = await deps.files.finish(user, found.row, job, report, fileName, null);
  await deps.db.insert(reports).values(file.row);
  return file;
}

/** Draws a case's summary PDF in the report pool and registers it (kind `case_summary`). */
export async function caseSummaryReport(
  deps: ReportDeps,
  user: UserRow,
  job: CaseSummaryJob,
  fileName: string,
): Promise<{ reportId: string; sha256: string; pdf: Buffer }> {
  const pdf = await deps.files.draw(job);
  const sha256 = createHash('sha256').update(pdf).digest('hex');
  await deps.files.register(deps.db, user, {
    id: job.reportId,
    kind: 'case_summary',
    fileName,
    sha256,
    bytes: pdf.byteLength,
  });
  return { reportId: job.reportId, sha256, pdf };
}

/** The report service the routes, the case bundle and the credit report use: the functions above, bound. */
export function createReportService(options: {
  db: Database;
  pool: ReportPool;
  llm?: LlmWriter;
  now?: () => Date;
  /**
   * The legal basis of the case a lookup is filed under, as one line, for the cover (the cases
   * module answers it; reports stand below cases and do not import it).
   */
  legalBasisOfLookup: (
    lookup: Pick<LookupRow, 'id' | 'caseReference' | 'legalBasis'>,
  ) => Promise<string | null>;
}) {
  const { db, pool, llm } = options;
  const now = options.now ?? (() => new Date());
  const files = createReportFiles({ pool, now });
  const deps: ReportDeps = {
    db,
    stored: createStoredLookups(db, options.legalBasisOfLookup),
    files,
    now,
    ...(llm ? { llm } : {}),
  };
  return {
    lookupReport: (user: UserRow, kind: LookupKind, userInput: string, hint: unknown) =>
      lookupReport(deps, user, kind, userInput, hint),
    aiReport: (user: UserRow, kind: ProfileKind, userInput: string, hint: unknown) =>
      aiReport(deps, user, kind, userInput, hint),
    detailReport: (user: UserRow, type: DetailKind, data: Record<string, unknown>) =>
      detailReport(deps, user, type, data),
    searchReport: (user: UserRow, lookupId: string, fileName: string) =>
      searchReport(deps, user, lookupId, fileName),
    caseSummary: (user: UserRow, job: CaseSummaryJob, fileName: string) =>
      caseSummaryReport(deps, user, job, fileName),
    register: files.register,
    audited: (user: UserRow, client: ClientContext, action: string, work: () => Promise<ReportFile>) =>
      auditedReport(db, user, client, action, work),
    verify: (caller: UserRow, reportId: string, sha256: string) => verifyReport(db, caller, reportId, sha256),
    verifyHash: (sha256: string) => verifyReportHash(db, sha256),
  };
}

export type ReportService = ReturnType<typeof createReportService>;
