import { z } from 'zod';
import {
  type CaseUnitShare,
  UNIT_ROLES,
  type Unit,
  type UnitMember,
  type UnitMembersResponse,
  type UnitPool,
  type UnitsResponse,
} from '../units.ts';
import { isoTimestamp } from './common.ts';
import { statementEntryResponse } from './history.ts';

/**
 * The answers of /api/units (requests: createUnitBody, updateUnitBody, unitLevelsBody,
 * addUnitMemberBody, changeUnitMemberBody) and of a case's unit shares (shareCaseBody).
 */

export const unitResponse: z.ZodType<Unit> = z
  .object({
    id: z.string(),
    parent_id: z.string().nullable().describe('The unit above; null at the top of the tree.'),
    name: z.string(),
    level: z.number().int().describe('Its depth: 0 at the top of the tree.'),
    level_name: z.string().describe('The name the admin gave this level (State, District, …).'),
    is_default: z.boolean().describe('New accounts join this unit.'),
    member_count: z.number().int(),
    retention_days: z
      .number()
      .int()
      .nullable()
      .describe(
        "Days its members' stored results are kept; null: the deployment's period. The shorter of the two applies, and of a member's units the shortest.",
      ),
    created_at: isoTimestamp,
  })
  .meta({ id: 'Unit', description: 'A unit of the agency: a police station, a district, a state, …' });

const role = z.enum(UNIT_ROLES);

export const unitsResponse: z.ZodType<UnitsResponse> = z.object({
  levels: z.array(z.string()).describe('The names of the levels, top first.'),
  units: z
    .array(unitResponse)
    .describe(
      'The units the caller may see, parents before children: all for an admin; else their own and the units below those they supervise or administer.',
    ),
  memberships: z.array(z.object({ unit_id: z.string(), unit_name: z.string(), role })),
  edits_tree: z.boolean().describe('Whether the caller may change the tree (admins).'),
});

export const unitMemberResponse: z.ZodType<UnitMember> = z.object({
  user_id: z.string(),
  name: z.string(),
  email: z.string(),
  role,
  added_at: isoTimestamp,
  monthly_allowance: z
    .number()
    .int()
    .describe("Credits a month the member may draw from the unit's pool; 0: none."),
  used_this_month: z.number().int().describe('Drawn from the pool this calendar month (UTC).'),
});

export const unitMembersResponse: z.ZodType<UnitMembersResponse> = z.object({
  unit: unitResponse,
  members: z.array(unitMemberResponse),
  manages: z.boolean().describe('Whether the caller may add, change and remove members of this unit.'),
});

export const caseUnitShareResponse: z.ZodType<CaseUnitShare> = z.object({
  unit_id: z.string(),
  unit_name: z.string(),
  shared_at: isoTimestamp,
});

export const unitPoolResponse: z.ZodType<UnitPool> = z
  .object({
    unit: unitResponse,
    balance: z.number().int().describe("The pool's credits."),
    members: z.array(unitMemberResponse),
    tops_up: z.boolean().describe('Whether the caller may top up or deduct the pool (admins).'),
    sets_allowances: z.boolean().describe('Whether the caller may set monthly allowances.'),
    data: z.array(statementEntryResponse).describe("The pool's ledger, newest first."),
    total: z.number().int(),
    page: z.number().int(),
    per_page: z.number().int(),
  })
  .meta({ id: 'UnitPool' });
