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
});
