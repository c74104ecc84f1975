/**
 * The access policy: the one place that says who may see or act on what. Modules never write an
 * ownership predicate of their own; they ask here, as a boolean for a row in hand or as a scoped query
 * (a SQL condition) for the rows they read.
 *
 * Three kinds of holdings, because they widen differently:
 * - **Work** (searches, reports, watches, bulk jobs, the credit statement): what an investigator did.
 *   Its holder sees it, and so does a supervisor of a unit the holder is in or a unit above it
 *   (`sees`, `supervises`); only the holder changes it (`changes`). Lists show the caller's own work
 *   unless they ask for their units' (`lists`).
 * - **Credentials** (sessions, keys, factors, passkeys, trusted devices, challenges, resets): the
 *   holder's own, never widened, whoever asks.
 * - **Cases**: the owner, the members the owner added, the members of a unit the case is shared with
 *   (or of a unit below it) and the supervisors of the owner see a case; the owner and admins manage
 *   it; the owner, the owner's supervisors and admins share it with a unit.
 *
 * Units: a tree (`units`, its closure `unit_paths`); `unit_members` says who is in a unit and as what.
 * A unit admin manages the membership of the unit and the units below it; only admins change the tree.
 *
 * Admins administer accounts (the admin console) and may read any case and any report for
 * verification; they do not see other users' work lists.
 */
