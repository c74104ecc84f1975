import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';

export interface SettledLookup {
  id: string;
  answered: string[];
  errors: Record<string, string>;
  result: unknown;
  sandbox: boolean;
  at: Date;
}

const MAX_ROWS_PER_STATEMENT = 500;

/**
 * Group commit for finished lookups. Each caller waits until its row is written, exactly as with a
 * single UPDATE, but rows that finish while a write is in flight go out together in the next
 * statement: under load one UPDATE and one commit serve many lookups.
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
          sql`(${row.id}::uuid, ${JSON.stringify(row.answered)}::jsonb, ${JSON.stringify(row.errors)}::jsonb, ${JSON.stringify(row.result)}::jsonb, ${row.sandbox}::boolean, ${row.at.toISOString()}::timestamptz)`,
      ),
      sql`, `,
    );
    return db.execute(sql`
      update lookups as l
      set status = 'complete', sources_answered = v.answered, source_errors = v.errors, result = v.result,
          sandbox = v.sandbox, completed_at = v.done
      from (values ${values}) as v(id, answered, errors, result, sandbox, done)
      where l.id = v.id
    `);
  }

  return (row: SettledLookup): Promise<void> =>
    new Promise((resolve, reject) => {
      queue.push({ row, done: (error) => (error ? reject(error) : resolve()) });
      if (!writing) void drain();
    });
}
