import { type ApprovalStatus, isSearchKind, type SearchApproval, searchKindLabel } from '@footprint/domain';
import { and, desc, eq, lt, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { type Actor, decidesApprovals } from '../../access/policy.ts';
import type { Database } from '../../db/client.ts';
import type { UserRow } from '../../db/schema.ts';
import { searchApprovals, users } from '../../db/schema.ts';
import type { ClientContext } from '../../http/context.ts';
import { recordAudit } from '../audit/service.ts';
import type { Mailer } from '../mail/mailer.ts';
import type { ApprovalFamily } from '../searches/ports.ts';
import type { DeploymentDefaults } from '../settings/service.ts';

/**
 * Runs an approved request as the requester's search; answers its lookups row (null for a bulk job,
 * which is queued and runs row by row), or throws its refusal.
 */
export type Replay = (
  user: UserRow,
  client: ClientContext,
  input: unknown,
  auditDetails: Record<string, unknown>,
) => Promise<{ lookupId: string | null }>;

/** What becomes of a request's subject when it is rejected or expires (a held bulk job: not approved). */
export type Refuse = (input: unknown, row: Row) => Promise<void>;

export interface ApprovalsDeps {
  db: Database;
  mailer: Mailer;
  appUrl: string;
  settings: DeploymentDefaults;
  now?: () => Date;
  log: { warn(obj: unknown, msg?: string): void };
}

/** What every step of the approvals module shares. */
export interface Ctx {
  db: Database;
  deps: ApprovalsDeps;
  now: () => Date;
  replays: Map<ApprovalFamily, Replay>;
  refusals: Map<ApprovalFamily, Refuse>;
  /** An absolute link into the web app, for the e-mails. */
  link: (path: string) => string;
  /** Tells the requester what became of their request (notify.ts); never throws. */
  tell: (row: Row, decidedBy: UserRow | null) => Promise<void>;
}

export type Row = typeof searchApprovals.$inferSelect;
export type Person = { id: string; name: string; email: string };

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const decider = alias(users, 'decider');

/** A bulk job's request is of kind `bulk:<type>` (the list's search kind). */
const BULK_PREFIX = 'bulk:';
export const bulkKind = (type: string) => `${BULK_PREFIX}${type}`;
const bulkTypeOf = (kind: string) => (kind.startsWith(BULK_PREFIX) ? kind.slice(BULK_PREFIX.length) : null);

export const label = (kind: string): string => {
  const bulkType = bulkTypeOf(kind);
  if (bulkType !== null) return `Bulk ${label(bulkType).toLowerCase()}`;
  return isSearchKind(kind) ? searchKindLabel(kind) : kind;
};
export const searchText = (row: Pick<Row, 'kind' | 'queryTyped'>) =>
  bulkTypeOf(row.kind) !== null
    ? `${label(row.kind)} lookup of ${row.queryTyped}`
    : `${label(row.kind)} search for ${row.queryTyped}`;

/** The bulk job a request holds, if it holds one. */
const jobOf = (row: Row): string | undefined => {
  const held = row.input as { family?: string; input?: { jobId?: unknown } } | null;
  return held?.family === 'bulk' && typeof held.input?.jobId === 'string' ? held.input.jobId : undefined;
};

/** Tells the subject of each refused request (rejected or expired) what became of it. */
export async function refuseSubjects(ctx: Ctx, rows: Row[]): Promise<void> {
  for (const row of rows) {
    const held = row.input as { family?: ApprovalFamily; input?: unknown } | null;
    const refuse = held?.family ? ctx.refusals.get(held.family) : undefined;
    if (refuse) await refuse(held?.input, row);
  }
}

export function present(
  row: Row,
  requester: Person,
  decidedBy: Person | null,
  decides: boolean,
): SearchApproval {
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
    ...(jobOf(row) ? { job_id: jobOf(row) } : {}),
    failure: row.failure,
    decides,
  };
}

/**
 * Requests past their time are expired (on every read and decision, and by the sweep: no request
 * outlives it); their requesters are told by e-mail, after the reply (the mail waits on nobody).
 */
export async function expireDue(ctx: Ctx): Promise<void> {
  const expired = await ctx.db
    .update(searchApprovals)
    .set({ status: 'expired' })
    .where(and(eq(searchApprovals.status, 'pending'), lt(searchApprovals.expiresAt, ctx.now())))
    .returning();
  if (expired.length === 0) return;
  await refuseSubjects(ctx, expired);
  await recordAudit(
    ctx.db,
    expired.map((row) => ({
      action: 'approval.expire',
      outcome: 'success' as const,
      user: null,
      target: row.id,
      details: { requester_id: row.userId, kind: row.kind },
    })),
  );
  for (const row of expired) void ctx.tell(row, null);
}

/** The requests matching `where`, newest first, presented for `actor`. */
export async function read(
  ctx: Ctx,
  actor: Actor,
  where: ReturnType<typeof and>,
  limit = 200,
): Promise<SearchApproval[]> {
  const rows = await ctx.db
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
