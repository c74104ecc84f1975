import { type HistoryDetail, type HistoryEntry, messages } from '@footprint/domain';
import { useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useNavigate } from 'react-router';
import { toast } from 'react-toastify';
import { QueryView } from '../../../components/LoadError.tsx';
import { Modal } from '../../../components/Modal.tsx';
import { Pagination } from '../../../components/Pagination.tsx';
import { Spinner } from '../../../components/Spinner.tsx';
import { TableScroller } from '../../../components/TableScroller.tsx';
import { paths } from '../../../config/paths.ts';
import { formatDateTime } from '../../../lib/datetime.ts';
import { hasStatus, isSessionEnd, serverMessage } from '../../../lib/field-errors.ts';
import { useExportHistory } from '../api/exportHistory.ts';
import { useOpenHistoryEntry } from '../api/getHistoryEntry.ts';
import { HISTORY_PAGE_SIZE, useHistory } from '../api/listHistory.ts';
import { baseKind, filterKinds, kindLabel, shownQuery, statusTone } from '../format.ts';
import { resultsStateOf } from '../reopen.ts';
import { isStoredLeakResult, StoredLeakPage } from './StoredLeakPage.tsx';
import { ValueTree } from './ValueTree.tsx';

const t = messages.history;

function StatusBadge({ entry }: { entry: HistoryEntry }) {
  return (
    <span className={`status-badge whitespace-nowrap ${statusTone(entry.status)}`}>
      {t.statuses[entry.status] ?? entry.status}
    </span>
  );
}

/** The query as typed, and under it, muted, the normalized form where it reads differently. */
function QueryCell({ entry }: { entry: HistoryEntry }) {
  const { typed, normalized } = shownQuery(entry.kind, entry.query, entry.query_typed);
  return (
    <>
      <span className="cell-clip" title={typed}>
        {typed}
      </span>
      {normalized && (
        <span className="cell-clip font-mono text-xs text-muted" title={normalized}>
          {t.normalized(normalized)}
        </span>
      )}
    </>
  );
}

