/**
 * Sensitive searches wait for a supervisor (domain approvals.ts). The admin names the sensitive kinds
 * (setting approval_kinds). A search of one of them that the user asks for (in the browser or with an
 * API key) is not charged and not run: the paid search (searches/run.ts) hands it to `hold`, which
 * stores the request with its case and legal basis, tells the requester's supervisors by e-mail and
 * answers 202 with where to poll. A supervisor of the requester's unit or a unit above (an admin for a
 * requester with no supervisor) approves it, and it runs then, as the requester's search, through the
 * same service it was asked of (`replayWith`), charged to their pool or balance; or rejects it with a
 * reason, and nothing is charged. Either way the requester is told, in the product and by e-mail. A
 * request nobody decides within approval_hours expires. Every step is in the audit trail.
 */
import { approvalsMessages, type SearchApproval } from '@footprint/domain';
import { and, eq, sql } from 'drizzle-orm';
import { type Actor, decidesApprovals, heldBy } from '../../access/policy.ts';
import { searchApprovals, type UserRow } from '../../db/schema.ts';
import { notFound } from '../../errors.ts';
import type { ClientContext } from '../../http/context.ts';
import type { ApprovalFamily, HoldCandidate } from '../searches/ports.ts';
import { readDeploymentSettings } from '../settings/service.ts';
import { bulkGate } from './bulk.ts';
import { decideRequest, holdSearch } from './decide.ts';
import { tellRequester } from './notify.ts';
import { type ApprovalsDeps, type Ctx, expireDue, type Refuse, type Replay, read, UUID } from './read.ts';
import { sweepApprovals } from './sweep.ts';

export type { ApprovalsDeps, Refuse, Replay } from './read.ts';

export function createApprovals(deps: ApprovalsDeps) {
  const ctx: Ctx = {
    db: deps.db,
    deps,
    now: deps.now ?? (() => new Date()),
    replays: new Map(),
    refusals: new Map(),
    link: (path) => `${deps.appUrl.replace(/\/$/, '')}${path}`,
    tell: (row, decidedBy) => tellRequester(ctx, row, decidedBy),
  };

  /** One request, for its requester or someone who decides it; anyone else gets 404. */
  async function get(actor: Actor, id: string): Promise<SearchApproval> {
    if (!UUID.test(id)) throw notFound(approvalsMessages.notFound);
    await expireDue(ctx);
    const own = heldBy(searchApprovals, actor.id);
    const [found] = await read(
      ctx,
      actor,
      and(eq(searchApprovals.id, id), sql`(${own} or ${decidesApprovals(actor)})`),
      1,
    );
    if (!found) throw notFound(approvalsMessages.notFound);
    return found;
  }

  return {
    /**
     * The service a held request of `family` runs through once approved, and what becomes of its
     * subject when it is rejected or expires (a held bulk job: not approved).
     */
    replayWith(family: ApprovalFamily, replay: Replay, refuse?: Refuse): void {
      ctx.replays.set(family, replay);
      if (refuse) ctx.refusals.set(family, refuse);
    },

    /** Whether searches of `kind` wait for approval (approval_kinds): a watch of one is refused. */
    async needsApproval(kind: string): Promise<boolean> {
      const { approvalKinds } = await readDeploymentSettings(deps.db, deps.settings);
      return (approvalKinds as readonly string[]).includes(kind);
    },

    /** The bulk jobs' gate (bulk/types.ts BulkApprovalGate): held above approval_bulk_rows rows. */
    bulk: bulkGate(ctx),

    /** The gate of the paid search (searches/ports.ts ApprovalGate). */
    hold: (search: HoldCandidate) => holdSearch(ctx, search),

    /** The caller's queue: open (pending, theirs to decide) or done (decided requests they could decide). */
    async queue(actor: Actor, status: 'open' | 'done'): Promise<SearchApproval[]> {
      await expireDue(ctx);
      const pending = eq(searchApprovals.status, 'pending');
      const state = status === 'open' ? pending : sql`not ${pending}`;
      return read(ctx, actor, and(decidesApprovals(actor), state));
    },

    /** The caller's own requests. */
    async mine(actor: Actor): Promise<SearchApproval[]> {
      await expireDue(ctx);
      return read(ctx, actor, heldBy(searchApprovals, actor.id));
    },

    get,

    /** Expires what is due and settles approved requests a stopped server left without an answer (sweep.ts). */
    sweep: () => sweepApprovals(ctx),

    /** Approves (and runs) or rejects a request; answers it as the decider now sees it. */
    async decide(
      actor: UserRow,
      client: ClientContext,
      id: string,
      decision: { decision: 'approve' | 'reject'; note?: string | undefined },
    ): Promise<SearchApproval> {
      await decideRequest(ctx, actor, client, id, decision);
      return get(actor, id);
    },
  };
}

export type Approvals = ReturnType<typeof createApprovals>;
