import { messages } from '@footprint/domain';
import { QueryView } from '../../../components/LoadError.tsx';
import { Pagination } from '../../../components/Pagination.tsx';
import { TableScroller } from '../../../components/TableScroller.tsx';
import { formatDateTime } from '../../../lib/datetime.ts';
import { STATEMENT_PAGE_SIZE, useCreditStatement } from '../api/creditStatement.ts';

const t = messages.history;

const signed = (n: number) => (n > 0 ? `+${n.toLocaleString('en-US')}` : n.toLocaleString('en-US'));

/** The 'Credit statement' tab of /history: the balance and every ledger entry, newest first. */
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
            <TableScroller label={t.statementTab} busy={statement.isPlaceholderData}>
              <table className="data-table">
                <thead>
                  <tr>
                    <th scope="col">{t.time}</th>
                    <th scope="col">{t.entry}</th>
                    <th scope="col" className="text-right">
                      {t.change}
                    </th>
                    <th scope="col" className="text-right">
                      {t.balanceAfter}
                    </th>
                    <th scope="col">{t.reason}</th>
                  </tr>
                </thead>
                <tbody>
                  {answer.data.map((entry) => (
                    <tr key={entry.id}>
                      <td className="whitespace-nowrap text-muted">
                        <time dateTime={entry.at} title={entry.at}>
                          {formatDateTime(entry.at)}
                        </time>
                      </td>
                      <td className="whitespace-nowrap">{t.entryKinds[entry.kind] ?? entry.kind}</td>
                      <td
                        className={`text-right font-semibold whitespace-nowrap tabular-nums ${entry.delta > 0 ? 'text-emerald-300' : entry.delta < 0 ? 'text-rose-300' : 'text-muted'}`}
                      >
                        {signed(entry.delta)}
                      </td>
                      <td className="text-right whitespace-nowrap tabular-nums">
                        {entry.balance_after.toLocaleString('en-US')}
                      </td>
                      <td>
                        <span className="cell-clip cell-clip-wide" title={entry.reason}>
                          {entry.reason || '—'}
                        </span>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableScroller>
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
