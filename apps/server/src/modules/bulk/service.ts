import {
  type BulkJob,
  type BulkPreview,
  type BulkRow,
  type BulkStatus,
  type BulkType,
  messages,
} from '@footprint/domain';
import { sql } from 'drizzle-orm';
import type { Database, Executor } from '../../db/client.ts';
import { rowsOf } from '../../db/rows.ts';
import { type BulkJobRow, bulkJobs, bulkRows, type UserRow, users } from '../../db/schema.ts';
import { DomainError, illegalTransition, insufficientCredits, notFound, noValidRow } from '../../errors.ts';
import type { ClientContext } from '../../http/context.ts';
import { recordAudit } from '../audit/service.ts';
import type { JobQueue } from '../jobs/queue.ts';
import type { Searches } from '../searches/service.ts';
import { type CheckedList, checkList, type ListEntry } from './parse.ts';
import { closeRemainingRows, haltHere, sendBulkJob } from './worker.ts';

export const BULK_ROWS_PAGE = 100;
const LIST_MAX = 100;
const INSERT_BATCH = 1000;

/** A list as the routes read it: from a JSON body or an uploaded file. */
export interface BulkInput {
  type: BulkType;
  entries: ListEntry[];
  /** The file's name, or null for a pasted (JSON) list. */
  fileName: string | null;
  caseReference: unknown;
}

