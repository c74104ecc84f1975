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
import {
  type ApprovalStatus,
  approvalsMessages,
  isSearchKind,
  type SearchApproval,
  searchKindLabel,
} from '@footprint/domain';
import { and, desc, eq, lt, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { type Actor, approversOf, decidesApprovals, heldBy } from '../../access/policy.ts';
import type { Database } from '../../db/client.ts';
import { searchApprovals, type UserRow, users } from '../../db/schema.ts';
import { DomainError, forbidden, heldForApproval, insufficientCredits, notFound } from '../../errors.ts';
import type { ClientContext } from '../../http/context.ts';
import { recordAudit } from '../audit/service.ts';
import { presentOwnPool } from '../credits/present.ts';
import { poolOf, shortfallOf } from '../credits/service.ts';
import type { Mailer } from '../mail/mailer.ts';
import { approvalDecidedMail, approvalRequestedMail } from '../mail/templates.ts';
import type { ApprovalFamily, HeldRequest, HoldCandidate } from '../searches/ports.ts';
import { type DeploymentDefaults, readDeploymentSettings } from '../settings/service.ts';

/** Runs an approved request as the requester's search; answers its lookups row, or throws its refusal. */
export type Replay = (
  user: UserRow,
  client: ClientContext,
  input: unknown,
  auditDetails: Record<string, unknown>,
) => Promise<{ lookupId: string }>;

export interface ApprovalsDeps {
  db: Database;
  mailer: Mailer;
  appUrl: string;
  settings: DeploymentDefaults;
  now?: () => Date;
  log: { warn(obj: unknown, msg?: string): void };
}

type Row = typeof searchApprovals.$inferSelect;
type Person = { id: string; name: string; email: string };

const decider = alias(users, 'decider');

const label = (kind: string) => (isSearchKind(kind) ? searchKindLabel(kind) : kind);
const searchText = (row: Pick<Row, 'kind' | 'queryTyped'>) =>
  `${label(row.kind)} search for ${row.queryTyped}`;

function present(row: Row, requester: Person, decidedBy: Person | null, decides: boolean): SearchApproval {
  return {
    id: row.id,
    status: row.status as ApprovalStatus,
    kind: row.kind,
    kind_label: label(row.kind),
    query: row.queryTyped,
    case_reference: row.caseReference,
    legal_basis: row.legalBasis,
    cost: row.cost,
    requester,
    requested_at: row.createdAt.toISOString(),
    expires_at: row.expiresAt.toISOString(),
    decided_by: decidedBy,
    decided_at: row.decidedAt?.toISOString() ?? null,
    note: row.note,
    lookup_id: row.lookupId,
    failure: row.failure,
    decides,
  };
}

export function createApprovals(deps: ApprovalsDeps) {
  const { db } = deps;
  const now = deps.now ?? (() => new Date());
  const replays = new Map<ApprovalFamily, Replay>();
  const link = (path: string) => `${deps.appUrl.replace(/\/$/, '')}${path}`;

  /** Requests past their time are expired (on every read and decision: no request outlives it). */
  async function expireDue(): Promise<void> {
    const expired = await db
      .update(searchApprovals)
      .set({ status: 'expired' })
      .where(and(eq(searchApprovals.status, 'pending'), lt(searchApprovals.expiresAt, now())))
      .returning({ id: searchApprovals.id, userId: searchApprovals.userId, kind: searchApprovals.kind });
    if (expired.length === 0) return;
    await recordAudit(
      db,
      expired.map((row) => ({
        action: 'approval.expire',
        outcome: 'success' as const,
        user: null,
        target: row.id,
        details: { requester_id: row.userId, kind: row.kind },
      })),
    );
  }

  /** The requests matching `where`, newest first, presented for `actor`. */
  async function read(actor: Actor, where: ReturnType<typeof and>, limit = 200): Promise<SearchApproval[]> {
    const rows = await db
      .select({
        row: searchApprovals,
        requester: { id: users.id, name: users.name, email: users.email },
        decider: { id: decider.id, name: decider.name, email: decider.email },
        decides: sql<boolean>`${decidesApprovals(actor)}`,
      })
      .from(searchApprovals)
      .innerJoin(users, eq(users.id, searchApprovals.userId))
      .leftJoin(decider, eq(decider.id, searchApprovals.deciderId))
      .where(where)
      .orderBy(desc(searchApprovals.createdAt))
      .limit(limit);
    return rows.map((r) =>
      present(
        r.row,
        r.requester,
        r.decider?.id ? (r.decider as Person) : null,
        r.decides && r.row.status === 'pending',
      ),
    );
  }

  async function tellApprovers(row: Row, requester: UserRow): Promise<void> {
    const approvers = await approversOf(db, requester.id);
    for (const approver of approvers) {
      await deps.mailer
        .send(
          approvalRequestedMail(approver.email, approver.name, {
            requester: `${requester.name} (${requester.email})`,
            search: searchText(row),
            caseReference: row.caseReference,
            legalBasis: row.legalBasis,
            link: link('/approvals'),
          }),
        )
        .catch((err) => deps.log.warn({ err, approvalId: row.id }, 'approval request e-mail failed'));
    }
  }

  async function tellRequester(row: Row, decidedBy: UserRow) {
    const [requester] = await db.select().from(users).where(eq(users.id, row.userId));
    if (!requester) return;
    const outcome = row.status === 'failed' ? `approved, but it could not run: ${row.failure}` : row.status;
    await deps.mailer
      .send(
        approvalDecidedMail(requester.email, requester.name, {
          outcome,
          search: searchText(row),
          decider: `${decidedBy.name} (${decidedBy.email})`,
          note: row.note,
          link: link(row.lookupId ? `/history/${row.lookupId}` : '/approvals?view=mine'),
        }),
      )
      .catch((err) => deps.log.warn({ err, approvalId: row.id }, 'approval decision e-mail failed'));
  }

  return {
    /** The service a held request of `family` runs through once approved. */
    replayWith(family: ApprovalFamily, replay: Replay): void {
      replays.set(family, replay);
    },

    /**
     * Before a search is charged: a search of a sensitive kind is stored as a request and answered
     * 202 (thrown as held_for_approval); any other returns and runs. A request whose searcher could
     * not pay is refused now (402), not after a supervisor's time.
     */
    async hold(search: HoldCandidate): Promise<void> {
      const settings = await readDeploymentSettings(db, deps.settings);
      if (!settings.approvalKinds.includes(search.kind as never)) return;
      const own = search.user.credits;
      const pool = presentOwnPool(await poolOf(db, search.user.id, now()));
      if (own < search.cost && (pool?.available ?? 0) < search.cost) {
        throw insufficientCredits(own, await shortfallOf(db, search.user.id, search.cost, now()));
      }
      const at = now();
      const row = await db.transaction(async (tx) => {
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
            expiresAt: new Date(at.getTime() + settings.approvalHours * 3_600_000),
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
      });
      await tellApprovers(row, search.user);
      const requester = { id: search.user.id, name: search.user.name, email: search.user.email };
      throw heldForApproval(approvalsMessages.held(label(search.kind)), present(row, requester, null, false));
    },

    /** The caller's queue: open (pending, theirs to decide) or done (decided requests they could decide). */
    async queue(actor: Actor, status: 'open' | 'done'): Promise<SearchApproval[]> {
      await expireDue();
      const pending = eq(searchApprovals.status, 'pending');
      const state = status === 'open' ? pending : sql`not ${pending}`;
      return read(actor, and(decidesApprovals(actor), state));
    },

    /** The caller's own requests. */
    async mine(actor: Actor): Promise<SearchApproval[]> {
      await expireDue();
      return read(actor, heldBy(searchApprovals, actor.id));
    },

    /** One request, for its requester or someone who decides it; anyone else gets 404. */
    async get(actor: Actor, id: string): Promise<SearchApproval> {
      if (!UUID.test(id)) throw notFound(approvalsMessages.notFound);
      await expireDue();
      const own = heldBy(searchApprovals, actor.id);
      const [found] = await read(
        actor,
        and(eq(searchApprovals.id, id), sql`(${own} or ${decidesApprovals(actor)})`),
        1,
      );
      if (!found) throw notFound(approvalsMessages.notFound);
      return found;
    },

    /** Approves (and runs) or rejects a request; see the module's comment. */
    async decide(
      actor: UserRow,
      client: ClientContext,
      id: string,
      decision: { decision: 'approve' | 'reject'; note?: string | undefined },
    ): Promise<SearchApproval> {
      if (!UUID.test(id)) throw notFound(approvalsMessages.notFound);
      await expireDue();
      const decided = await db.transaction(async (tx) => {
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
        if (row.userId === actor.id) throw forbidden(approvalsMessages.ownRequest);
        if (row.status !== 'pending') {
          throw new DomainError('not_pending', approvalsMessages.decided(row.status));
        }
        const status = decision.decision === 'approve' ? 'approved' : 'rejected';
        const [saved] = await tx
          .update(searchApprovals)
          .set({ status, deciderId: actor.id, decidedAt: now(), note: decision.note || null })
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
      const final = decided.status === 'approved' ? await run(decided, actor) : decided;
      await tellRequester(final, actor);
      return this.get(actor, id);
    },
  };

  /** Runs an approved request as the requester's search: records its lookup, or why it could not run. */
  async function run(row: Row, actor: Actor): Promise<Row> {
    const held = row.input as HeldRequest | null;
    const replay = held ? replays.get(held.family) : undefined;
    const [requester] = await db.select().from(users).where(eq(users.id, row.userId));
    let set: Partial<Row>;
    try {
      if (!replay || !requester || !held) throw new Error('no service runs this request');
      const client: ClientContext = {
        ip: row.ip ?? '',
        deviceId: row.deviceId ?? undefined,
        userAgent: undefined,
      };
      const ran = await replay(requester, client, held.input, { approval_id: row.id, approved_by: actor.id });
      set = { lookupId: ran.lookupId };
    } catch (error) {
      const failure = error instanceof DomainError ? error.message : 'The search could not run.';
      if (!(error instanceof DomainError))
        deps.log.warn({ err: error, approvalId: row.id }, 'approved search failed');
      set = { status: 'failed', failure };
    }
    const [saved] = await db
      .update(searchApprovals)
      .set(set)
      .where(eq(searchApprovals.id, row.id))
      .returning();
    return saved ?? row;
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export type Approvals = ReturnType<typeof createApprovals>;
