/**
 * Operator commands for the tree of units and its members (wired into src/cli/index.ts). They call
 * the same functions as /api/units, with the operator's powers (an admin's), so the same checks hold
 * and every change is in the audit trail (actor 'cli', with the OS user).
 */
import {
  addUnitMemberBody,
  createUnitBody,
  memberAllowanceBody,
  type Unit,
  unitCreditsBody,
  unitLevelsBody,
  updateUnitBody,
} from '@footprint/domain';
import type { Database } from '../../db/client.ts';
import { DomainError } from '../../errors.ts';
import { CliUsageError, parse, refusalText } from '../admin/cli.ts';
import { type Acting, getUserByEmail } from '../admin/users.ts';
import { addUnitMember, readUnitMembers, removeUnitMember } from './members.ts';
import { changeUnitPool, readUnitPool, setMemberAllowance } from './pool.ts';
import { createUnit, deleteUnit, readUnits, setLevels, updateUnit } from './tree.ts';
import type { Who } from './who.ts';

export const unitCliUsage = `  units:list      [--members]
                  The tree of units, one per line, indented by level (with --members, who is in
                  each and as what).
  units:create    --name "Pune City" [--parent UNIT]     Add a unit (at the top without --parent).
  units:rename    UNIT --name "New name"
  units:move      UNIT --parent UNIT|top                 Move a unit (and the units below it).
  units:delete    UNIT                                   Delete an empty unit.
  units:levels    --levels "State,Range,District,Police station"
                  Name the levels of the tree, top first.
  units:add-member    UNIT --email a@b.org --role investigator|supervisor|unit_admin
                  Add an account to a unit, or change the role it holds there.
  units:remove-member UNIT --email a@b.org              An account keeps at least one unit.
  units:credits   UNIT [--amount N --reason "…"]
                  The unit's credit pool and members' allowances; with --amount, top it up
                  (or deduct, N < 0) first.
  units:allowance UNIT --email a@b.org --amount N       Credits a month the member may draw from the pool.
                  UNIT is a unit's id, or its path of names from the top: "Maharashtra/Pune City".`;

export const UNIT_COMMANDS = [
  'units:list',
  'units:create',
  'units:rename',
  'units:move',
  'units:delete',
  'units:levels',
  'units:add-member',
  'units:remove-member',
  'units:credits',
  'units:allowance',
] as const;
export type UnitCommand = (typeof UNIT_COMMANDS)[number];

export const unitCliOptions = {
  parent: { type: 'string' },
  levels: { type: 'string' },
  members: { type: 'boolean' },
} as const;