export interface BulkDeps {
  db: Database;
  searches: Searches;
  queue: JobQueue;
  /** The worker's stale heartbeat (worker.ts `sendBulkJob`). */
  staleSeconds: number;
  /** What one row costs: the price of a lookup of the list's type. */
  costs: Readonly<Record<BulkType, number>>;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const FINAL: ReadonlySet<BulkStatus> = new Set(['done', 'cancelled', 'stopped']);
export const isFinal = (status: BulkStatus) => FINAL.has(status);

interface Counts {
  job_id: string;
  done: number;
  charged: number;
  failed: number;
  spent: number;
}

const countsSql = (where: ReturnType<typeof sql>) => sql`
  select job_id,
    count(*) filter (where status <> 'pending')::int as done,
    count(*) filter (where cost > 0)::int as charged,
    count(*) filter (where status in ('failed', 'insufficient_credits'))::int as failed,
    coalesce(sum(cost), 0)::int as spent
  from bulk_rows where ${where} group by job_id`;

function present(job: BulkJobRow, counts: Counts | undefined): BulkJob {
  return {
    id: job.id,
    status: job.status,
    total: job.total,
    done: counts?.done ?? 0,
    charged: counts?.charged ?? 0,
    failed: counts?.failed ?? 0,
    type: job.type,
    name: job.name,
    credits_spent: counts?.spent ?? 0,
    case_reference: job.caseReference,
    stop_reason: job.stopReason,
    created_at: job.createdAt.toISOString(),
    finished_at: job.finishedAt?.toISOString() ?? null,
  };
}

/** A file's name as the job shows it: no control characters, no path, a sensible length. */
function displayName(fileName: string | null): string {
  if (fileName === null) return messages.bulkJobs.pastedList;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: removing them is what this is for.
  const base = (fileName.split(/[\\/]/).pop() ?? '').replace(/[\u0000-\u001F\u007F]/g, '').trim();
  return base === '' ? messages.bulkJobs.pastedList : base.slice(0, 120);
}

/**
 * Bulk lookups: a list checked and priced (preview), stored as a job of rows and queued (create), and
 * its state, rows and results for its owner only: another user's job is a 404, as if it did not exist.
 * The rows run in the worker (worker.ts), each through the paid search like a single lookup.
 */
export function createBulkService(deps: BulkDeps) {
  const { db } = deps;

  async function balanceOf(userId: string): Promise<number> {
    const [row] = await db.select({ credits: users.credits }).from(users).where(sql`${users.id} = ${userId}`);
    return row?.credits ?? 0;
  }

  /** The user's job, or 404 (another user's id, an unknown id and a malformed one alike). */
  async function own(executor: Executor, user: UserRow, id: string, lock = false): Promise<BulkJobRow> {
    if (!UUID.test(id)) throw notFound();
    const query = executor
      .select()
      .from(bulkJobs)
      .where(sql`${bulkJobs.id} = ${id} and ${bulkJobs.userId} = ${user.id}`);
    const [job] = lock ? await query.for('update') : await query;
    if (!job) throw notFound();
    return job;
  }

  async function countsOf(jobId: string): Promise<Counts | undefined> {
    const [counts] = rowsOf<Counts>(await db.execute(countsSql(sql`job_id = ${jobId}`)));
    return counts;
  }

  async function presentOne(job: BulkJobRow): Promise<BulkJob> {
    return present(job, await countsOf(job.id));
  }

  /** Pause, resume or cancel: the job locked, checked, changed and audited in one transaction. */
  async function transition(
    user: UserRow,
    client: ClientContext,
    id: string,
    action: 'pause' | 'resume' | 'cancel',
  ): Promise<BulkJob> {
    const changed = await db.transaction(async (tx) => {
      const job = await own(tx, user, id, true);
      const allowed =
        action === 'pause'
          ? job.status === 'queued' || job.status === 'running'
          : action === 'resume'
            ? job.status === 'paused'
            : !isFinal(job.status);
      const past = { pause: 'paused', resume: 'resumed', cancel: 'cancelled' }[action];
      if (!allowed) throw illegalTransition(past, job.status);
      // Before anything is written: no row of this process's run may start after the change commits.
      if (action !== 'resume') haltHere(job.id);
      const status: BulkStatus = action === 'pause' ? 'paused' : action === 'resume' ? 'queued' : 'cancelled';
      let skipped = 0;
      if (action === 'cancel') skipped = await closeRemainingRows(tx, job.type, job.id);
      const [updated] = await tx
        .update(bulkJobs)
        .set({
          status,
          updatedAt: new Date(),
          ...(action === 'cancel' ? { finishedAt: new Date() } : {}),
        })
        .where(sql`${bulkJobs.id} = ${job.id}`)
        .returning();
      await recordAudit(tx, {
        action: `bulk.${action}`,
        outcome: 'success',
        user,
        client,
        target: job.id,
        caseReference: job.caseReference,
        details: {
          bulk_job_id: job.id,
          type: job.type,
          name: job.name,
          from: job.status,
          ...(action === 'cancel' ? { skipped } : {}),
        },
      });
      return updated!;
    });
    if (action === 'resume') await sendBulkJob(deps.queue, changed.id, deps.staleSeconds);
    return presentOne(changed);
  }

  return {
    /** What the list would run and cost; nothing stored. The case reference is checked as a lookup's. */
    async preview(user: UserRow, input: BulkInput): Promise<BulkPreview> {
      await deps.searches.checkReference(input.caseReference);
      const checked = checkList(input.type, input.entries);
      const price = deps.costs[input.type];
      return {
        type: input.type,
        total: checked.total,
        valid: checked.valid.length,
        duplicates: checked.duplicates,
        invalid: checked.invalid,
        cost_per_row: price,
        cost: checked.valid.length * price,
        balance: await balanceOf(user.id),
      };
    },

    /**
     * Stores the job and its rows and queues it. A list with no valid row is a 422, a balance that
     * cannot pay one row a 402 (like a lookup), a case reference the deployment refuses its 422.
     */
    async create(user: UserRow, client: ClientContext, input: BulkInput): Promise<BulkJob> {
      const reference = await deps.searches.caseReference(input.caseReference, user);
      const checked: CheckedList = checkList(input.type, input.entries);
      if (checked.valid.length === 0) {
        const message = messages.bulkJobs.noValidRow(input.type);
        throw noValidRow(message, checked.invalid.slice(0, BULK_ROWS_PAGE));
      }
      const price = deps.costs[input.type];
      const balance = await balanceOf(user.id);
      if (balance < price) throw insufficientCredits(balance);
      const job = await db.transaction(async (tx) => {
        const [created] = await tx
          .insert(bulkJobs)
          .values({
            userId: user.id,
            type: input.type,
            name: displayName(input.fileName),
            caseReference: reference.value,
            total: checked.valid.length,
            ip: client.ip,
            deviceId: client.deviceId ?? null,
          })
          .returning();
        for (let i = 0; i < checked.valid.length; i += INSERT_BATCH) {
          await tx.insert(bulkRows).values(
            checked.valid.slice(i, i + INSERT_BATCH).map((row) => ({
              jobId: created!.id,
              line: row.line,
              input: row.input,
              query: row.query,
            })),
          );
        }
        await recordAudit(tx, {
          action: 'bulk.create',
          outcome: 'success',
          user,
          client,
          target: created!.id,
          caseReference: reference.value,
          details: {
            bulk_job_id: created!.id,
            type: input.type,
            name: created!.name,
            rows: checked.valid.length,
            read: checked.total,
            duplicates: checked.duplicates,
            invalid: checked.invalid.length,
            price,
          },
        });
        return created!;
      });
      await sendBulkJob(deps.queue, job.id, deps.staleSeconds);
      return present(job, undefined);
    },

    /** The user's jobs, newest first (the latest 100). */
    async list(user: UserRow): Promise<BulkJob[]> {
      const jobs = await db
        .select()
        .from(bulkJobs)
        .where(sql`${bulkJobs.userId} = ${user.id}`)
        .orderBy(sql`${bulkJobs.createdAt} desc, ${bulkJobs.id} desc`)
        .limit(LIST_MAX);
      if (jobs.length === 0) return [];
      const ids = sql.join(
        jobs.map((job) => sql`${job.id}::uuid`),
        sql`, `,
      );
      const counts = rowsOf<Counts>(await db.execute(countsSql(sql`job_id in (${ids})`)));
      const byJob = new Map(counts.map((c) => [c.job_id, c]));
      return jobs.map((job) => present(job, byJob.get(job.id)));
    },

    async get(user: UserRow, id: string): Promise<BulkJob> {
      return presentOne(await own(db, user, id));
    },

    /** The job's JSON as the events stream sends it (null once the job is gone). */
    async snapshot(user: UserRow, id: string): Promise<BulkJob | null> {
      try {
        return await presentOne(await own(db, user, id));
      } catch (error) {
        if (error instanceof DomainError && error.code === 'not_found') return null;
        throw error;
      }
    },

    /** A page (from 1) of the job's rows in line order. */
    async rows(user: UserRow, id: string, page: number): Promise<{ data: BulkRow[]; total: number }> {
      const job = await own(db, user, id);
      const rows = await db
        .select()
        .from(bulkRows)
        .where(sql`${bulkRows.jobId} = ${job.id}`)
        .orderBy(bulkRows.line)
        .limit(BULK_ROWS_PAGE)
        .offset((page - 1) * BULK_ROWS_PAGE);
      return { data: rows.map(presentRow), total: job.total };
    },

    /** Every row, for the results file. */
    async results(user: UserRow, id: string): Promise<{ job: BulkJobRow; rows: BulkRow[] }> {
      const job = await own(db, user, id);
      const rows = await db
        .select()
        .from(bulkRows)
        .where(sql`${bulkRows.jobId} = ${job.id}`)
        .orderBy(bulkRows.line);
      return { job, rows: rows.map(presentRow) };
    },

    pause: (user: UserRow, client: ClientContext, id: string) => transition(user, client, id, 'pause'),
    resume: (user: UserRow, client: ClientContext, id: string) => transition(user, client, id, 'resume'),
    cancel: (user: UserRow, client: ClientContext, id: string) => transition(user, client, id, 'cancel'),
  };
}

function presentRow(row: typeof bulkRows.$inferSelect): BulkRow {
  return {
    line: row.line,
    input: row.input,
    query: row.query,
    status: row.status,
    // A row's lookup id opens its result only once the lookup exists (a pending row's is reserved).
    lookup_id: row.status === 'pending' || row.status === 'skipped' ? null : row.lookupId,
    name: row.name,
    emails: row.emails,
    phones: row.phones,
    addresses: row.addresses,
    sources_answered: row.sourcesAnswered,
    cost: row.cost,
  };
}

export type BulkService = ReturnType<typeof createBulkService>;