import type { ApiKeyScope, CaseRole } from '@footprint/domain';
import type { AnyColumn } from 'drizzle-orm';
import { and, eq, type Placeholder, type SQL, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { Executor } from '../db/client.ts';
import { rowsOf } from '../db/rows.ts';
import {
  apiKeys,
  auditEvents,
  authTokens,
  bulkJobs,
  caseMembers,
  cases,
  caseUnits,
  creditEntries,
  lookups,
  otpChallenges,
  passkeys,
  passwordResets,
  recoveryCodes,
  reports,
  searchApprovals,
  secondFactorChallenges,
  trustedDevices,
  type UserRow,
  unitMembers,
  unitPaths,
  users,
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

// ---- units -----------------------------------------------------------------------------------------

/**
 * True, in a query, when `actorId` is a supervisor of a unit that `holder` (a user id column or value)
 * is in, or of a unit above one. A supervisor supervises themself through their own unit.
 */
export const supervises = (actorId: HolderId, holder: HolderId): SQL =>
  sql`exists (select 1 from ${unitMembers} s
    join ${unitPaths} p on p.ancestor_id = s.unit_id
    join ${unitMembers} m on m.unit_id = p.descendant_id
    where s.user_id = ${actorId} and s.role = 'supervisor' and m.user_id = ${holder})`;

/** True, in a query, when `actorId` holds `role` in the unit `unitId` or a unit above it. */
export const holdsRoleOver = (actorId: HolderId, unitId: HolderId, role: 'supervisor' | 'unit_admin'): SQL =>
  sql`exists (select 1 from ${unitMembers} s
    join ${unitPaths} p on p.ancestor_id = s.unit_id
    where s.user_id = ${actorId} and s.role = ${role} and p.descendant_id = ${unitId})`;

/**
 * True, in a query, when the holder has a supervisor: someone other than themself who is a supervisor of
 * one of their units or of a unit above it.
 */
export const hasSupervisor = (holder: HolderId): SQL =>
  sql`exists (select 1 from ${unitMembers} s
    join ${unitPaths} p on p.ancestor_id = s.unit_id
    join ${unitMembers} m on m.unit_id = p.descendant_id
    where s.role = 'supervisor' and m.user_id = ${holder} and s.user_id <> ${holder})`;

/**
 * The requests for approval of sensitive searches (search_approvals) `actor` decides: those of the
 * people they supervise (their unit and the units below) and, for an admin, those of anyone with no
 * supervisor at all, so that none is left without someone to decide it. Never their own.
 */
export function decidesApprovals(actor: Actor): SQL {
  const supervised = supervises(actor.id, searchApprovals.userId);
  const reach = administers(actor)
    ? sql`(${supervised} or not ${hasSupervisor(searchApprovals.userId)})`
    : supervised;
  return sql`(${searchApprovals.userId} <> ${actor.id} and ${reach})`;
}

/** Who is told of a request of `holderId`'s: their supervisors, or the admins when they have none. */
export async function approversOf(
  executor: Executor,
  holderId: string,
): Promise<{ id: string; email: string; name: string }[]> {
  const result = await executor.execute(sql`
    select distinct u.id, u.email, u.name from ${users} u
    where u.status = 'active' and u.id <> ${holderId} and (
      exists (select 1 from ${unitMembers} s
        join ${unitPaths} p on p.ancestor_id = s.unit_id
        join ${unitMembers} m on m.unit_id = p.descendant_id
        where s.user_id = u.id and s.role = 'supervisor' and m.user_id = ${holderId})
      or (u.role = 'admin' and not ${hasSupervisor(holderId)}))
    order by u.email
  `);
  return rowsOf<{ id: string; email: string; name: string }>(result);
}

/** A user's memberships (in a query over `unit_members`). */
export const membershipsOf = (userId: HolderId): SQL => eq(unitMembers.userId, userId);

/** One user's membership of one unit (in a query over `unit_members`). */
export const membershipRow = (unitId: string, userId: string): SQL =>
  and(eq(unitMembers.unitId, unitId), eq(unitMembers.userId, userId)) as SQL;

/**
 * Whether a unit admin (not an admin) may place `userId`, that is add them to a unit or change or end
 * a membership of theirs: only someone already in a unit the actor administers (or one below), and
 * never themself. Pulling someone in from elsewhere, or raising oneself to supervisor, would widen
 * what a supervisor sees: that is an admin's decision.
 */
export async function placesMember(
  executor: Executor,
  actor: Actor,
  userId: string,
): Promise<'yes' | 'self' | 'outside'> {
  if (administers(actor)) return 'yes';
  if (actor.id === userId) return 'self';
  const inside = await yes(
    executor,
    sql`exists (select 1 from ${unitMembers} m
      join ${unitPaths} p on p.descendant_id = m.unit_id
      join ${unitMembers} s on s.unit_id = p.ancestor_id
      where m.user_id = ${userId} and s.user_id = ${actor.id} and s.role = 'unit_admin')`,
  );
  return inside ? 'yes' : 'outside';
}

/** Evaluates one condition of the policy for values in hand. */
async function yes(executor: Executor, condition: SQL): Promise<boolean> {
  const [row] = rowsOf<{ yes: boolean }>(await executor.execute(sql`select ${condition} as yes`));
  return row?.yes === true;
}

/** Whether the actor may build the tree (create, rename, move, delete units; name the levels). */
export const editsUnitTree = administers;

/**
 * Whether the actor may manage the membership of a unit: admins, and unit admins of the unit or a
 * unit above it.
 */
export async function managesUnit(executor: Executor, actor: Actor, unitId: string): Promise<boolean> {
  if (administers(actor)) return true;
  return yes(executor, holdsRoleOver(actor.id, unitId, 'unit_admin'));
}

/**
 * Whether the actor may read a unit's members: those who manage it, and its supervisors (and those
 * of the units above). Anyone else is answered as if the unit did not exist.
 */
export async function readsUnit(executor: Executor, actor: Actor, unitId: string): Promise<boolean> {
  if (administers(actor)) return true;
  return yes(
    executor,
    sql`(${holdsRoleOver(actor.id, unitId, 'unit_admin')} or ${holdsRoleOver(actor.id, unitId, 'supervisor')})`,
  );
}

// ---- work ------------------------------------------------------------------------------------------

/**
 * The rows of `table` the actor may read one by one (a search, a bulk job, a watch, a report): their
 * own, and those of the people they supervise.
 */
export function sees(actor: { id: HolderId }, table: WorkTable): SQL {
  const holder = (table as Held).userId;
  return sql`(${eq(holder, actor.id)} or ${supervises(actor.id, holder)})`;
}

/**
 * True, in a query, when `actorId` reviews the work of `holder` (sampled review): they supervise
 * them, and are not them. Nobody reviews their own searches.
 */
export const reviewsWorkOf = (actorId: HolderId, holder: HolderId): SQL =>
  sql`(${holder} <> ${actorId} and ${supervises(actorId, holder)})`;

/** Whose work a list shows: the caller's own (`mine`), or everyone's in the units they supervise (`unit`). */
export type ListScope = 'mine' | 'unit';

/** The rows of `table` a list shows: the actor's own, or with `unit` those of the people they supervise. */
export function lists(actor: { id: HolderId }, table: WorkTable, scope: ListScope = 'mine'): SQL {
  const holder = (table as Held).userId;
  return scope === 'unit' ? supervises(actor.id, holder) : eq(holder, actor.id);
}

/** The rows of `table` the actor may change (pause, delete, cancel): always only their own. */
export function changes(actor: Pick<Actor, 'id'>, table: WorkTable): SQL {
  return eq((table as Held).userId, actor.id);
}

/** Whether the actor holds a row in hand (else they read it as its holder's supervisor). */
export const holds = (actor: Pick<Actor, 'id'>, holderId: string): boolean => actor.id === holderId;

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

/**
 * Whether the actor may read a report made by `holderId`: its holder, a supervisor of the holder, or
 * an admin verifying it.
 */
export async function readsReportOf(executor: Executor, actor: Actor, holderId: string): Promise<boolean> {
  if (actor.id === holderId || administers(actor)) return true;
  return yes(executor, supervises(actor.id, holderId));
}

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

/** True, in a query over `cases`, for a case shared with a unit the user is in, or a unit above it. */
export const sharedWithUnitOf = (userId: string): SQL =>
  sql`exists (select 1 from ${caseUnits} cu
    join ${unitPaths} p on p.ancestor_id = cu.unit_id
    join ${unitMembers} m on m.unit_id = p.descendant_id
    where cu.case_id = ${cases.id} and m.user_id = ${userId})`;

/** The cases the actor sees in lists and pickers: owned, shared with them or their unit, or their people's. */
export const casesSeenBy = (actor: Pick<Actor, 'id'>): SQL =>
  sql`(${cases.ownerId} = ${actor.id} or ${memberOf(actor.id)} or ${sharedWithUnitOf(actor.id)}
    or ${supervises(actor.id, cases.ownerId)})`;

/** The cases the actor owns (a search opening a case by its reference finds the actor's own). */
export const casesOwnedBy = (actor: Pick<Actor, 'id'>): SQL => eq(cases.ownerId, actor.id);

/** Orders the actor's own cases first. */
export const ownCasesFirst = (actor: Pick<Actor, 'id'>): SQL => sql`${cases.ownerId} = ${actor.id} desc`;

/** How the viewer reaches each case of a query over `cases`, as columns (see `caseRoleKnown`). */
export const caseReach = (viewerId: string) => ({
  member: memberOf(viewerId).mapWith(Boolean),
  unit: sharedWithUnitOf(viewerId).mapWith(Boolean),
  supervisor: supervises(viewerId, cases.ownerId).mapWith(Boolean),
});
export type CaseReach = { member: boolean; unit: boolean; supervisor: boolean };

/** The role a case's reader holds, from how they reach it; undefined when they may not see it. */
export function caseRoleKnown(
  actor: Actor,
  row: { ownerId: string },
  reach: CaseReach,
): CaseRole | undefined {
  if (row.ownerId === actor.id) return 'owner';
  if (reach.member) return 'member';
  if (reach.unit) return 'unit';
  if (reach.supervisor) return 'supervisor';
  if (administers(actor)) return 'admin';
  return undefined;
}

/**
 * The actor's role on a case in hand: owner, member, unit, supervisor, admin, or undefined when they
 * may not see it (then it is answered as missing, never as forbidden).
 */
export async function caseRoleOf(
  executor: Executor,
  actor: Actor,
  row: { id: string; ownerId: string },
): Promise<CaseRole | undefined> {
  if (row.ownerId === actor.id) return 'owner';
  const reach = caseReach(actor.id);
  const [found] = await executor.select(reach).from(cases).where(eq(cases.id, row.id));
  return caseRoleKnown(actor, row, found ?? { member: false, unit: false, supervisor: false });
}

/** Who may change a case, its members and its items. */
export const managesCase = (role: CaseRole): boolean => role === 'owner' || role === 'admin';

/** Who may share a case with a unit, or stop sharing it: its owner, the owner's supervisors, admins. */
export const sharesCase = (role: CaseRole): boolean =>
  role === 'owner' || role === 'supervisor' || role === 'admin';

/** Whether `userId` already belongs to the case (in a query over case members). */
export const memberRow = (caseId: string, userId: string): SQL =>
  and(eq(caseMembers.caseId, caseId), eq(caseMembers.userId, userId)) as SQL;

/** Whether the actor may take `memberId` off a case: its managers anyone, a member only themself. */
export const removesMember = (role: CaseRole, actor: Pick<Actor, 'id'>, memberId: string): boolean =>
  managesCase(role) || memberId === actor.id;

/**
 * Whether the actor may remove a capture's files from a case (a removal is itself signed into the
 * case's chain): whoever asked for it, and those who may share the case.
 */
export const removesCapture = (role: CaseRole, actor: Pick<Actor, 'id'>, requesterId: string): boolean =>
  sharesCase(role) || requesterId === actor.id;

/** Whether a person may be added to a case: not its owner. */
export const mayJoinCase = (row: { ownerId: string }, userId: string): boolean => row.ownerId !== userId;
