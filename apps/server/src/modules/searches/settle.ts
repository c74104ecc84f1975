import type { SearchKind } from '@footprint/domain';
import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { executeNamed } from '../../db/named-statement.ts';
import { rowsOf } from '../../db/rows.ts';
import { MIN_BATCH_BESIDE } from './charge-batcher.ts';

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
  /** The sources found nothing: the row's status and its audit outcome are 'no_record'. */
  noRecord: boolean;
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
  queryTyped: string;
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
 * How many settle batches may be in flight at once; each takes up to two pooled connections (settles
 * and repeats go out side by side). The pool has 20 (db/client.ts).
 */
export const SETTLE_BATCHES_IN_FLIGHT = 3;

/** The lookups status of a written search: an answer that found nothing is 'no_record'. */
const statusOf = (row: Written): 'complete' | 'no_record' => (row.noRecord ? 'no_record' : 'complete');

/** Its audit outcome, from the status the row was written with: 'success' or 'no_record'. */
const outcomeSql = (from: 'v' | 'settled') =>
  sql.raw(`case when ${from}.status = 'no_record' then 'no_record' else 'success' end`);

/**
 * Pipelined group commit for answered searches. Each caller waits until its row is written, exactly
 * as with a single statement, but rows that finish while writes are in flight go out together in the
 * next statement: under load one statement and one commit serve many searches, and up to `inFlight`
 * statements run at once, so a batch does not wait for the previous one's commit. The same statement writes
 * each search's success row of the audit trail (who, from where, what, at what cost, with which case
 * reference), so the trail costs no round trip and a completed search never lacks its row. This is
 * the only SQL that completes a search; refusals and refunds go through the ledger and recordAudit.
 */
