/**
 * What no request should be left in: pending past its time (expired, read.ts `expireDue`), or approved
 * with no answer because the server stopped between the approval and its search's answer. The sweep
 * runs on a timer in every process (runtime.ts); each step is one conditional update, so two processes
 * sweeping at once settle each request once.
 */
import { approvalsMessages } from '@footprint/domain';
import { and, eq, inArray, isNull, lt, sql } from 'drizzle-orm';
import { auditEvents, searchApprovals } from '../../db/schema.ts';
import { recordAudit } from '../audit/service.ts';
import { type Ctx, expireDue, type Row } from './read.ts';

/**
 * How long an approved request may wait for its search's answer before the sweep settles it. The
 * search runs in the decision's own request, so this is well beyond any search's time (a credit
 * report's rendering included); a server that stopped leaves it longer than that.
 */
export const INTERRUPTED_AFTER_MS = 15 * 60_000;

/**
 * Approved requests without a lookup, decided more than INTERRUPTED_AFTER_MS ago: their search either
 * answered and the server stopped before noting it (its success row in the audit trail names the
 * request and the lookup: the request gets that lookup), or never answered (the request fails, with
 * `approvalsMessages.interrupted`; the charge of a search that stopped half way is refunded by the
 * paid search's own recovery, searches/recovery.ts). The requester is told of a failure.
 */
export async function settleInterrupted(ctx: Ctx): Promise<number> {
  const stuck = await ctx.db
    .select()
    .from(searchApprovals)
    .where(
      and(
        eq(searchApprovals.status, 'approved'),
        isNull(searchApprovals.lookupId),
        // An approved bulk job has no lookup of its own: it is queued, and its rows run as lookups.
        sql`coalesce(${searchApprovals.input}->>'family', '') <> 'bulk'`,
        lt(searchApprovals.decidedAt, new Date(ctx.now().getTime() - INTERRUPTED_AFTER_MS)),
      ),
    )
    .limit(100);
  if (stuck.length === 0) return 0;
  const answered = await ctx.db
    .select({
      approvalId: sql<string>`${auditEvents.details}->>'approval_id'`,
      lookupId: sql<string>`${auditEvents.details}->>'lookup_id'`,
    })
    .from(auditEvents)
    .where(
      and(
        inArray(
          sql`${auditEvents.details}->>'approval_id'`,
          stuck.map((row) => row.id),
        ),
        inArray(auditEvents.outcome, ['success', 'no_record']),
        sql`${auditEvents.details} ? 'lookup_id'`,
      ),
    );
  const lookupOf = new Map(answered.map((row) => [row.approvalId, row.lookupId]));
  let settled = 0;
  for (const row of stuck) {
    const lookupId = lookupOf.get(row.id);
    const set: Partial<Row> = lookupId
      ? { lookupId }
      : { status: 'failed', failure: approvalsMessages.interrupted };
    const [saved] = await ctx.db
      .update(searchApprovals)
      .set(set)
      .where(
        and(
          eq(searchApprovals.id, row.id),
          eq(searchApprovals.status, 'approved'),
          isNull(searchApprovals.lookupId),
        ),
      )
      .returning();
    if (!saved) continue;
    settled += 1;
    await recordAudit(ctx.db, {
      action: lookupId ? 'approval.answered' : 'approval.interrupted',
      outcome: lookupId ? 'success' : 'failure',
      user: null,
      target: row.id,
      details: { requester_id: row.userId, kind: row.kind, lookup_id: lookupId ?? null },
    });
    if (!lookupId) await ctx.tell(saved, null);
  }
  return settled;
}

/** One sweep: expire what is due, settle what was interrupted. */
export async function sweepApprovals(ctx: Ctx): Promise<void> {
  await expireDue(ctx);
  await settleInterrupted(ctx);
}

/** Sweeps every `intervalMs` (an unref'd timer); returns the function that stops it. */
export function scheduleApprovalSweep(
  sweep: () => Promise<void>,
  intervalMs: number,
  log: { warn(obj: unknown, msg?: string): void },
): () => void {
  if (intervalMs <= 0) return () => {};
  let running = false;
  const tick = async () => {
    if (running) return;
    running = true;
    try {
      await sweep();
    } catch (err) {
      log.warn({ err }, 'approval sweep failed');
    } finally {
      running = false;
    }
  };
  const timer = setInterval(tick, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
