import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../src/db/client.ts';
import { auditEvents } from '../../src/db/schema.ts';
import { recordAudit } from '../../src/modules/audit/service.ts';
import { createTestDatabase } from '../support/db.ts';

let handle: DatabaseHandle;
beforeAll(async () => {
  handle = await createTestDatabase();
});
afterAll(() => handle.close());

describe('audit trail', () => {
  it('keeps what is written and refuses UPDATE, DELETE and TRUNCATE at the database', async () => {
    await recordAudit(handle.db, {
      action: 'report.generate',
      outcome: 'success',
      target: 'lookup-1',
      details: { file: 'x.pdf' },
    });
    const [row] = await handle.db.select().from(auditEvents);
    expect(row).toMatchObject({ action: 'report.generate', outcome: 'success', target: 'lookup-1' });

    const statements = [
      sql`update audit_events set outcome = 'failure'`,
      sql`delete from audit_events`,
      sql`truncate audit_events`,
    ];
    for (const statement of statements) {
      const error = await handle.db.execute(statement).then(
        () => undefined,
        (e: Error & { cause?: Error }) => e,
      );
      // Drizzle wraps the database's error; the refusal itself is PostgreSQL's.
      expect(error?.cause?.message ?? error?.message).toMatch(/audit_events is append-only/);
    }
    expect(await handle.db.select().from(auditEvents)).toHaveLength(1);
  });

  it('draws every id from the sequence, whatever id an INSERT names (no row back-dated into a gap)', async () => {
    const before = await handle.db.execute(sql`select max(id)::bigint as top from audit_events`);
    const top = Number((before as unknown as { rows: Array<{ top: string }> }).rows[0]!.top);
    const named = await handle.db.execute(
      sql`insert into audit_events (id, action, outcome) values (1, 'test.named_id', 'success'), (-5, 'test.named_id', 'success') returning id`,
    );
    const ids = (named as unknown as { rows: Array<{ id: string }> }).rows.map((r) => Number(r.id));
    expect(ids).toEqual([top + 1, top + 2]);
    // The application's own writes (Drizzle names every column, the id as DEFAULT) get theirs too.
    await recordAudit(handle.db, { action: 'test.default_id', outcome: 'success' });
    const rows = await handle.db.select({ id: auditEvents.id, action: auditEvents.action }).from(auditEvents);
    expect(rows.map((r) => r.id).sort((a, b) => a - b)).toEqual([top, top + 1, top + 2, top + 3]);
  });
});
