import { messages } from '@footprint/domain';
import { QueryView } from '../../../components/LoadError.tsx';
import { Pagination } from '../../../components/Pagination.tsx';
import { StatementTable } from '../../../components/StatementTable.tsx';
import { STATEMENT_PAGE_SIZE, useCreditStatement } from '../api/creditStatement.ts';

const t = messages.history;

/**
 * The 'Credit statement' tab of /history: the balance and every ledger entry, newest first (a row a
 * unit's pool paid says so, its balance the pool's).
 */
export function StatementPanel({
  page,
  onPageChange,
}: {
  page: number;
  onPageChange: (page: number) => void;
}) {
  const statement = useCreditStatement(page);
  const data = statement.data;
  const totalPages = data ? Math.max(1, Math.ceil(data.total / (data.per_page || STATEMENT_PAGE_SIZE))) : 1;

  return (
    <QueryView query={statement} failed={t.loadFailed} retryLabel={t.retry}>
      {(answer) => (
        <div className="space-y-4">
          <div className="flex flex-wrap items-center justify-between gap-3">
            <p className="inline-flex items-baseline gap-2 rounded-xl border border-accent/30 bg-accent-soft/30 px-4 py-2">
              <span className="text-xs font-semibold tracking-wide text-muted uppercase">{t.balance}</span>
              <span className="text-xl font-bold text-accent tabular-nums">
                {answer.balance.toLocaleString('en-US')}
              </span>
            </p>
            <p className="text-sm text-muted tabular-nums">{t.entryCount(answer.total)}</p>
          </div>

          {answer.data.length === 0 ? (
            <p className="card px-4 py-10 text-center text-sm text-muted">{t.statementEmpty}</p>
          ) : (
            <StatementTable entries={answer.data} label={t.statementTab} busy={statement.isPlaceholderData} />
          )}

          <Pagination
            page={page}
            totalPages={totalPages}
            onPageChange={onPageChange}
            label={t.pagesOf(t.statementTab)}
            disabled={statement.isFetching}
          />
        </div>
      )}
    </QueryView>
  );
}
