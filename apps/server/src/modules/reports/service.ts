import { createHash, randomUUID } from 'node:crypto';
import {
  type AnswerSourceStatus,
  type DetailKind,
  type LookupKind,
  normalizeRc,
  type SourceStatus,
  showsSyntheticData,
  sourceStatusOf,
} from '@footprint/domain';
import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Database, Executor } from '../../db/client.ts';
import { type LookupRow, lookups, type REPORT_KINDS, reports, type UserRow, users } from '../../db/schema.ts';
import { DomainError, notFound, reportsBusy, validationError } from '../../errors.ts';
import type { ClientContext } from '../../http/context.ts';
import { httpStatusOf } from '../../http/errors.ts';
import { auditInsert, recordAudit } from '../audit/service.ts';
import { type LookupReportSource, lookupViews, type ReportTask } from './job.ts';
import { type LlmWriter, narrativeFor } from './narrative/llm.ts';
import { type ReportPool, ReportsBusyError } from './pool.ts';
import { presentPublicCheck, presentReportCheck } from './present.ts';
import type { CaseSummaryJob, ReportAccount, ReportJob } from './render/types.ts';

export type { DetailKind, LookupKind };
export type ReportKind = (typeof REPORT_KINDS)[number];

interface StoredResult {
  payloads: Record<string, unknown>;
  errors: Record<string, string>;
  /** Absent from results stored before source statuses were kept. */
  status?: Record<string, SourceStatus>;
}

export interface ReportFile {
  reportId: string;
  fileName: string;
  sha256: string;
  pdf: Buffer;
  /** The lookup's case reference, for the audit row. */
  caseReference: string | null;
  lookupId: string;
  /** The `reports` row, written with the audit row in one transaction (`audited`). */
  row: typeof reports.$inferInsert;
}

/** A stored lookup a report is drawn from; for a cache hit, `original` is the paid lookup it reused. */
interface Found {
  row: LookupRow;
  result: StoredResult;
  original?: LookupRow;
  /** The legal basis of the case the lookup is filed under, as one line; null without one. */
  legalBasis: string | null;
}

/** When a lookup's sources answered: its completion (its start for a row written before that was kept). */
const answeredAtOf = (row: LookupRow): string => (row.completedAt ?? row.createdAt).toISOString();

/** The report kind a search kind has, if any: the lookup report, or its detail report. */
export const reportKindOf = (kind: string): 'lookup' | DetailKind | null =>
  kind === 'tel' || kind === 'email'
    ? 'lookup'
    : kind === 'rc' || kind === 'upi' || kind === 'challan'
      ? kind
      : null;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** File names keep the searched value readable but safe in a header and on any file system. */
export const safeFilePart = (value: string): string => value.replace(/[^A-Za-z0-9@._+-]/g, '_').slice(0, 100);

const noLookup = () =>
  notFound('No stored lookup of yours matches this report. Run the search again, then download.');

/**
 * Reports are drawn from what the server stored for the requesting user's own lookup, never from
 * what the browser sends: the browser only says which lookup it means.
 */