export interface UnitCliValues {
  name?: string | undefined;
  parent?: string | undefined;
  levels?: string | undefined;
  email?: string | undefined;
  role?: string | undefined;
  members?: boolean | undefined;
  amount?: string | undefined;
  reason?: string | undefined;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The path of names from the top to each unit ("Maharashtra/Pune City"), by id. */
function pathsOf(list: Unit[]): Map<string, string> {
  const byId = new Map(list.map((unit) => [unit.id, unit]));
  const paths = new Map<string, string>();
  const pathOf = (unit: Unit): string => {
    const known = paths.get(unit.id);
    if (known) return known;
    const parent = unit.parent_id ? byId.get(unit.parent_id) : undefined;
    const path = parent ? `${pathOf(parent)}/${unit.name}` : unit.name;
    paths.set(unit.id, path);
    return path;
  };
  for (const unit of list) pathOf(unit);
  return paths;
}

/** A unit by id or by its path of names (compared without regard to case). */
async function unitOf(db: Database, who: Who, ref: string | undefined): Promise<Unit> {
  if (!ref)
    throw new CliUsageError('Name the unit: its id, or its path of names from the top ("State/District").');
  const { units } = await readUnits(db, who);
  const paths = pathsOf(units);
  const wanted = ref
    .split('/')
    .map((part) => part.trim().toLowerCase())
    .join('/');
  const found = units.find((unit) =>
    UUID.test(ref) ? unit.id === ref.toLowerCase() : paths.get(unit.id)?.toLowerCase() === wanted,
  );
  if (!found) throw new CliUsageError(`No unit is ${ref}. See units:list.`);
  return found;
}

async function listUnits(db: Database, who: Who, values: UnitCliValues, log: (line: string) => void) {
  const { levels, units } = await readUnits(db, who);
  log(`Levels: ${levels.join(' > ')}`);
  for (const unit of units) {
    const mark = unit.is_default ? ' [default]' : '';
    log(
      `${'  '.repeat(unit.level)}${unit.name} (${unit.level_name}, ${unit.member_count} ${unit.member_count === 1 ? 'member' : 'members'})${mark}  ${unit.id}`,
    );
    if (!values.members) continue;
    const { members } = await readUnitMembers(db, who, unit.id);
    for (const m of members) log(`${'  '.repeat(unit.level + 1)}- ${m.email} ${m.role}`);
  }
}

/** Runs one units command; the exit code as the other operator commands give it. */
export async function runUnitCommand(
  command: UnitCommand,
  db: Database,
  acting: Acting,
  positionals: string[],
  values: UnitCliValues,
  out: { log(line: string): void; error(line: string): void },
): Promise<number> {
  const who: Who = { actor: null, acting };
  const [ref] = positionals;
  try {
    switch (command) {
      case 'units:list':
        await listUnits(db, who, values, out.log);
        return 0;
      case 'units:create': {
        const parent = values.parent ? (await unitOf(db, who, values.parent)).id : null;
        const unit = await createUnit(
          db,
          who,
          parse(createUnitBody, { name: values.name, parent_id: parent }),
        );
        out.log(`Created ${unit.name} (${unit.level_name}): ${unit.id}`);
        return 0;
      }
      case 'units:rename': {
        const unit = await unitOf(db, who, ref);
        const renamed = await updateUnit(db, who, unit.id, parse(updateUnitBody, { name: values.name }));
        out.log(`Renamed ${unit.name} to ${renamed.name}.`);
        return 0;
      }
      case 'units:move': {
        const unit = await unitOf(db, who, ref);
        if (!values.parent) throw new CliUsageError('units:move needs --parent UNIT (or --parent top).');
        const parent = values.parent === 'top' ? null : (await unitOf(db, who, values.parent)).id;
        const moved = await updateUnit(db, who, unit.id, { parent_id: parent });
        out.log(`Moved ${moved.name}: now on level ${moved.level_name}.`);
        return 0;
      }
      case 'units:delete': {
        const unit = await unitOf(db, who, ref);
        await deleteUnit(db, who, unit.id);
        out.log(`Deleted ${unit.name}.`);
        return 0;
      }
      case 'units:levels': {
        const levels = (values.levels ?? '').split(',').map((level) => level.trim());
        const result = await setLevels(db, who, parse(unitLevelsBody, { levels }).levels);
        out.log(`Levels: ${result.levels.join(' > ')}`);
        return 0;
      }
      case 'units:add-member': {
        const unit = await unitOf(db, who, ref);
        const input = parse(addUnitMemberBody, { email: values.email, role: values.role });
        const member = await addUnitMember(db, who, unit.id, input);
        out.log(`${member.email} is ${member.role} of ${unit.name}.`);
        return 0;
      }
      case 'units:credits':
        await unitCredits(db, who, await unitOf(db, who, ref), values, out.log);
        return 0;
      case 'units:allowance': {
        const unit = await unitOf(db, who, ref);
        if (!values.email) throw new CliUsageError('units:allowance needs --email.');
        const user = await getUserByEmail(db, values.email);
        const input = parse(memberAllowanceBody, { monthly_allowance: wholeNumber(values.amount) });
        const member = await setMemberAllowance(db, who, unit.id, user.id, input.monthly_allowance);
        out.log(`${member.email} may draw ${member.monthly_allowance} credits a month from ${unit.name}.`);
        return 0;
      }
      case 'units:remove-member': {
        const unit = await unitOf(db, who, ref);
        if (!values.email) throw new CliUsageError('units:remove-member needs --email.');
        const user = await getUserByEmail(db, values.email);
        await removeUnitMember(db, who, unit.id, user.id);
        out.log(`${user.email} is no longer in ${unit.name}.`);
        return 0;
      }
    }
  } catch (error) {
    if (error instanceof CliUsageError) {
      out.error(error.message);
      return 2;
    }
    if (error instanceof DomainError) {
      out.error(refusalText(error));
      return 1;
    }
    throw error;
  }
}

/** A number given on the command line, or NaN (the schema then refuses it with its own message). */
const wholeNumber = (value: string | undefined): number => (value === undefined ? Number.NaN : Number(value));

/** The pool and its members' allowances; with --amount, a top-up (or deduction) first. */
async function unitCredits(
  db: Database,
  who: Who,
  unit: Unit,
  values: UnitCliValues,
  log: (line: string) => void,
): Promise<void> {
  const pool =
    values.amount === undefined
      ? await readUnitPool(db, who, unit.id, { page: 1, per_page: 1 })
      : await changeUnitPool(
          db,
          who,
          unit.id,
          parse(unitCreditsBody, { amount: wholeNumber(values.amount), reason: values.reason }),
        );
  log(`${unit.name}: ${pool.balance} credits in the pool.`);
  for (const member of pool.members.filter((m) => m.monthly_allowance > 0)) {
    log(`  ${member.email}: ${member.used_this_month} of ${member.monthly_allowance} drawn this month`);
  }
}
