import { sql } from 'drizzle-orm';
import type { Database } from '../../src/db/client.ts';
import { rowsOf } from '../../src/db/rows.ts';
import { type Provider, SourceFailedError, SourceNotFoundError } from '../../src/providers/types.ts';

/** A phone number no source answers (the row fails and is refunded). */
export const SILENT_PHONE = '919000000001';
/** A phone number every source says it has no record of (no_record, refunded: the charging rule). */
export const UNKNOWN_PHONE = '919000000002';

/**
 * Controls of the test sources: `gate` holds every answer until it is opened (rows stay in flight),
 * `delayMs` slows each answer.
 */
export const upstream = {
  delayMs: 0,
  gate: null as Promise<void> | null,
  calls: 0,
};

/** Closes the gate: answers wait until the returned function is called. */
export function holdAnswers(): () => void {
  let open!: () => void;
  upstream.gate = new Promise<void>((resolve) => {
    open = resolve;
  });
  return () => {
    upstream.gate = null;
    open();
  };
}

const wait = async () => {
  upstream.calls++;
  if (upstream.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, upstream.delayMs));
  if (upstream.gate) await upstream.gate;
};

/** Synthetic sources for the bulk tests: a name per number, an e-mail breach. */
export const bulkProviders: Provider[] = [
  {
    id: 'test:wpData',
    source: 'wpData',
    kinds: ['tel'],
    sandbox: true,
    fetch: async (q) => {
      await wait();
      if (q.value === SILENT_PHONE) throw new SourceFailedError('down');
      if (q.value === UNKNOWN_PHONE) throw new SourceNotFoundError();
      return { pushname: `Synthetic ${q.value.slice(-4)}`, number: q.value, isUser: true };
    },
  },
  {
    id: 'test:hibpData',
    source: 'hibpData',
    kinds: ['email'],
    sandbox: true,
    fetch: async () => {
      await wait();
      return [{ Name: 'Orbitly', BreachDate: '2021-03-04' }];
    },
  },
];

export const testEnv = {
  COST_TEL: '1',
  COST_EMAIL: '1',
  BULK_ROW_CONCURRENCY: '4',
};

/** Resolves when `check` answers true, polling; throws after `ms`. */
export async function until<T>(check: () => Promise<T | false | undefined | null>, ms = 30_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * The books of one job: what its rows say they cost, and what the ledger took for their lookups
 * (charges less refunds), and the lookups rows per bulk row.
 */
export async function booksOf(db: Database, jobId: string) {
  const [row] = rowsOf<{
    row_cost: number;
    charged_rows: number;
    ledger: number;
    lookups: number;
    rows_with_lookup: number;
    max_lookups_per_row: number;
    charges: number;
  }>(
    await db.execute(sql`
      select
        (select coalesce(sum(cost), 0)::int from bulk_rows where job_id = ${jobId}) as row_cost,
        (select count(*)::int from bulk_rows where job_id = ${jobId} and cost > 0) as charged_rows,
        (select coalesce(-sum(c.delta), 0)::int from credit_entries c
          where c.lookup_id in (select lookup_id from bulk_rows where job_id = ${jobId} and lookup_id is not null)
        ) as ledger,
        (select count(*)::int from lookups l
          where l.id in (select lookup_id from bulk_rows where job_id = ${jobId})) as lookups,
        (select count(*)::int from bulk_rows where job_id = ${jobId} and lookup_id is not null) as rows_with_lookup,
        (select coalesce(max(n), 0)::int from (
          select count(*) as n from lookups l join bulk_rows r on r.query = l.query and r.job_id = ${jobId}
          group by r.id) per_row) as max_lookups_per_row,
        (select count(*)::int from credit_entries c where c.kind = 'charge'
          and c.lookup_id in (select lookup_id from bulk_rows where job_id = ${jobId})) as charges
    `),
  );
  return row!;
}
