import { z } from 'zod';
import { noControl } from './accountability.ts';
import { EMAIL_MAX_LENGTH } from './constants.ts';
import type { StatementEntry } from './history.ts';
import { fieldMessages } from './messages.ts';
import { emailField, requiredText } from './validation.ts';

/**
 * Units (not in the spec): the tree an agency is organised in, for example State → Range or
 * Commissionerate → District → Police station / Cyber cell. The admin names the levels; a unit's
 * level is its depth in the tree. A user belongs to one or more units with a role in each:
 * - investigator: their own work, and the cases shared with them or their unit;
 * - supervisor: also sees the work (searches, cases, bulk jobs, watches, reports) of everyone in the
 *   unit and the units below it, and may share a case of theirs with another unit;
 * - unit admin: manages the membership of the unit and the units below it.
 * Every account is in at least the default unit, where accounts from before units were placed.
 */

export const UNIT_ROLES = ['investigator', 'supervisor', 'unit_admin'] as const;
export type UnitRole = (typeof UNIT_ROLES)[number];

export const UNIT_ROLE_LABELS: Record<UnitRole, string> = {
  investigator: 'Investigator',
  supervisor: 'Supervisor',
  unit_admin: 'Unit admin',
};

/** The levels a new deployment starts with; the admin renames them (PUT /api/units/levels). */
export const DEFAULT_UNIT_LEVELS: readonly string[] = [
  'State',
  'Range or Commissionerate',
  'District',
  'Police station / Cyber cell',
];

export const UNIT_NAME_MAX_LENGTH = 120;
export const UNIT_LEVEL_NAME_MAX_LENGTH = 60;
export const UNIT_LEVELS_MAX = 8;

export const unitsMessages = {
  notFound: 'No unit you may see has this id.',
  nameTaken: 'A unit of this name is already under the same parent.',
  tooDeep: (levels: number) =>
    `The tree has ${levels} ${levels === 1 ? 'level' : 'levels'}: name another level before adding a unit below the last one. Nothing was changed.`,
  moveIntoItself: 'A unit cannot be moved under itself or a unit below it. Nothing was changed.',
  notEmpty:
    'Only an empty unit can be deleted: move or remove its members and the units below it first. Nothing was changed.',
  defaultUnit: 'The default unit cannot be deleted: new accounts join it. Nothing was changed.',
  levelsInUse: (deepest: number) =>
    `The tree already goes ${deepest} ${deepest === 1 ? 'level' : 'levels'} deep: keep at least that many levels. Nothing was changed.`,
  memberUnknown: 'No active user has this e-mail address.',
  memberNotFound: 'This user is not a member of this unit.',
  lastUnit:
    'Every account belongs to at least one unit: add the user to another unit before removing them from this one. Nothing was changed.',
  ownMembership: 'Your own membership is changed by an admin or a unit admin above you. Nothing was changed.',
  outsideUnits: 'Only an admin can place someone who is not yet in a unit you manage. Nothing was changed.',
  forbidden:
    'Only an admin, or a unit admin of this unit or a unit above it, can do this. Nothing was changed.',
  treeAdminOnly: 'Only an admin can change the tree of units. Nothing was changed.',
  nameControl: 'The name may not contain control characters.',
  nothingToChange: 'Send at least one field to change.',
  shareNotAllowed:
    'Only the case owner, a supervisor of the owner or an admin can share a case with a unit. Nothing was changed.',
  shareAlready: 'This case is already shared with this unit.',
  shareDefault:
    'A case cannot be shared with the default unit: it holds every account not yet placed in a unit. Nothing was changed.',
  shareNotFound: 'This case is not shared with this unit.',
  poolAdminOnly: "Only an admin can top up or deduct a unit's credit pool. Nothing was changed.",
  poolTooSmall: (balance: number) =>
    `The pool holds ${balance} ${balance === 1 ? 'credit' : 'credits'}: it cannot go below zero. Nothing was changed.`,
  ownAllowance: 'Your own allowance is set by an admin or a unit admin above you. Nothing was changed.',
  poolInUse: 'This unit has a credit pool with a history: it cannot be deleted. Nothing was changed.',
} as const;

const name = (field: string, max: number) =>
  requiredText(field, max)
    .trim()
    .min(1, { error: fieldMessages.required(field), abort: true })
    .regex(noControl, unitsMessages.nameControl);

const unitId = (field: string) =>
  z.string({ error: fieldMessages.required(field) }).uuid(unitsMessages.notFound);

/** POST /api/units: a unit under `parent_id` (null: a new top of the tree). */
export const createUnitBody = z.strictObject({
  name: name('name', UNIT_NAME_MAX_LENGTH),
  parent_id: unitId('parent id').nullable(),
});

/** A unit's retention period: days, within the deployment's (its ceiling); null follows the ceiling. */
const retentionDays = z
  .number({ error: 'The retention days field must be a whole number of days, or null.' })
  .int('The retention days field must be a whole number of days, or null.')
  .min(1, 'The retention days field must be at least 1.')
  .max(3650, 'The retention days field must not be greater than 3650.')
  .nullable();

