/**
 * Drawing a report in the pool and making it a file: its SHA-256, the `reports` row that lets a holder
 * verify it, and the refusal of a full queue (503 reports_busy).
 */
import { createHash } from 'node:crypto';
import type { Executor } from '../../db/client.ts';
import { type LookupRow, type REPORT_KINDS, reports, type UserRow } from '../../db/schema.ts';
import { reportsBusy } from '../../errors.ts';
import type { ReportTask } from './job.ts';
import { type ReportPool, ReportsBusyError } from './pool.ts';

export type ReportKind = (typeof REPORT_KINDS)[number];

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

/** File names keep the searched value readable but safe in a header and on any file system. */
export const safeFilePart = (value: string): string => value.replace(/[^A-Za-z0-9@._+-]/g, '_').slice(0, 100);

export function createReportFiles(deps: { pool: ReportPool; now: () => Date }) {
  const { pool, now } = deps;

  /** Draws a task in the pool; a full queue answers 503 (reports_busy). */
  async function draw(task: ReportTask): Promise<Buffer> {
    try {
      return await pool.render(task);
    } catch (error) {
      if (error instanceof ReportsBusyError) throw reportsBusy(error.retryAfterSeconds);
      throw error;
    }
  }

  return {
    draw,

    /** A full report queue refuses a request before it reads anything (503 with Retry-After). */
    refuseWhenBusy() {
      const busy = pool.busy();
      if (busy) throw reportsBusy(busy.retryAfterSeconds);
    },

    /** Draws a lookup's report and makes it a file with the `reports` row to register. */
    async finish(
      user: UserRow,
      lookup: LookupRow,
      job: ReportTask,
      kind: ReportKind,
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
    },

    /** Registers a file this server made, so that its SHA-256 verifies (GET /api/reports/{id}/verify, POST /api/verify). */
    async register(
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
    },
  };
}

export type ReportFiles = ReturnType<typeof createReportFiles>;