/** The 'Lookups' tab of /history: the user's own lookups, a kind filter, paging, and reopening. */
export function LookupsPanel({
  page,
  kind,
  onPageChange,
  onKindChange,
}: {
  page: number;
  kind: string | undefined;
  onPageChange: (page: number) => void;
  onKindChange: (kind: string | undefined) => void;
}) {
  const id = useId();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const history = useHistory({ page, kind });
  const open = useOpenHistoryEntry();
  const exportCsv = useExportHistory();
  const [opening, setOpening] = useState<string | null>(null);
  const [shown, setShown] = useState<HistoryDetail | null>(null);

  const reopen = async (entry: HistoryEntry) => {
    if (opening) return;
    setOpening(entry.id);
    try {
      const detail = await open.mutateAsync(entry.id);
      const state = resultsStateOf(detail);
      if (state) await navigate(paths.results, { state });
      else setShown(detail);
    } catch (error) {
      if (isSessionEnd(error)) return;
      if (hasStatus(error, 410)) {
        toast.warning(serverMessage(error, t.purged));
        void queryClient.invalidateQueries({ queryKey: ['history'] });
        return;
      }
      toast.error(serverMessage(error, t.openFailed));
    } finally {
      setOpening(null);
    }
  };

  const saveCsv = async () => {
    try {
      await exportCsv.mutateAsync(kind);
    } catch (error) {
      if (!isSessionEnd(error)) toast.error(serverMessage(error, t.exportFailed));
    }
  };

  const data = history.data;
  const totalPages = data ? Math.max(1, Math.ceil(data.total / (data.per_page || HISTORY_PAGE_SIZE))) : 1;

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <p className="text-sm text-muted tabular-nums" aria-live="polite">
          {data ? t.count(data.total) : ''}
        </p>
        <div className="flex items-center gap-2">
          <label htmlFor={`${id}-kind`} className="text-sm font-medium text-muted">
            {t.kindFilter}
          </label>
          <select
            id={`${id}-kind`}
            className="input min-h-10 w-auto min-w-44 cursor-pointer"
            value={kind ?? ''}
            onChange={(event) => onKindChange(event.target.value || undefined)}
          >
            <option value="">{t.allKinds}</option>
            {filterKinds.map((option) => (
              <option key={option} value={option}>
                {kindLabel(option)}
              </option>
            ))}
          </select>
          <button
            type="button"
            className="btn-ghost min-h-10 px-3 whitespace-nowrap"
            onClick={() => void saveCsv()}
            disabled={exportCsv.isPending}
          >
            {exportCsv.isPending && <Spinner size="sm" decorative />}
            {exportCsv.isPending ? t.exporting : t.exportCsv}
          </button>
        </div>
      </div>

      <QueryView
        query={history}
        failed={t.loadFailed}
        retryLabel={t.retry}
        empty={kind ? t.emptyKind : t.empty}
        isEmpty={(answer) => answer.data.length === 0}
      >
        {() => (
          <TableScroller label={t.lookupsTab} busy={history.isPlaceholderData} stickyEnds>
            <table className="data-table">
              <thead>
                <tr>
                  <th scope="col">{t.time}</th>
                  <th scope="col">{t.kind}</th>
                  <th scope="col">{t.query}</th>
                  <th scope="col">{messages.caseReference.label}</th>
                  <th scope="col" className="text-right">
                    {t.cost}
                  </th>
                  <th scope="col">{t.status}</th>
                  <th scope="col">
                    <span className="sr-only">{t.result}</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {data?.data.map((entry) => {
                  const query = shownQuery(entry.kind, entry.query, entry.query_typed).typed;
                  return (
                    <tr key={entry.id}>
                      <td className="whitespace-nowrap text-muted">
                        <time dateTime={entry.created_at} title={entry.created_at}>
                          {formatDateTime(entry.created_at)}
                        </time>
                      </td>
                      <td className="whitespace-nowrap">{kindLabel(entry.kind)}</td>
                      <td>
                        <QueryCell entry={entry} />
                      </td>
                      <td>
                        {entry.case_reference ? (
                          <span className="cell-clip" title={entry.case_reference}>
                            {entry.case_reference}
                          </span>
                        ) : (
                          <span className="text-muted">—</span>
                        )}
                      </td>
                      <td className="text-right whitespace-nowrap tabular-nums">
                        {entry.cost}
                        {entry.cached && <span className="ml-2 source-chip chip-slate">{t.cached}</span>}
                        {entry.refunded && entry.status !== 'refunded' && (
                          <span className="ml-2 source-chip chip-amber">{t.refunded}</span>
                        )}
                      </td>
                      <td>
                        <StatusBadge entry={entry} />
                      </td>
                      <td className="text-right">
                        {entry.result_available ? (
                          <button
                            type="button"
                            className="btn-chip"
                            aria-label={t.openLabel(query)}
                            disabled={opening !== null}
                            onClick={() => void reopen(entry)}
                          >
                            {opening === entry.id && <Spinner size="sm" decorative className="mr-1.5" />}
                            {opening === entry.id ? t.opening : t.open}
                          </button>
                        ) : (
                          <span className="text-xs whitespace-nowrap text-muted">{t.notKept}</span>
                        )}
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </TableScroller>
        )}
      </QueryView>

      <Pagination
        page={page}
        totalPages={totalPages}
        onPageChange={onPageChange}
        label={t.pagesOf(t.lookupsTab)}
        disabled={history.isFetching}
      />

      {shown && (
        <Modal
          title={t.storedResult(
            kindLabel(shown.kind),
            shownQuery(shown.kind, shown.query, shown.query_typed).typed,
          )}
          description={t.storedAt(formatDateTime(shown.created_at))}
          onClose={() => setShown(null)}
          size={baseKind(shown.kind) === 'leak' ? 'xl' : 'lg'}
        >
          {shown.case_reference && (
            <p className="mb-4 text-sm">
              <span className="text-muted">{messages.caseReference.label}: </span>
              <span className="font-medium text-text">{shown.case_reference}</span>
            </p>
          )}
          {baseKind(shown.kind) === 'leak' && isStoredLeakResult(shown.result) ? (
            <StoredLeakPage query={shown.query} result={shown.result} />
          ) : (
            <ValueTree value={shown.result} emptyText={t.nothingStored} />
          )}
        </Modal>
      )}
    </div>
  );
}