export function createReportService(deps: {
  db: Database;
  pool: ReportPool;
  llm?: LlmWriter;
  now?: () => Date;
  /**
   * The legal basis of the case a lookup is filed under, as one line, for the cover (the cases
   * module answers it; reports stand below cases and do not import it).
   */
  legalBasisOfLookup: (lookupId: string, caseReference: string | null) => Promise<string | null>;
}) {
  const { db, pool } = deps;
  const now = deps.now ?? (() => new Date());

  /** A full report queue refuses a request before it reads anything (503 with Retry-After). */
  const refuseWhenBusy = () => {
    const busy = pool.busy();
    if (busy) throw reportsBusy(busy.retryAfterSeconds);
  };

  /**
   * The newest complete stored lookup of a user's for a query (a 10-digit phone number matches it
   * with any country code), or of one lookup id: prepared once per variant, since every report asks.
   */
  const storedLookupQueries = new Map<string, ReturnType<typeof prepareStoredLookup>>();
  const prepareStoredLookup = (telSuffix: boolean, byId: boolean) =>
    db
      .select()
      .from(lookups)
      .where(
        and(
          eq(lookups.userId, sql.placeholder('userId')),
          eq(lookups.kind, sql.placeholder('kind')),
          inArray(lookups.status, ['complete', 'no_record']),
          telSuffix
            ? and(
                sql`${lookups.query} like ${sql.placeholder('query')}`,
                sql`length(${lookups.query}) between 11 and 14`,
              )
            : eq(lookups.query, sql.placeholder('query')),
          byId ? eq(lookups.id, sql.placeholder('id')) : undefined,
        ),
      )
      .orderBy(desc(lookups.createdAt))
      .limit(1)
      .prepare(`footprint_report_lookup_${telSuffix ? 'tel' : 'exact'}${byId ? '_id' : ''}`);
  const storedLookupQuery = (telSuffix: boolean, byId: boolean) => {
    const key = `${telSuffix}/${byId}`;
    let query = storedLookupQueries.get(key);
    if (!query) {
      query = prepareStoredLookup(telSuffix, byId);
      storedLookupQueries.set(key, query);
    }
    return query;
  };

  /**
   * The user's stored lookup for what they searched; a cache hit is followed to the answer it reused,
   * and that lookup (`original`) comes along: its time and case reference are the answer's.
   */
  async function storedLookup(
    user: UserRow,
    kind: LookupKind | DetailKind,
    query: string,
    hint?: unknown,
  ): Promise<Found | undefined> {
    const telSuffix = kind === 'tel' && /^\d{10}$/.test(query);
    const byId = typeof hint === 'string' && UUID.test(hint);
    const [row] = await storedLookupQuery(telSuffix, byId).execute({
      userId: user.id,
      kind,
      query: telSuffix ? `%${query}` : query,
      id: byId ? hint : null,
    });
    if (!row) return undefined;
    // Kept past its retention period, the result is gone; a free repeat shows the answer it reused.
    return keptAnswer(row);
  }

  /** A lookup's stored answer: its own, or for a free repeat the one it reused; undefined once purged. */
  async function keptAnswer(row: LookupRow): Promise<Found | undefined> {
    const legalBasis = await deps.legalBasisOfLookup(row.id, row.caseReference);
    if (row.result) return { row, result: row.result as StoredResult, legalBasis };
    if (!row.cacheOf) return undefined;
    const [original] = await db
      .select()
      .from(lookups)
      .where(and(eq(lookups.id, row.cacheOf), eq(lookups.userId, row.userId)));
    return original?.result
      ? { row, result: original.result as StoredResult, original, legalBasis }
      : undefined;
  }

  /** Registers a file this server made, so that its SHA-256 verifies (GET /api/reports/{id}/verify, POST /api/verify). */
  async function register(
    executor: Executor,
    user: UserRow,
    file: {
      id: string;
      kind: ReportKind;
      fileName: string;
      sha256: string;
      bytes: number;
      lookupId?: string | null;
      writer?: string | null;
    },
  ): Promise<void> {
    await executor.insert(reports).values({
      id: file.id,
      userId: user.id,
      lookupId: file.lookupId ?? null,
      kind: file.kind,
      fileName: file.fileName,
      sha256: file.sha256,
      bytes: file.bytes,
      writer: file.writer ?? null,
      createdAt: now(),
    });
  }

  /** Draws a task in the pool; a full queue answers 503 (reports_busy). */
  async function draw(task: ReportTask): Promise<Buffer> {
    try {
      return await pool.render(task);
    } catch (error) {
      if (error instanceof ReportsBusyError) throw reportsBusy(error.retryAfterSeconds);
      throw error;
    }
  }

  async function finish(
    user: UserRow,
    lookup: LookupRow,
    job: ReportTask,
    kind: 'lookup' | 'ai' | DetailKind,
    fileName: string,
    writer: string | null,
  ): Promise<ReportFile> {
    const pdf = await draw(job);
    const sha256 = createHash('sha256').update(pdf).digest('hex');
    return {
      reportId: job.reportId,
      fileName,
      sha256,
      pdf,
      caseReference: lookup.caseReference,
      lookupId: lookup.id,
      row: {
        id: job.reportId,
        userId: user.id,
        lookupId: lookup.id,
        kind,
        fileName,
        sha256,
        bytes: pdf.byteLength,
        writer,
        createdAt: now(),
      },
    };
  }

  const displayQuery = (kind: LookupKind, query: string) =>
    kind === 'tel' && query.length > 10 ? `+${query.slice(0, -10)} ${query.slice(-10)}` : query;

  /** The statuses of a stored lookup's sources, as recorded or rebuilt from an old result. */
  const statusesOf = (kind: LookupKind | DetailKind, found: Found) =>
    sourceStatusOf(kind, { ...found.result, sandbox: found.row.sandbox });

  /**
   * What every report of a stored lookup starts with. It is marked sandbox only when some value it
   * shows is synthetic (a sandbox source answered with a payload), as the results page is. The time
   * its sources answered is the lookup's completion; for a reuse, the completion of the lookup whose
   * answer it replays, which is named with its case reference. The render time is only 'generated'.
   */
  const common = (account: ReportAccount, found: Found, sources: AnswerSourceStatus) => {
    const { row, original } = found;
    const answeredAt = answeredAtOf(original ?? row);
    return {
      reportId: randomUUID(),
      lookupId: row.id,
      generatedAt: now().toISOString(),
      searchedAt: row.createdAt.toISOString(),
      answeredAt,
      reusedFrom: original
        ? { lookupId: original.id, answeredAt, caseReference: original.caseReference }
        : null,
      account: { name: account.name, email: account.email },
      caseReference: row.caseReference,
      legalBasis: found.legalBasis,
      sandbox: showsSyntheticData(sources.status, row.sandbox),
    };
  };

  /** What the answer says about its sources, for the provenance of each merged value. */
  const metaOf = (found: Found, sources: AnswerSourceStatus) => ({
    sourceStatus: sources.status,
    answeredAt: answeredAtOf(found.original ?? found.row),
  });

  /** The lookup report's task: the facts and the stored answer, which the worker merges (job.ts). */
  function lookupJob(account: ReportAccount, kind: LookupKind, found: Found): LookupReportSource {
    const sources = statusesOf(kind, found);
    return {
      template: 'lookup-source',
      ...common(account, found, sources),
      kind,
      query: displayQuery(kind, found.row.query),
      result: { payloads: found.result.payloads, errors: found.result.errors },
      sourceErrors: found.result.errors,
      sourceStatus: sources.status,
      sourceStatusDerived: sources.derived,
    };
  }

  /** The RC, UPI or challan report's job: the vendor's record of the stored answer. */
  function detailJob(account: ReportAccount, type: DetailKind, id: string, found: Found): ReportJob {
    const envelope = found.result.payloads[type] as { data?: unknown } | undefined;
    const record =
      envelope && typeof envelope.data === 'object' && envelope.data !== null
        ? (envelope.data as Record<string, unknown>)
        : {};
    return {
      template: 'detail',
      ...common(account, found, statusesOf(type, found)),
      type,
      id,
      record,
    };
  }

  return {
    async lookupReport(
      user: UserRow,
      kind: LookupKind,
      userInput: string,
      hint: unknown,
    ): Promise<ReportFile> {
      refuseWhenBusy();
      const query = kind === 'email' ? userInput.trim().toLowerCase() : userInput.replace(/\D/g, '');
      const found = await storedLookup(user, kind, query, hint);
      if (!found) throw noLookup();
      // The worker merges and analyses the stored answer (job.ts): this thread only read the row.
      const job = lookupJob(user, kind, found);
      return finish(user, found.row, job, 'lookup', `report-${safeFilePart(userInput)}.pdf`, null);
    },

    /**
     * The report of one stored search, drawn as its kind's report endpoint draws it (the lookup report
     * for phone and e-mail lookups, the RC, UPI and challan reports) and registered like every report,
     * for a caller who may see it (a case's member: the caller checks that). 'Run by account' names
     * who ran the search; the report is registered to `user`, who made the file. Null when the kind
     * has no report (leak, corporate and verification searches) or its result is no longer kept. A
     * full report queue answers 503 (reports_busy), as the report endpoints do.
     */
    async searchReport(user: UserRow, lookupId: string, fileName: string): Promise<ReportFile | null> {
      if (!UUID.test(lookupId)) return null;
      const [found] = await db
        .select({ row: lookups, runner: { name: users.name, email: users.email } })
        .from(lookups)
        .innerJoin(users, eq(users.id, lookups.userId))
        .where(eq(lookups.id, lookupId));
      if (!found || !reportKindOf(found.row.kind)) return null;
      if (!['complete', 'no_record'].includes(found.row.status)) return null;
      const stored = await keptAnswer(found.row);
      if (!stored) return null;
      const kind = found.row.kind as LookupKind | DetailKind;
      const file =
        kind === 'tel' || kind === 'email'
          ? await finish(user, found.row, lookupJob(found.runner, kind, stored), 'lookup', fileName, null)
          : await finish(
              user,
              found.row,
              detailJob(found.runner, kind, found.row.query, stored),
              kind,
              fileName,
              null,
            );
      await db.insert(reports).values(file.row);
      return file;
    },

    /** Draws a case's summary PDF in the report pool and registers it (kind `case_summary`). */
    async caseSummary(
      user: UserRow,
      job: CaseSummaryJob,
      fileName: string,
    ): Promise<{ reportId: string; sha256: string; pdf: Buffer }> {
      const pdf = await draw(job);
      const sha256 = createHash('sha256').update(pdf).digest('hex');
      await register(db, user, {
        id: job.reportId,
        kind: 'case_summary',
        fileName,
        sha256,
        bytes: pdf.byteLength,
      });
      return { reportId: job.reportId, sha256, pdf };
    },

    register,

    async aiReport(user: UserRow, kind: LookupKind, userInput: string, hint: unknown): Promise<ReportFile> {
      refuseWhenBusy();
      const query = kind === 'email' ? userInput.trim().toLowerCase() : userInput.replace(/\D/g, '');
      const found = await storedLookup(user, kind, query, hint);
      if (!found) throw noLookup();
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
        ...common(user, found, sources),
        kind,
        query: shown,
        writer: narrative.writer,
        narrative: narrative.text,
        analysis,
      };
      const writer =
        narrative.writer.kind === 'llm' ? `llm:${narrative.writer.model ?? ''}` : 'deterministic';
      return finish(user, found.row, job, 'ai', `ai-generated-report-${safeFilePart(userInput)}.pdf`, writer);
    },

    async detailReport(user: UserRow, type: DetailKind, data: Record<string, unknown>): Promise<ReportFile> {
      refuseWhenBusy();
      const raw = type === 'upi' ? data.upi_id : (data.rc_number ?? data.id_number);
      if (typeof raw !== 'string' || raw.trim() === '' || raw.length > 100) {
        const message = `The data field must name the ${type === 'upi' ? 'UPI id' : 'RC number'}.`;
        throw validationError({ data: [message] });
      }
      const id = type === 'upi' ? raw.trim().toLowerCase() : normalizeRc(raw);
      const found = await storedLookup(user, type, id);
      if (!found) throw noLookup();
      const job = detailJob(user, type, id, found);
      return finish(user, found.row, job, type, `${type}-details-${safeFilePart(id)}.pdf`, null);
    },

    /** What a holder of a report file can learn: whether it is unaltered, and who ran it when. */
    /**
     * Runs one report request (its input parsing included) and writes its audit row: every attempt
     * is in the trail, refused ones too.
     */
    async audited(
      user: UserRow,
      client: ClientContext,
      action: string,
      work: () => Promise<ReportFile>,
    ): Promise<ReportFile> {
      try {
        const file = await work();
        // The report's hash (for /verify) and its audit row in one statement: both or neither.
        const audit = auditInsert(db, [
          {
            action,
            outcome: 'success',
            user,
            client,
            target: file.reportId,
            cost: 0,
            caseReference: file.caseReference,
            details: { file_name: file.fileName, sha256: file.sha256, lookup_id: file.lookupId },
          },
        ]);
        await db.execute(
          sql`with report as (${db.insert(reports).values(file.row).getSQL()}) ${audit.getSQL()}`,
        );
        return file;
      } catch (error) {
        const code = error instanceof DomainError ? error.code : 'internal';
        await recordAudit(db, {
          action,
          outcome: 'failure',
          user,
          client,
          // `status` is what the API answered, for readers of the trail; `code` is the refusal.
          details: { status: httpStatusOf(code), code, message: (error as Error).message.slice(0, 300) },
        });
        throw error;
      }
    },

    /**
     * A signed-in caller checks a report by its id: its owner and admins see who made it, when, for
     * what lookup and under which file name; anyone else only whether the hash matches and when.
     */
    async verify(caller: UserRow, reportId: string, sha256: string) {
      if (!UUID.test(reportId)) throw notFound('No report with this id.');
      const [row] = await db
        .select({ report: reports, name: users.name, email: users.email })
        .from(reports)
        .innerJoin(users, eq(users.id, reports.userId))
        .where(eq(reports.id, reportId));
      if (!row) throw notFound('No report with this id.');
      const insider = caller.id === row.report.userId || caller.role === 'admin';
      return insider ? presentReportCheck(row.report, row, sha256) : presentPublicCheck(row.report, sha256);
    },

    /**
     * Anyone checks a file by its SHA-256 alone: whether this server made a report with exactly that
     * hash, and when (the first, should two files ever share one). Nothing else about the report.
     */
    async verifyHash(sha256: string): Promise<{ valid: boolean; generated_at?: string }> {
      const [row] = await db
        .select({ createdAt: reports.createdAt })
        .from(reports)
        .where(eq(reports.sha256, sha256.toLowerCase()))
        .orderBy(reports.createdAt)
        .limit(1);
      return row ? { valid: true, generated_at: row.createdAt.toISOString() } : { valid: false };
    },
  };
}

export type ReportService = ReturnType<typeof createReportService>;
