import { approvalsMessages } from '@footprint/domain';
import { and, eq, gt, isNull, or, sql } from 'drizzle-orm';
import { type Actor, decidesApprovals, heldBy, holds } from '../../access/policy.ts';
import type { Executor } from '../../db/client.ts';
import { apiKeys, searchApprovals, type UserRow, users } from '../../db/schema.ts';
import { DomainError, forbidden, heldForApproval, insufficientCredits, notFound } from '../../errors.ts';
import type { ApiKeyActor, ClientContext } from '../../http/context.ts';
import { recordAudit } from '../audit/service.ts';
import { presentOwnPool } from '../credits/present.ts';
import { poolOf, shortfallOf } from '../credits/service.ts';
import type { HeldRequest, HoldCandidate } from '../searches/ports.ts';
import { readDeploymentSettings } from '../settings/service.ts';
import { tellApprovers, tellRequester } from './notify.ts';
import { type Ctx, expireDue, label, present, type Row, refuseSubjects, UUID } from './read.ts';

/**
 * Before a search is charged: a search of a sensitive kind is stored as a request and answered 202
 * (thrown as held_for_approval); any other returns and runs. A request whose searcher could not pay
 * is refused now (402), not after a supervisor's time.
 */
export async function holdSearch(ctx: Ctx, search: HoldCandidate): Promise<void> {
  const settings = await readDeploymentSettings(ctx.db, ctx.deps.settings);
  if (!settings.approvalKinds.includes(search.kind as never)) return;
  const own = search.user.credits;
  const pool = presentOwnPool(await poolOf(ctx.db, search.user.id, ctx.now()));
  if (own < search.cost && (pool?.available ?? 0) < search.cost) {
    throw insufficientCredits(own, await shortfallOf(ctx.db, search.user.id, search.cost, ctx.now()));
  }
  const row = await ctx.db.transaction((tx) => storeRequest(ctx, tx, search, settings.approvalHours));
  await tellApprovers(ctx, row, search.user);
  const requester = { id: search.user.id, name: search.user.name, email: search.user.email };
  throw heldForApproval(approvalsMessages.held(label(search.kind)), present(row, requester, null, false));
}

/**
 * A request for approval stored with its audit row, in `tx` (the held bulk job's own transaction,
 * so a job never waits for a request that was not stored); the approvers are told after the commit.
 */
export async function storeRequest(
  ctx: Ctx,
  tx: Executor,
  search: HoldCandidate,
  hours: number,
): Promise<Row> {
  const at = ctx.now();
  const [stored] = await tx
    .insert(searchApprovals)
    .values({
      userId: search.user.id,
      kind: search.kind,
      query: search.query,
      queryTyped: search.queryTyped,
      fresh: search.fresh === true,
      caseReference: search.caseReference,
      legalBasis: search.legalBasisLine,
      cost: search.cost,
      ip: search.client.ip,
      deviceId: search.client.deviceId ?? null,
      apiKeyId: search.client.apiKey?.id ?? null,
      input: { family: search.held.family, input: search.held.input },
      createdAt: at,
      expiresAt: new Date(at.getTime() + hours * 3_600_000),
    })
    .returning();
  await recordAudit(tx, {
    action: 'approval.request',
    outcome: 'success',
    user: search.user,
    client: search.client,
    target: stored!.id,
    cost: 0,
    caseReference: search.caseReference,
    details: {
      kind: search.kind,
      query: search.query,
      query_typed: search.queryTyped,
      legal_basis: search.legalBasisLine,
      expires_at: stored!.expiresAt.toISOString(),
    },
  });
  return stored!;
}

/** Approves (and runs) or rejects a request; see service.ts. Answers the row as it ends. */
export async function decideRequest(
  ctx: Ctx,
  actor: UserRow,
  client: ClientContext,
  id: string,
  decision: { decision: 'approve' | 'reject'; note?: string | undefined },
): Promise<Row> {
  if (!UUID.test(id)) throw notFound(approvalsMessages.notFound);
  await expireDue(ctx);
  const decided = await ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(searchApprovals)
      .where(
        and(
          eq(searchApprovals.id, id),
          sql`(${heldBy(searchApprovals, actor.id)} or ${decidesApprovals(actor)})`,
        ),
      )
      .for('update');
    if (!row) throw notFound(approvalsMessages.notFound);
    if (holds(actor, row.userId)) throw forbidden(approvalsMessages.ownRequest);
    if (row.status !== 'pending') {
      throw new DomainError('not_pending', approvalsMessages.decided(row.status));
    }
    const status = decision.decision === 'approve' ? 'approved' : 'rejected';
    const [saved] = await tx
      .update(searchApprovals)
      .set({ status, deciderId: actor.id, decidedAt: ctx.now(), note: decision.note || null })
      .where(eq(searchApprovals.id, id))
      .returning();
    await recordAudit(tx, {
      action: decision.decision === 'approve' ? 'approval.approve' : 'approval.reject',
      outcome: 'success',
      user: actor,
      client,
      target: id,
      details: { requester_id: row.userId, kind: row.kind, note: decision.note ?? null },
    });
    return saved!;
  });
  if (decided.status === 'rejected') await refuseSubjects(ctx, [decided]);
  const final = decided.status === 'approved' ? await run(ctx, decided, actor) : decided;
  await tellRequester(ctx, final, actor);
  return final;
}

/**
 * The API key a request was made with, as its search runs with it: its monthly cap counts the search,
 * and the search's rows name it. A key revoked or expired since refuses the run (nothing is charged).
 */
async function usableKey(ctx: Ctx, id: string): Promise<ApiKeyActor> {
  const [key] = await ctx.db
    .select({ id: apiKeys.id, name: apiKeys.name, monthlyCreditCap: apiKeys.monthlyCreditCap })
    .from(apiKeys)
    .where(
      and(
        eq(apiKeys.id, id),
        isNull(apiKeys.revokedAt),
        or(isNull(apiKeys.expiresAt), gt(apiKeys.expiresAt, ctx.now())),
      ),
    );
  if (!key) throw new DomainError('forbidden', approvalsMessages.keyGone);
  return key;
}

/** Runs an approved request as the requester's search: records its lookup, or why it could not run. */
async function run(ctx: Ctx, row: Row, actor: Actor): Promise<Row> {
  const held = row.input as HeldRequest | null;
  const replay = held ? ctx.replays.get(held.family) : undefined;
  const [requester] = await ctx.db.select().from(users).where(eq(users.id, row.userId));
  let set: Partial<Row>;
  try {
    if (!replay || !requester || !held) throw new Error('no service runs this request');
    const client: ClientContext = {
      ip: row.ip ?? '',
      deviceId: row.deviceId ?? undefined,
      userAgent: undefined,
      ...(row.apiKeyId ? { apiKey: await usableKey(ctx, row.apiKeyId) } : {}),
    };
    const ran = await replay(requester, client, held.input, { approval_id: row.id, approved_by: actor.id });
    set = { lookupId: ran.lookupId };
  } catch (error) {
    const failure = error instanceof DomainError ? error.message : 'The search could not run.';
    if (!(error instanceof DomainError))
      ctx.deps.log.warn({ err: error, approvalId: row.id }, 'approved search failed');
    set = { status: 'failed', failure };
  }
  const [saved] = await ctx.db
    .update(searchApprovals)
    .set(set)
    .where(eq(searchApprovals.id, row.id))
    .returning();
  return saved ?? row;
}
