import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';

export interface SettledLookup {
  id: string;
  answered: string[];
  errors: Record<string, string>;
  result: unknown;
  sandbox: boolean;
  at: Date;
  /** The searcher's e-mail for the audit row; the rest of that row comes from the lookups row. */
  actorEmail: string;
}

const MAX_ROWS_PER_STATEMENT = 500;

/**
 * Group commit for finished lookups. Each caller waits until its row is written, exactly as with a
 * single UPDATE, but rows that finish while a write is in flight go out together in the next
 * statement: under load one UPDATE and one commit serve many lookups. The same statement writes each
 * lookup's audit row (who, from where, what, at what cost, with which case reference), so the audit
 * trail costs no round trip and a settled lookup never lacks its row.
 */
export function createSettleWriter(db: Database) {
  const queue: Array<{ row: SettledLookup; done: (error?: unknown) => void }> = [];
  let writing = false;

  async function drain() {
    writing = true;
    while (queue.length > 0) {
      const batch = queue.splice(0, MAX_ROWS_PER_STATEMENT);
      try {
        await write(batch.map((entry) => entry.row));
        for (const entry of batch) entry.done();
      } catch (error) {
        for (const entry of batch) entry.done(error);
      }
    }
    writing = false;
  }

  function write(rows: SettledLookup[]) {
    const values = sql.join(
      rows.map(
        (row) =>
          sql`(${row.id}::uuid, ${JSON.stringify(row.answered)}::jsonb, ${JSON.stringify(row.errors)}::jsonb, ${JSON.stringify(row.result)}::jsonb, ${row.sandbox}::boolean, ${row.at.toISOString()}::timestamptz, ${row.actorEmail}::text)`,
      ),
      sql`, `,
    );
    return db.execute(sql`
      with settled as (
        update lookups as l
        set status = 'complete', sources_answered = v.answered, source_errors = v.errors, result = v.result,
            sandbox = v.sandbox, completed_at = v.done
        from (values ${values}) as v(id, answered, errors, result, sandbox, done, actor_email)
        where l.id = v.id and l.status = 'pending'
        returning l.id, l.user_id, l.kind, l.query, l.cost, l.ip, l.device_id, l.case_reference, l.sandbox,
          v.answered, v.actor_email
      )
      insert into audit_events (user_id, actor_email, ip, device_id, action, target, cost, outcome, case_reference, details)
      select user_id, actor_email, ip, device_id, 'lookup.' || kind, query, cost, 'success', case_reference,
        jsonb_build_object('lookup_id', id, 'cached', false, 'sandbox', sandbox, 'sources_answered', answered)
      from settled
    `);
  }

  return (row: SettledLookup): Promise<void> =>
    new Promise((resolve, reject) => {
      queue.push({ row, done: (error) => (error ? reject(error) : resolve()) });
      if (!writing) void drain();
    });
}
