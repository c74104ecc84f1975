/**
 * The access policy: the one place that says who may see or act on what. Modules never write an
 * ownership predicate of their own; they ask here, as a boolean for a row in hand or as a scoped query
 * (a SQL condition) for the rows they read.
 *
 * Three kinds of holdings, because they will widen differently:
 * - **Work** (searches, reports, watches, bulk jobs, the credit statement): what an investigator did.
 *   Today only its holder sees it. Units and supervisors (a later issue) widen `sees` here alone: a
 *   supervisor will see the work of the unit and the units below it, still without changing it
 *   (`changes` stays with the holder).
 * - **Credentials** (sessions, keys, factors, passkeys, trusted devices, challenges, resets): the
 *   holder's own, never widened, whoever asks.
 * - **Cases**: the owner and the members the owner added see a case; the owner and admins manage it.
 *   Cases shared with a unit will be one more clause of `casesSeenBy`.
 *
 * Admins administer accounts (the admin console) and may read any case and any report for
 * verification; they do not see other users' work lists.
 */
import type { ApiKeyScope, CaseRole } from '@footprint/domain';
import type { AnyColumn } from 'drizzle-orm';
import { and, eq, type Placeholder, type SQL, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { Executor } from '../db/client.ts';
import {
  apiKeys,
  auditEvents,
  authTokens,
  bulkJobs,
  caseMembers,
  cases,
  creditEntries,
  lookups,
  otpChallenges,
  passkeys,
  passwordResets,
  recoveryCodes,
  reports,
  secondFactorChallenges,
  trustedDevices,
  type UserRow,
  userTotp,
  watches,
} from '../db/schema.ts';

/** Who is asking: a signed-in user, an admin, or an API key acting for its account. */
export interface Actor {
  id: string;
  role: UserRow['role'];
  appMode: UserRow['appMode'];
}

/** An API key acting for its account: what it may call. */
export interface KeyActor {
  scopes: readonly string[];
}

/** The tables of an investigator's work, each with the column naming its holder. */
export const WORK = { lookups, reports, watches, bulkJobs, creditEntries } as const;
/** The tables of credentials: each row is its holder's alone. */
export const CREDENTIALS = {
  apiKeys,
  authTokens,
  trustedDevices,
  userTotp,
  recoveryCodes,
  passkeys,
  secondFactorChallenges,
  otpChallenges,
  passwordResets,
} as const;

type WorkTable = (typeof WORK)[keyof typeof WORK];
type CredentialTable = (typeof CREDENTIALS)[keyof typeof CREDENTIALS];
type Held = { userId: PgColumn };
/** A holder's id, a placeholder for it in a prepared statement, or the column of an outer query. */
type HolderId = string | Placeholder | AnyColumn;

// ---- accounts and features ------------------------------------------------------------------------

/** Admin-only operations (the admin console, account changes, the audit trail). */
export const administers = (actor: Actor | null | undefined): boolean => actor?.role === 'admin';

/** Live-only features (bulk, watchlists, API keys, intelligence searches). */
export const usesLiveFeatures = (actor: Actor | null | undefined): boolean => actor?.appMode === 'live';

/** Whether an API key may call an operation of `scope`; an operation without a scope is for people. */
export const keyMayCall = (key: KeyActor, scope: ApiKeyScope | undefined): boolean =>
  scope !== undefined && key.scopes.includes(scope);

// ---- work ------------------------------------------------------------------------------------------

/** The rows of `table` the actor may see (history, reports, watches, bulk jobs, the statement). */
export function sees(actor: { id: HolderId }, table: WorkTable): SQL {
  return eq((table as Held).userId, actor.id);
}

/** The rows of `table` the actor may change (pause, delete, cancel): always only their own. */
export function changes(actor: Pick<Actor, 'id'>, table: WorkTable): SQL {
  return eq((table as Held).userId, actor.id);
}

/**
 * The rows of `table` held by the account that holds a row already in hand: a repeat reuses, and a
 * report or bundle reads, only an original of the same holder, never another account's.
 */
export function heldBy(table: Held, holderId: HolderId): SQL {
  return eq(table.userId, holderId);
}

/** Joins two holdings of the same account (a repeat and its original, a search and its refund). */
export function sameHolder(a: Held, b: Held): SQL {
  return eq(a.userId, b.userId);
}

/** Whether the actor may read a report made by `holderId` (its holder, or an admin verifying it). */
export const readsReportOf = (actor: Actor, holderId: string): boolean =>
  actor.id === holderId || administers(actor);

/** The audit events an admin filters to one account. */
export const auditOf = (userId: string): SQL => eq(auditEvents.userId, userId);

// ---- credentials -----------------------------------------------------------------------------------

/** The holder's own credential rows; never widened, whoever asks. */
export function own(table: CredentialTable, holderId: HolderId): SQL {
  return eq((table as Held).userId, holderId);
}

// ---- cases -----------------------------------------------------------------------------------------

/** True, in a query over `cases`, for a case the user was added to. */
export const memberOf = (userId: string): SQL =>
  sql`exists (select 1 from ${caseMembers} m where m.case_id = ${cases.id} and m.user_id = ${userId})`;

/** The cases the actor sees in lists and pickers: owned and shared with them. */
export const casesSeenBy = (actor: Pick<Actor, 'id'>): SQL =>
  sql`(${cases.ownerId} = ${actor.id} or ${memberOf(actor.id)})`;

/** The cases the actor owns (a search opening a case by its reference finds the actor's own). */
export const casesOwnedBy = (actor: Pick<Actor, 'id'>): SQL => eq(cases.ownerId, actor.id);

/** Orders the actor's own cases first. */
export const ownCasesFirst = (actor: Pick<Actor, 'id'>): SQL => sql`${cases.ownerId} = ${actor.id} desc`;

/**
 * The actor's role on a case in hand: owner, member, admin, or undefined when they may not see it
 * (then it is answered as missing, never as forbidden).
 */
export async function caseRoleOf(
  executor: Executor,
  actor: Actor,
  row: { id: string; ownerId: string },
): Promise<CaseRole | undefined> {
  if (row.ownerId === actor.id) return 'owner';
  const [member] = await executor
    .select({ userId: caseMembers.userId })
    .from(caseMembers)
    .where(and(eq(caseMembers.caseId, row.id), eq(caseMembers.userId, actor.id)));
  if (member) return 'member';
  if (administers(actor)) return 'admin';
  return undefined;
}

/** The role a case's reader holds when the membership is already known. */
export const caseRoleKnown = (actor: Actor, row: { ownerId: string }, member: boolean): CaseRole =>
  row.ownerId === actor.id ? 'owner' : member ? 'member' : 'admin';

/** Who may change a case, its members and its items. */
export const managesCase = (role: CaseRole): boolean => role === 'owner' || role === 'admin';

/** Whether `userId` already belongs to the case (in a query over case members). */
export const memberRow = (caseId: string, userId: string): SQL =>
  and(eq(caseMembers.caseId, caseId), eq(caseMembers.userId, userId)) as SQL;

/** Whether the actor may take `memberId` off a case: its managers anyone, a member only themself. */
export const removesMember = (role: CaseRole, actor: Pick<Actor, 'id'>, memberId: string): boolean =>
  managesCase(role) || memberId === actor.id;

/** Whether a person may be added to a case: not its owner. */
export const mayJoinCase = (row: { ownerId: string }, userId: string): boolean => row.ownerId !== userId;
