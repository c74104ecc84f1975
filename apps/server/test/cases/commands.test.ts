// The case commands used on their own, outside the HTTP stack: each takes the database and a clock
// (here a fixed one) and answers as the routes do through createCases.
import { randomUUID } from 'node:crypto';
import type { CaseEntity } from '@footprint/domain';
import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../src/db/client.ts';
import { auditEvents } from '../../src/db/schema.ts';
import { caseSummaryJob } from '../../src/modules/cases/bundle-summary.ts';
import type { CasesContext } from '../../src/modules/cases/context.ts';
import { createCase, updateCase } from '../../src/modules/cases/manage.ts';
import { addMember, removeMember } from '../../src/modules/cases/members.ts';
import { addNote } from '../../src/modules/cases/notes.ts';
import { caseDetail } from '../../src/modules/cases/read.ts';
import { createUser } from '../support/app.ts';
import { createTestDatabase } from '../support/db.ts';

const client = { ip: '127.0.0.1', deviceId: undefined, userAgent: 'vitest' };
const at = new Date('2026-03-01T10:00:00.000Z');

let database: DatabaseHandle;
let ctx: CasesContext;
beforeAll(async () => {
  database = await createTestDatabase();
  ctx = { db: database.db, now: () => at };
});
afterAll(() => database.close());

async function openCase() {
  const owner = await createUser(ctx.db);
  const member = await createUser(ctx.db);
  const created = await createCase(
    ctx,
    owner,
    { title: 'Op Heron', reference: `FIR ${randomUUID()}` },
    client,
  );
  await addMember(ctx, owner, created.id, member.email.toUpperCase(), client);
  return { owner, member, created };
}

describe('case commands, each on its own', () => {
  it('opens a case, adds a member and a note at the context clock, audits each, and reads it whole', async () => {
    const { owner, member, created } = await openCase();
    expect(created).toMatchObject({ role: 'owner', items_count: 0, created_at: at.toISOString() });
    const note = await addNote(ctx, member, created.id, 'Called the bank.', client);
    expect(note.created_at).toBe(at.toISOString());

    const detail = await caseDetail(ctx.db, member, created.id);
    expect(detail).toMatchObject({ id: created.id, role: 'member', updated_at: at.toISOString() });
    expect(detail.owner.id).toBe(owner.id);
    expect(detail.members.map((m) => m.id)).toEqual([member.id]);
    expect(detail.notes.map((n) => n.body)).toEqual(['Called the bank.']);

    const rows = await ctx.db
      .select({ action: auditEvents.action, details: auditEvents.details })
      .from(auditEvents)
      .where(eq(auditEvents.target, created.id))
      .orderBy(asc(auditEvents.id));
    expect(rows.map((r) => r.action)).toEqual(['case.create', 'case.member.add', 'case.note.add']);
    for (const row of rows) expect(row.details).toMatchObject({ case_id: created.id });
  });

  it('refuses a member changing the case and a note on a closed case with catalogue codes; a member may leave', async () => {
    const { owner, member, created } = await openCase();
    await expect(updateCase(ctx, member, created.id, { title: 'Mine now' }, client)).rejects.toMatchObject({
      code: 'case_owner_only',
    });
    await updateCase(ctx, owner, created.id, { status: 'closed' }, client);
    await expect(addNote(ctx, member, created.id, 'Too late.', client)).rejects.toMatchObject({
      code: 'case_closed',
    });
    expect(await removeMember(ctx, member, created.id, member.id, client)).toEqual([]);
    await expect(caseDetail(ctx.db, member, created.id)).rejects.toMatchObject({ code: 'not_found' });
  });

  it('builds the summary report job from a case, known entity types first and labelled', async () => {
    const { owner, created } = await openCase();
    const detail = await caseDetail(ctx.db, owner, created.id);
    const entity = (type: string, value: string): CaseEntity => ({
      type,
      value,
      sources: ['a', 'b'],
      items: [randomUUID()],
      corroborated: true,
      other_cases: [],
    });
    const job = caseSummaryJob(
      { ...detail, entities: [entity('handle', 'x'), entity('phone', '+919800000000')] },
      owner,
      { reportId: 'r-1', generatedAt: at.toISOString() },
    );
    expect(job).toMatchObject({
      template: 'case',
      reportId: 'r-1',
      sandbox: false,
      case: { id: created.id, reference: created.reference, legalBasis: null },
    });
    expect(job.entities.map((e) => e.type)).toEqual(['Phone', 'handle']);
    expect(job.entities[0]!.items).toEqual([
      { value: '+919800000000', sources: ['a', 'b'], searches: 1, corroborated: true },
    ]);
  });
});
