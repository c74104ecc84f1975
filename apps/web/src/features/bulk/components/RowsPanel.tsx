import { type BulkJob, type BulkRow, messages, SOURCE_LABELS } from '@footprint/domain';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { toast } from 'react-toastify';
import { QueryView } from '../../../components/LoadError.tsx';
import { Pagination } from '../../../components/Pagination.tsx';
import { Spinner } from '../../../components/Spinner.tsx';
import { TableScroller } from '../../../components/TableScroller.tsx';
import { paths } from '../../../config/paths.ts';
import { hasStatus, isSessionEnd, serverMessage } from '../../../lib/field-errors.ts';
import { resultsStateOf, useOpenHistoryEntry } from '../../history/index.ts';
import { BULK_ROWS_PAGE_SIZE, useBulkRows } from '../api/bulkRows.ts';
import { foundOn } from '../list.ts';
import { AccountLinks } from './AccountLinks.tsx';

/** The sources that answered a row, by the names the results page uses ('sKData' → 'Gov identity records'). */
const sourceNames = (row: BulkRow): string[] => row.sources_answered.map((key) => SOURCE_LABELS[key] ?? key);

const t = messages.bulkPage;

const rowTone: Record<string, string> = {
  success: 'status-on',
  cached: 'chip-slate',
  no_record: 'status-off',
  failed: 'status-conflict',
  insufficient_credits: 'chip-amber',
  skipped: 'status-off',
  pending: 'chip-sky',
};

const none = <span className="text-muted">—</span>;

/** A phone or e-mail row's summary: the merged profile's name and the sources that answered. */
function ProfileCells({ row }: { row: BulkRow }) {
  return (
    <>
      <td>{row.name ? <span className="cell-clip">{row.name}</span> : none}</td>
      <td>
        {row.sources_answered.length > 0 ? (
          <span className="cell-clip" title={sourceNames(row).join(', ')}>
            {sourceNames(row).join(', ')}
          </span>
        ) : (
          none
        )}
      </td>
    </>
  );
}

/** A username row's summary: on how many sites the name was found, and those accounts as links. */
function AccountCells({ row }: { row: BulkRow }) {
  const found = foundOn(row);
  return (
    <>
      <td className="whitespace-nowrap tabular-nums">{found === null ? none : t.foundCount(found)}</td>
      <td>
        <AccountLinks accounts={row.accounts} />
      </td>
    </>
  );
}

/**
 * A finished job's rows, 100 a page (GET /api/bulk/{id}/rows). A row that ran has a stored lookup:
 * 'Open' reopens it on /results the way the history page does (free, audited as a history view). A
 * username job's rows show the accounts found in place of the name and sources.
 */
export function RowsPanel({ job }: { job: BulkJob }) {
  const [page, setPage] = useState(1);
  const rows = useBulkRows(job.id, page);
  const open = useOpenHistoryEntry();
  const navigate = useNavigate();
  const [opening, setOpening] = useState<string | null>(null);

  const reopen = async (row: BulkRow) => {
    if (!row.lookup_id || opening) return;
    setOpening(row.lookup_id);
    try {
      const state = resultsStateOf(await open.mutateAsync(row.lookup_id));
      if (state) await navigate(paths.results, { state });
      else toast.error(messages.history.openFailed);
    } catch (error) {
      if (isSessionEnd(error)) return;
      if (hasStatus(error, 410)) toast.warning(serverMessage(error, messages.history.purged));
      else toast.error(serverMessage(error, messages.history.openFailed));
    } finally {
      setOpening(null);
    }
  };

  const usernames = job.type === 'username';
  const total = rows.data?.total ?? 0;
  const totalPages = Math.max(1, Math.ceil(total / BULK_ROWS_PAGE_SIZE));

  return (
    <section aria-label={t.rowsTitle(job.name)} className="mt-4 space-y-3">
      <p className="text-xs text-muted tabular-nums" aria-live="polite">
        {rows.data ? t.rowsCount(total) : ''}
      </p>
      <QueryView
        query={rows}
        failed={t.rowsLoadFailed}
        retryLabel={t.retry}
        empty={t.rowsEmpty}
        isEmpty={(answer) => answer.data.length === 0}
      >
        {(answer) => (
          <TableScroller label={t.rowsTitle(job.name)} busy={rows.isPlaceholderData} stickyEnds>
            <table className="data-table">
              <thead>
                <tr>
                  <th scope="col" className="text-right">
                    {t.rowLine}
                  </th>
                  <th scope="col">{t.rowInput}</th>
                  <th scope="col">{t.rowStatus}</th>
                  <th scope="col">{usernames ? t.rowFound : t.rowName}</th>
                  <th scope="col">{usernames ? t.rowAccounts : t.rowSources}</th>
                  <th scope="col">
                    <span className="sr-only">{t.rowResult}</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {answer.data.map((row) => (
                  <tr key={`${row.line}-${row.query}`}>
                    <td className="text-right tabular-nums text-muted">{row.line}</td>
                    <td>
                      <span className="cell-clip font-mono" title={row.input}>
                        {row.input}
                      </span>
                    </td>
                    <td>
                      <span
                        className={`status-badge whitespace-nowrap ${rowTone[row.status] ?? 'status-off'}`}
                      >
                        {t.rowStatuses[row.status] ?? row.status}
                      </span>
                    </td>
                    {usernames ? <AccountCells row={row} /> : <ProfileCells row={row} />}
                    <td className="text-right">
                      {row.lookup_id && (
                        <button
                          type="button"
                          className="btn-chip"
                          aria-label={t.rowOpenLabel(row.input)}
                          disabled={opening !== null}
                          onClick={() => void reopen(row)}
                        >
                          {opening === row.lookup_id && <Spinner size="sm" decorative className="mr-1.5" />}
                          {opening === row.lookup_id ? messages.history.opening : t.rowOpen}
                        </button>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroller>
        )}
      </QueryView>
      <Pagination
        page={page}
        totalPages={totalPages}
        onPageChange={setPage}
        label={t.rowsTitle(job.name)}
        disabled={rows.isFetching}
      />
    </section>
  );
}
