import type { SearchKind } from '@footprint/domain';
import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { rowsOf } from '../credits/service.ts';

/** What every written search row carries: its answer and its audit row. */
interface Written {
  /** The lookups row: the charged one to settle, or the id to give the repeat. */
  id: string;
  answered: string[];
  errors: Record<string, string>;
  sandbox: boolean;
  at: Date;
  /** The searcher's e-mail; who, from where and with which case reference come from the lookups row. */
  actorEmail: string;
  /** Audit action and target (`lookup.<kind>` and the query for most kinds). */
  action: string;
  target: string;
  /** The audit row's details, each kind its own; `lookup_id` is added. */
  details: Record<string, unknown>;
}

/** A charged search that answered: its pending lookups row becomes complete and keeps `result`. */
export interface SettledSearch extends Written {
  mode: 'settle';
  result: unknown;
}

/**
 * An identical recent search served again at no cost: a new lookups row (cost 0, `cache_of` the
 * original, no stored result of its own).
 */
export interface RepeatedSearch extends Written {
  mode: 'repeat';
  userId: string;
  kind: SearchKind;
  query: string;
  cacheOf: string;
  ip: string | null;
  deviceId: string | null;
  caseReference: string | null;
}

export type WrittenSearch = SettledSearch | RepeatedSearch;

/**
 * Whether the row was written (a settle finds nothing when the recovery sweep refunded it first), and
 * for a repeat the balance (a settled search's caller has it from its charge, so it is not read again).
 */
export type WriteResult = { written: false } | { written: true; credits: number | null };

const MAX_ROWS_PER_STATEMENT = 500;

/**
 * Group commit for answered searches. Each caller waits until its row is written, exactly as with a
 * single statement, but rows that finish while a write is in flight go out together in the next
 * statement: under load one statement and one commit serve many searches. The same statement writes
 * each search's success row of the audit trail (who, from where, what, at what cost, with which case
 * reference), so the trail costs no round trip and a completed search never lacks its row. This is
 * the only SQL that completes a search; refusals and refunds go through the ledger and recordAudit.
 */
