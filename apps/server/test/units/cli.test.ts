// The units commands: the tree built and its members placed from the command line, through the same
// functions as /api/units (refusals included), each change in the audit trail as the operator.
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../src/db/client.ts';
import { auditEvents, unitMembers, units } from '../../src/db/schema.ts';
import { cliActing } from '../../src/modules/admin/cli.ts';
import { runUnitCommand, type UnitCliValues, type UnitCommand } from '../../src/modules/units/cli.ts';
import { createUser } from '../support/app.ts';
import { createTestDatabase } from '../support/db.ts';

let handle: DatabaseHandle;
beforeAll(async () => {
  handle = await createTestDatabase();
}, 120_000);
afterAll(() => handle?.close());

async function cli(command: UnitCommand, args: string[] = [], values: UnitCliValues = {}) {
  const logs: string[] = [];
  const errors: string[] = [];
  const code = await runUnitCommand(command, handle.db, cliActing(), args, values, {
    log: (line) => logs.push(line),
    error: (line) => errors.push(line),
  });
  return { code, out: logs.join('\n'), err: errors.join('\n') };
}

describe('units commands', () => {
  it('builds a tree by paths of names, places a member, and refuses what the API refuses', async () => {
    expect((await cli('units:create', [], { name: 'Maharashtra' })).code).toBe(0);
    expect((await cli('units:create', [], { name: 'Pune City', parent: 'maharashtra' })).code).toBe(0);
    const station = await cli('units:create', [], { name: 'Cyber cell', parent: 'Maharashtra/Pune City' });
    expect(station.code, station.err).toBe(0);
    const officer = await createUser(handle.db, { email: 'cli-officer@example.test' });
    const placed = await cli('units:add-member', ['Maharashtra/Pune City/Cyber cell'], {
      email: officer.email,
      role: 'supervisor',
    });
    expect(placed, placed.err).toMatchObject({ code: 0 });
    const [cell] = await handle.db.select().from(units).where(eq(units.name, 'Cyber cell'));
    const [membership] = await handle.db
      .select({ role: unitMembers.role })
      .from(unitMembers)
      .where(and(eq(unitMembers.unitId, cell!.id), eq(unitMembers.userId, officer.id)));
    expect(membership?.role).toBe('supervisor');

    const listed = await cli('units:list', [], { members: true });
    expect(listed.out).toMatch(/\n {4}Cyber cell \(District, 1 member\)/);
    expect(listed.out).toContain('- cli-officer@example.test supervisor');

    const notEmpty = await cli('units:delete', ['Maharashtra']);
    expect(notEmpty.code).toBe(1);
    expect(notEmpty.err).toContain('Only an empty unit can be deleted');
    const unknown = await cli('units:rename', ['Nowhere/At all'], { name: 'X' });
    expect(unknown).toMatchObject({ code: 2, err: 'No unit is Nowhere/At all. See units:list.' });
    const badRole = await cli('units:add-member', ['Maharashtra'], { email: officer.email, role: 'chief' });
    expect(badRole.code).toBe(2);
    expect(badRole.err).toContain('The role must be one of');

    const moved = await cli('units:move', ['Maharashtra/Pune City/Cyber cell'], { parent: 'Maharashtra' });
    expect(moved.code, moved.err).toBe(0);
    const [after] = await handle.db.select().from(units).where(eq(units.id, cell!.id));
    expect(after?.depth).toBe(1);

    const rows = await handle.db
      .select({ action: auditEvents.action, email: auditEvents.actorEmail })
      .from(auditEvents)
      .where(eq(auditEvents.action, 'unit.member.add'));
    expect(rows).toEqual([{ action: 'unit.member.add', email: 'cli' }]);
  });

  it('tops up a pool and sets an allowance, refusing a pool below zero', async () => {
    const topped = await cli('units:credits', ['Maharashtra/Cyber cell'], {
      amount: '50',
      reason: 'FY budget',
    });
    expect(topped, topped.err).toMatchObject({ code: 0 });
    expect(topped.out).toContain('Cyber cell: 50 credits in the pool.');
    const set = await cli('units:allowance', ['Maharashtra/Cyber cell'], {
      email: 'cli-officer@example.test',
      amount: '20',
    });
    expect(set, set.err).toMatchObject({ code: 0 });
    const shown = await cli('units:credits', ['Maharashtra/Cyber cell']);
    expect(shown.out).toContain('cli-officer@example.test: 0 of 20 drawn this month');
    const below = await cli('units:credits', ['Maharashtra/Cyber cell'], {
      amount: '-51',
      reason: 'too much',
    });
    expect(below.code).toBe(1);
    expect(below.err).toContain('The pool holds 50 credits');
    const notANumber = await cli('units:allowance', ['Maharashtra/Cyber cell'], {
      email: 'cli-officer@example.test',
      amount: 'lots',
    });
    expect(notANumber.code).toBe(2);
    const trail = await handle.db
      .select({ action: auditEvents.action, email: auditEvents.actorEmail })
      .from(auditEvents)
      .where(eq(auditEvents.action, 'unit.credits.grant'));
    expect(trail).toEqual([{ action: 'unit.credits.grant', email: 'cli' }]);
  });
});
