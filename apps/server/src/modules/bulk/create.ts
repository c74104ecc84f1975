/**
 * A list made into a bulk job: checked and priced (preview, nothing stored), then stored as a job of
 * rows, audited and queued (create).
 */
import { type BulkJob, type BulkPreview, messages } from '@footprint/domain';
import { eq } from 'drizzle-orm';
import { bulkJobs, bulkRows, type UserRow } from '../../db/schema.ts';
import { insufficientCredits, noValidRow } from '../../errors.ts';
import type { ClientContext } from '../../http/context.ts';
import { recordAudit } from '../audit/service.ts';
import { presentOwnPool } from '../credits/present.ts';
import { poolOf, shortfallOf } from '../credits/service.ts';
import { legalBasisLineOf } from '../searches/service.ts';
import { sendBulkJob } from './lease.ts';
import { type CheckedList, checkList } from './parse.ts';
import { presentJob } from './present.ts';
import { BULK_ROWS_PAGE, balanceOf } from './read.ts';
import type { BulkDeps, BulkInput } from './types.ts';

const INSERT_BATCH = 1000;

/** A file's name as the job shows it: no control characters, no path, a sensible length. */
function displayName(fileName: string | null): string {
  if (fileName === null) return messages.bulkJobs.pastedList;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: removing them is what this is for.
  const base = (fileName.split(/[\\/]/).pop() ?? '').replace(/[\u0000-\u001F\u007F]/g, '').trim();
  return base === '' ? messages.bulkJobs.pastedList : base.slice(0, 120);
}

/** What the list would run and cost; nothing stored. The case reference is checked as a lookup's. */
export async function previewBulk(deps: BulkDeps, user: UserRow, input: BulkInput): Promise<BulkPreview> {
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
    balance: await balanceOf(deps.db, user.id),
  };
}

/**
 * Stores the job and its rows and queues it. A list with no valid row is a 422, a balance that
 * cannot pay one row a 402 (like a lookup), a case reference the deployment refuses its 422.
 */
export async function createBulkJob(
  deps: BulkDeps,
  user: UserRow,
  client: ClientContext,
  input: BulkInput,
): Promise<BulkJob> {
  const { db } = deps;
  const reference = await deps.searches.caseReference(input.caseReference, user);
  const checked: CheckedList = checkList(input.type, input.entries);
  if (checked.valid.length === 0) {
    const message = messages.bulkJobs.noValidRow(input.type);
    throw noValidRow(message, checked.invalid.slice(0, BULK_ROWS_PAGE));
  }
  const price = deps.costs[input.type];
  // The first row is paid by the unit pool within the allowance, else by the user's own balance.
  const balance = await balanceOf(db, user.id);
  const pool = presentOwnPool(await poolOf(db, user.id, new Date()));
  if (balance < price && (pool?.available ?? 0) < price) {
    throw insufficientCredits(balance, await shortfallOf(db, user.id, price, new Date()));
  }
  // A job of more rows than the admin's approval_bulk_rows waits for a supervisor before it is queued.
  const held = deps.approvals ? await deps.approvals.holds(checked.valid.length) : false;
  const job = await db.transaction(async (tx) => {
    const [inserted] = await tx
      .insert(bulkJobs)
      .values({
        userId: user.id,
        type: input.type,
        name: displayName(input.fileName),
        status: held ? 'awaiting_approval' : 'queued',
        caseReference: reference.value,
        total: checked.valid.length,
        ip: client.ip,
        deviceId: client.deviceId ?? null,
      })
      .returning();
    let created = inserted;
    if (held && deps.approvals && inserted) {
      const approvalId = await deps.approvals.request(tx, {
        user,
        client,
        type: input.type,
        jobId: inserted.id,
        name: inserted.name,
        rows: checked.valid.length,
        cost: checked.valid.length * price,
        caseReference: reference.value,
        legalBasisLine: legalBasisLineOf(reference),
      });
      [created] = await tx
        .update(bulkJobs)
        .set({ approvalId })
        .where(eq(bulkJobs.id, inserted.id))
        .returning();
    }
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
        ...(created!.approvalId ? { approval_id: created!.approvalId } : {}),
      },
    });
    return created!;
  });
  if (job.approvalId && deps.approvals) await deps.approvals.announce(job.approvalId, user);
  else await sendBulkJob(deps.queue, job.id, deps.staleSeconds);
  return presentJob(job, undefined);
}