/** PATCH /api/units/{id}: rename, move under another parent, or set the retention period. */
export const updateUnitBody = z
  .strictObject({
    name: name('name', UNIT_NAME_MAX_LENGTH).optional(),
    parent_id: unitId('parent id').nullable().optional(),
    retention_days: retentionDays.optional(),
  })
  .refine(
    (body) => body.name !== undefined || body.parent_id !== undefined || body.retention_days !== undefined,
    {
      message: unitsMessages.nothingToChange,
    },
  );

/** PUT /api/units/levels: the names of the levels, top first. */
export const unitLevelsBody = z.strictObject({
  levels: z
    .array(name('level', UNIT_LEVEL_NAME_MAX_LENGTH), { error: fieldMessages.required('levels') })
    .min(1, fieldMessages.required('levels'))
    .max(UNIT_LEVELS_MAX, `Name at most ${UNIT_LEVELS_MAX} levels.`),
});

const unitRole = z.enum(UNIT_ROLES, {
  error: 'The role must be one of: investigator, supervisor, unit_admin.',
});

/** POST /api/units/{id}/members: add a user (by e-mail) with a role, or change the role they have. */
export const addUnitMemberBody = z.strictObject({
  email: emailField('email', EMAIL_MAX_LENGTH),
  role: unitRole,
});

/** PATCH /api/units/{id}/members/{userId}. */
export const changeUnitMemberBody = z.strictObject({ role: unitRole });

const credits = (field: string) =>
  z
    .number({ error: `The ${field} field must be a whole number of credits.` })
    .int(`The ${field} field must be a whole number of credits.`);

/** POST /api/units/{id}/credits: top up (amount > 0) or deduct (amount < 0) the unit's pool (admins). */
export const unitCreditsBody = z.strictObject({
  amount: credits('amount')
    .refine((n) => n !== 0, 'The amount field must not be zero.')
    .refine((n) => Math.abs(n) <= 10_000_000, 'The amount field must be between -10000000 and 10000000.'),
  reason: requiredText('reason', 200)
    .trim()
    .min(1, fieldMessages.required('reason'))
    .regex(noControl, 'The reason may not contain control characters.'),
});

/** PUT /api/units/{id}/members/{userId}/allowance: credits a month the member may draw from the pool. */
export const memberAllowanceBody = z.strictObject({
  monthly_allowance: credits('monthly allowance')
    .min(0, 'The monthly allowance field must be at least 0.')
    .max(100_000_000, 'The monthly allowance field must not be greater than 100000000.'),
});

/** POST /api/cases/{id}/units: share the case with a unit (its members, and the units below, see it). */
export const shareCaseBody = z.strictObject({ unit_id: unitId('unit id') });

/** A unit as GET /api/units lists it. */
export interface Unit {
  id: string;
  parent_id: string | null;
  name: string;
  /** 0 at the top of the tree. */
  level: number;
  level_name: string;
  is_default: boolean;
  member_count: number;
  /**
   * How many days its members' stored results are kept; null: the deployment's period. The shorter
   * of this and the deployment's applies, and of a member's units the shortest.
   */
  retention_days: number | null;
  created_at: string;
}

/** One of the caller's own memberships. */
export interface UnitMembership {
  unit_id: string;
  unit_name: string;
  role: UnitRole;
}

export interface UnitsResponse {
  levels: string[];
  /** The units the caller may see: all for an admin; else their units and, where they supervise or administer one, the units below it. */
  units: Unit[];
  memberships: UnitMembership[];
  /** Whether the caller may change the tree (admins). */
  edits_tree: boolean;
}

export interface UnitMember {
  user_id: string;
  name: string;
  email: string;
  role: UnitRole;
  added_at: string;
  /** Credits a month they may draw from the unit's pool; 0: none (their searches use their own). */
  monthly_allowance: number;
  /** Drawn from the pool this calendar month (UTC). */
  used_this_month: number;
}

export interface UnitMembersResponse {
  unit: Unit;
  members: UnitMember[];
  /** Whether the caller may add, change and remove members here (admins and unit admins above). */
  manages: boolean;
}

/** A unit a case is shared with. */
export interface CaseUnitShare {
  unit_id: string;
  unit_name: string;
  shared_at: string;
}

/** GET /api/units/{id}/credits: the unit's pool and its statement (optionally one member's). */
export interface UnitPool {
  unit: Unit;
  balance: number;
  /** Each member's allowance and what they drew this month. */
  members: UnitMember[];
  /** Whether the caller may top up or deduct the pool (admins). */
  tops_up: boolean;
  /** Whether the caller may set allowances (admins, unit admins of this unit or above). */
  sets_allowances: boolean;
  data: StatementEntry[];
  total: number;
  page: number;
  per_page: number;
}

/** The caller's own pool (GET /api/me): the unit their searches draw on first, and what is left. */
export interface OwnPool {
  unit_id: string;
  unit_name: string;
  balance: number;
  monthly_allowance: number;
  used_this_month: number;
  /** What a search may still draw from it now: the smaller of the pool and the allowance left. */
  available: number;
}
