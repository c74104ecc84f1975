/**
 * One bulk row's search, through the paid search under the lookup id written before it, and its
 * outcome read from the lookups row that search wrote.
 */
import type { Database } from '../../db/client.ts';
import type { UserRow } from '../../db/schema.ts';
import { DomainError } from '../../errors.ts';
import type { ClientContext } from '../../http/context.ts';
import { foundNothing, type LookupService } from '../lookup/service.ts';
import type { CaseReference } from '../searches/service.ts';
import { type LookupState, lookupState, type OutcomeWriter, outcomeOf, refusalOf } from './outcomes.ts';
import type { Claimed, RunState, TakenRow } from './types.ts';

/** What every row of one claimed job's run shares. */
export interface RowRun {
  db: Database;
  lookups: LookupService;
  job: Claimed;
  user: UserRow;
  client: ClientContext;
  caseReference: CaseReference;
  /** What one row's lookup costs. */
  price: number;
  state: RunState;
  outcomes: OutcomeWriter;
}

/** Runs one row and hands its outcome to the run's writer; a 402 marks the run out of credits. */
export async function runRow(run: RowRun, row: TakenRow & { resumed?: true }): Promise<void> {
  const { db, job, state, outcomes } = run;
  const settle = (row: { id: string }, after: LookupState, error: string | null = null) =>
    outcomes.write(outcomeOf(job.type, row, after, error));

  // Only a row a stopped worker had taken can have a lookup already; a fresh id has none.
  if (row.resumed) {
    const before = await lookupState(db, row.lookup_id);
    if (before && before.status !== 'pending') return settle(row, before);
  }
  let outcome: Awaited<ReturnType<LookupService['lookup']>>;
  try {
    outcome = await run.lookups.lookup(run.user, job.type, row.query, run.client, null, {
      typed: row.input,
      lookupId: row.lookup_id,
      // A fresh row's id was made by its take: no earlier run can have charged under it.
      lookupIdIsNew: row.resumed !== true,
      background: true,
      checkedCase: run.caseReference,
    });
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    if (error.code === 'insufficient_credits') {
      state.outOfCredits = true;
      return outcomes.write(refusalOf(row, 'insufficient_credits', error.message));
    }
    // Refused or refunded (no source answered, no source of the kind): the lookups row, if the
    // search wrote one, says what it cost (nothing).
    const after = await lookupState(db, row.lookup_id);
    if (after && after.status !== 'pending') return settle(row, after, error.message);
    return outcomes.write(refusalOf(row, 'failed', error.message));
  }
  if (row.resumed) {
    // A resumed charge may have been refunded by the recovery sweep meanwhile: the row says so.
    const after = await lookupState(db, row.lookup_id);
    if (!after || after.status === 'pending')
      throw new Error(`bulk row ${row.id}: its lookup was not settled`);
    return settle(row, after);
  }
  // A fresh row's answer is the one its search just settled: charged at the price, or a free repeat;
  // an answer that found nothing (every source's judged status not_found, or no payload: a username
  // found on no site too) is the search's no_record, refunded (lookup/service.ts `foundNothing`).
  await settle(row, {
    status: foundNothing(outcome.payloads, outcome.status) ? 'no_record' : 'complete',
    cost: outcome.cached ? 0 : run.price,
    cache_of: outcome.reusedFrom?.lookupId ?? null,
    sources_answered: Object.keys(outcome.payloads),
    result: { payloads: outcome.payloads, errors: outcome.errors },
  });
}