export function createSettleWriter(db: Database, inFlight = SETTLE_BATCHES_IN_FLIGHT) {
  const queue: Array<{ row: WrittenSearch; done: (result: WriteResult, error?: unknown) => void }> = [];
  let running = 0;
  let scheduled = false;

  /**
   * Starts batches while a slot is free. Batches in flight never share a row: each settle completes
   * its own pending lookups row, each repeat inserts a new one, so they commit in any order.
   */
  function pump() {
    while (running < inFlight && queue.length > 0) {
      // As for charges (charge-batcher.ts): a small batch waits for the one in flight to commit.
      if (running > 0 && queue.length < MIN_BATCH_BESIDE) return;
      const batch = queue.splice(0, MAX_ROWS_PER_STATEMENT);
      running++;
      void write(batch.map((entry) => entry.row))
        .then(
          (credits) => {
            for (const entry of batch) {
              const balance = credits.get(entry.row.id);
              entry.done(balance === undefined ? { written: false } : { written: true, credits: balance });
            }
          },
          (error) => {
            for (const entry of batch) entry.done({ written: false }, error);
          },
        )
        .finally(() => {
          running--;
          pump();
        });
    }
  }

  /** A batch's settles and repeats, each kind of row in its own statement. */
  async function write(rows: WrittenSearch[]): Promise<Map<string, number | null>> {
    const settles = rows.filter((row): row is SettledSearch => row.mode === 'settle');
    const repeats = rows.filter((row): row is RepeatedSearch => row.mode === 'repeat');
    const [settled, repeated] = await Promise.all([
      settles.length > 0 ? writeSettles(settles) : new Map<string, number | null>(),
      repeats.length > 0 ? writeRepeats(repeats) : new Map<string, number | null>(),
    ]);
    return new Map([...settled, ...repeated]);
  }

  /**
   * Free repeats: each a new complete lookups row at no cost, with its audit row, and the searcher's
   * balance for the answer (a settled search's caller has it from its charge).
   */
  async function writeRepeats(rows: RepeatedSearch[]): Promise<Map<string, number | null>> {
    // One array a column, as for settles: one text whatever the batch's size, prepared once per
    // connection rather than planned for every free repeat (most leak searches are free repeats).
    const column = <T>(value: (row: RepeatedSearch) => T) => sql.param(rows.map(value));
    const result = await executeNamed(
      db,
      'footprint_repeat_searches',
      sql`
      with v(id, user_id, kind, query, query_typed, status, cache_of, ip, device_id, case_reference, answered,
        errors, sandbox, done, actor_email, action, target, details) as (
        select id, user_id, kind, query, query_typed, status, cache_of, ip, device_id, case_reference,
          answered::jsonb, errors::jsonb, sandbox, done, actor_email, action, target, details::jsonb
        from unnest(${column((row) => row.id)}::uuid[], ${column((row) => row.userId)}::uuid[],
          ${column((row) => row.kind)}::text[], ${column((row) => row.query)}::text[],
          ${column((row) => row.queryTyped)}::text[], ${column(statusOf)}::text[], ${column((row) => row.cacheOf)}::uuid[],
          ${column((row) => row.ip)}::text[], ${column((row) => row.deviceId)}::text[],
          ${column((row) => row.caseReference)}::text[], ${column((row) => JSON.stringify(row.answered))}::text[],
          ${column((row) => JSON.stringify(row.errors))}::text[], ${column((row) => row.sandbox)}::boolean[],
          ${column((row) => row.at.toISOString())}::timestamptz[], ${column((row) => row.actorEmail)}::text[],
          ${column((row) => row.action)}::text[], ${column((row) => row.target)}::text[],
          ${column((row) => JSON.stringify(row.details))}::text[])
          as u(id, user_id, kind, query, query_typed, status, cache_of, ip, device_id, case_reference, answered,
            errors, sandbox, done, actor_email, action, target, details)
      ),
      repeated as (
        insert into lookups (id, user_id, kind, query, query_typed, cost, status, sources_answered, source_errors,
          sandbox, cache_of, ip, device_id, case_reference, created_at, completed_at)
        select id, user_id, kind, query, query_typed, 0, status, answered, errors, sandbox, cache_of, ip, device_id,
          case_reference, done, done
        from v
        returning id, user_id
      ),
      audited as (
        insert into audit_events (user_id, actor_email, ip, device_id, action, target, cost, outcome,
          case_reference, details)
        select v.user_id, v.actor_email, v.ip, v.device_id, v.action, v.target, 0, ${outcomeSql('v')}, v.case_reference,
          jsonb_build_object('lookup_id', v.id::text) || v.details
        from repeated r join v on v.id = r.id
      )
      select r.id, (select credits from users u where u.id = r.user_id) as credits from repeated r
    `,
    );
    return new Map(
      rowsOf<{ id: string; credits: number }>(result).map((row) => [row.id, Number(row.credits)]),
    );
  }

  /** Answered charged searches: each pending lookups row completes and keeps its result, with its audit row. */
  async function writeSettles(rows: SettledSearch[]): Promise<Map<string, number | null>> {
    // One array a column: the same text whatever the batch's size, prepared once per connection.
    const column = <T>(value: (row: SettledSearch) => T) => sql.param(rows.map(value));
    const result = await executeNamed(
      db,
      'footprint_settle_searches',
      sql`
      with v(id, status, answered, errors, result, sandbox, done, actor_email, action, target, details) as (
        select id, status, answered::jsonb, errors::jsonb, result::jsonb, sandbox, done, actor_email, action, target,
          details::jsonb
        from unnest(${column((row) => row.id)}::uuid[], ${column(statusOf)}::text[],
          ${column((row) => JSON.stringify(row.answered))}::text[], ${column((row) => JSON.stringify(row.errors))}::text[],
          ${column((row) => JSON.stringify(row.result ?? null))}::text[], ${column((row) => row.sandbox)}::boolean[],
          ${column((row) => row.at.toISOString())}::timestamptz[], ${column((row) => row.actorEmail)}::text[],
          ${column((row) => row.action)}::text[], ${column((row) => row.target)}::text[],
          ${column((row) => JSON.stringify(row.details))}::text[])
          as u(id, status, answered, errors, result, sandbox, done, actor_email, action, target, details)
      ),
      settled as (
        update lookups as l
        set status = v.status, sources_answered = v.answered, source_errors = v.errors, result = v.result,
            sandbox = v.sandbox, completed_at = v.done
        from v
        where l.id = v.id and l.status = 'pending'
        returning l.id, l.user_id, l.cost, l.ip, l.device_id, l.case_reference, v.status, v.actor_email, v.action,
          v.target, v.details
      ), audited as (
        insert into audit_events (user_id, actor_email, ip, device_id, action, target, cost, outcome,
          case_reference, details)
        select user_id, actor_email, ip, device_id, action, target, cost, ${outcomeSql('settled')}, case_reference,
          jsonb_build_object('lookup_id', id::text) || details
        from settled
      )
      select id from settled
    `,
    );
    return new Map(rowsOf<{ id: string }>(result).map((row) => [row.id, null]));
  }

  return (row: WrittenSearch): Promise<WriteResult> =>
    new Promise((resolve, reject) => {
      queue.push({ row, done: (result, error) => (error ? reject(error) : resolve(result)) });
      // Start on the next turn of the event loop, so that searches answered together share a statement.
      if (!scheduled) {
        scheduled = true;
        setImmediate(() => {
          scheduled = false;
          pump();
        });
      }
    });
}