export function createSettleWriter(db: Database) {
  const queue: Array<{ row: WrittenSearch; done: (result: WriteResult, error?: unknown) => void }> = [];
  let writing = false;

  async function drain() {
    writing = true;
    while (queue.length > 0) {
      const batch = queue.splice(0, MAX_ROWS_PER_STATEMENT);
      try {
        const credits = await write(batch.map((entry) => entry.row));
        for (const entry of batch) {
          const balance = credits.get(entry.row.id);
          entry.done(balance === undefined ? { written: false } : { written: true, credits: balance });
        }
      } catch (error) {
        for (const entry of batch) entry.done({ written: false }, error);
      }
    }
    writing = false;
  }

  async function write(rows: WrittenSearch[]): Promise<Map<string, number | null>> {
    const settles = rows.filter((row): row is SettledSearch => row.mode === 'settle');
    if (settles.length === rows.length) return writeSettles(settles);
    const values = sql.join(
      rows.map((row) => {
        const repeat = row.mode === 'repeat' ? row : undefined;
        return sql`(${row.mode}::text, ${row.id}::uuid, ${repeat?.userId ?? null}::uuid, ${repeat?.kind ?? null}::text,
          ${repeat?.query ?? null}::text, ${repeat?.cacheOf ?? null}::uuid, ${repeat?.ip ?? null}::text,
          ${repeat?.deviceId ?? null}::text, ${repeat?.caseReference ?? null}::text,
          ${JSON.stringify(row.answered)}::jsonb, ${JSON.stringify(row.errors)}::jsonb,
          ${row.mode === 'settle' ? JSON.stringify(row.result ?? null) : null}::jsonb, ${row.sandbox}::boolean,
          ${row.at.toISOString()}::timestamptz, ${row.actorEmail}::text, ${row.action}::text, ${row.target}::text,
          ${JSON.stringify(row.details)}::jsonb)`;
      }),
      sql`, `,
    );
    const result = await db.execute(sql`
      with v(mode, id, user_id, kind, query, cache_of, ip, device_id, case_reference, answered, errors, result,
        sandbox, done, actor_email, action, target, details) as (values ${values}),
      settled as (
        update lookups as l
        set status = 'complete', sources_answered = v.answered, source_errors = v.errors, result = v.result,
            sandbox = v.sandbox, completed_at = v.done
        from v
        where v.mode = 'settle' and l.id = v.id and l.status = 'pending'
        returning l.id, l.user_id, l.cost, l.ip, l.device_id, l.case_reference, false as repeat
      ),
      repeated as (
        insert into lookups (id, user_id, kind, query, cost, status, sources_answered, source_errors, sandbox,
          cache_of, ip, device_id, case_reference, created_at, completed_at)
        select v.id, v.user_id, v.kind, v.query, 0, 'complete', v.answered, v.errors, v.sandbox, v.cache_of,
          v.ip, v.device_id, v.case_reference, v.done, v.done
        from v
        where v.mode = 'repeat'
        returning id, user_id, cost, ip, device_id, case_reference, true as repeat
      ),
      written as (select * from settled union all select * from repeated),
      audited as (
        insert into audit_events (user_id, actor_email, ip, device_id, action, target, cost, outcome,
          case_reference, details)
        select w.user_id, v.actor_email, w.ip, w.device_id, v.action, v.target, w.cost, 'success',
          w.case_reference, jsonb_build_object('lookup_id', w.id::text) || v.details
        from written w join v on v.id = w.id
      )
      select w.id, case when w.repeat then (select credits from users u where u.id = w.user_id) end as credits
      from written w
    `);
    const credits = new Map<string, number | null>();
    // A settled search already knows its balance (the charge answered it); a repeat reads it here.
    for (const row of rowsOf<{ id: string; credits: number | null }>(result))
      credits.set(row.id, row.credits === null ? null : Number(row.credits));
    return credits;
  }

  /**
   * The hot path: a batch of answered searches and no repeats (a fresh search is one of these) goes
   * out in the lean form of the statement above, with only the columns a settle needs.
   */
  async function writeSettles(rows: SettledSearch[]): Promise<Map<string, number | null>> {
    const values = sql.join(
      rows.map(
        (row) =>
          sql`(${row.id}::uuid, ${JSON.stringify(row.answered)}::jsonb, ${JSON.stringify(row.errors)}::jsonb,
          ${JSON.stringify(row.result ?? null)}::jsonb, ${row.sandbox}::boolean, ${row.at.toISOString()}::timestamptz,
          ${row.actorEmail}::text, ${row.action}::text, ${row.target}::text, ${JSON.stringify(row.details)}::jsonb)`,
      ),
      sql`, `,
    );
    const result = await db.execute(sql`
      with settled as (
        update lookups as l
        set status = 'complete', sources_answered = v.answered, source_errors = v.errors, result = v.result,
            sandbox = v.sandbox, completed_at = v.done
        from (values ${values}) as v(id, answered, errors, result, sandbox, done, actor_email, action, target, details)
        where l.id = v.id and l.status = 'pending'
        returning l.id, l.user_id, l.cost, l.ip, l.device_id, l.case_reference, v.actor_email, v.action, v.target,
          v.details
      ), audited as (
        insert into audit_events (user_id, actor_email, ip, device_id, action, target, cost, outcome,
          case_reference, details)
        select user_id, actor_email, ip, device_id, action, target, cost, 'success', case_reference,
          jsonb_build_object('lookup_id', id::text) || details
        from settled
      )
      select id from settled
    `);
    return new Map(rowsOf<{ id: string }>(result).map((row) => [row.id, null]));
  }

  return (row: WrittenSearch): Promise<WriteResult> =>
    new Promise((resolve, reject) => {
      queue.push({ row, done: (result, error) => (error ? reject(error) : resolve(result)) });
      if (!writing) void drain();
    });
}
