import { sql } from 'drizzle-orm';
import type { Executor } from '../src/db/client.ts';
import { rowsOf } from '../src/db/rows.ts';
import { findLedgerMismatches } from '../src/modules/credits/service.ts';

/**
 * Everything that must hold for the books after any load, fault or crash. Empty means they balance:
 * every balance equals the sum of its ledger, every charge has its lookup and every paid lookup its
 * charge, a refunded lookup has exactly one refund and a completed one none.
 */
export async function bookProblems(db: Executor): Promise<string[]> {
  const problems: string[] = [];
  for (const m of await findLedgerMismatches(db)) {
    problems.push(`balance ${m.balance} of ${m.email} differs from its ledger sum ${m.ledgerSum}`);
  }
  const checks: Array<[string, ReturnType<typeof sql>]> = [
    [
      'charges without their lookup',
      sql`select count(*)::int as n from credit_entries c where c.kind = 'charge'
          and (c.lookup_id is null or not exists (select 1 from lookups l where l.id = c.lookup_id))`,
    ],
    [
      'paid lookups without exactly one charge',
      sql`select count(*)::int as n from lookups l where l.cost > 0 and (select count(*) from credit_entries c
          where c.lookup_id = l.id and c.kind = 'charge') <> 1`,
    ],
    [
      'charges of another amount than their lookup',
      sql`select count(*)::int as n from credit_entries c join lookups l on l.id = c.lookup_id
          where c.kind = 'charge' and c.delta <> -l.cost`,
    ],
    [
      'refunded paid lookups without exactly one refund',
      sql`select count(*)::int as n from lookups l where l.status = 'refunded' and l.cost > 0 and
          (select count(*) from credit_entries c where c.lookup_id = l.id and c.kind = 'refund') <> 1`,
    ],
    [
      // A no-record answer is charged (lookups, leak) or refunded once (intel): never refunded twice.
      'no-record lookups refunded more than once',
      sql`select count(*)::int as n from lookups l where l.status = 'no_record' and
          (select count(*) from credit_entries c where c.lookup_id = l.id and c.kind = 'refund') > 1`,
    ],
    [
      'completed lookups with a refund',
      sql`select count(*)::int as n from lookups l where l.status = 'complete' and exists
          (select 1 from credit_entries c where c.lookup_id = l.id and c.kind = 'refund')`,
    ],
    ['negative balances', sql`select count(*)::int as n from users where credits < 0`],
  ];
  for (const [label, query] of checks) {
    const [row] = rowsOf<{ n: number }>(await db.execute(query));
    if (Number(row?.n ?? 0) > 0) problems.push(`${row?.n} ${label}`);
  }
  return problems;
}
