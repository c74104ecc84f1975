import {
  type BulkJob,
  type CaseSummary,
  type HistoryDetail,
  type HistoryEntry,
  type HistoryJobItem,
  messages,
} from '@footprint/domain';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useNavigate } from 'react-router';
import { toast } from 'react-toastify';
import { QueryView } from '../../../components/LoadError.tsx';
import { Pagination } from '../../../components/Pagination.tsx';
import { Spinner } from '../../../components/Spinner.tsx';
import { TableScroller } from '../../../components/TableScroller.tsx';
import { paths } from '../../../config/paths.ts';
import { api } from '../../../lib/api.ts';
import { useAuth } from '../../../lib/auth-context.ts';
import { formatDateTime } from '../../../lib/datetime.ts';
import { hasStatus, isSessionEnd, serverMessage } from '../../../lib/field-errors.ts';
import { useExportHistory } from '../api/exportHistory.ts';
import { useOpenHistoryEntry } from '../api/getHistoryEntry.ts';
import {
  HISTORY_PAGE_SIZE,
  type HistoryScope,
  type HistoryUser,
  JOB_ROWS_PAGE_SIZE,
  useHistory,
  useJobRows,
} from '../api/listHistory.ts';
import { filterKinds, kindLabel, shownQuery, statusTone } from '../format.ts';
import { resultsStateOf } from '../reopen.ts';
import { StoredResultModal } from './StoredResultModal.tsx';

const t = messages.history;
const u = messages.units.history;

/**
 * Who ran it, on the entries of the units' list (`scope=unit`). A bulk job's entry says so only when
 * the server names it (it may not): the By cell then shows a dash.
 */
const userOf = (entry: HistoryEntry | HistoryJobItem): HistoryUser | undefined =>
  (entry as { user?: HistoryUser }).user;

/** The By cell of the units' list: the name, with the e-mail address on hover. */
function ByCell({ user }: { user: HistoryUser | undefined }) {
  return (
    <td>
      {user ? (
        <span className="cell-clip cell-clip-name font-medium text-text" title={user.email}>
          {user.name}
        </span>
      ) : (
        <span className="text-muted">—</span>
      )}
    </td>
  );
}

function StatusBadge({ entry }: { entry: HistoryEntry }) {
  return (
    <span className={`status-badge whitespace-nowrap ${statusTone(entry.status)}`}>
      {t.statuses[entry.status] ?? entry.status}
    </span>
  );
}

/** A filter in use, said in words, with the one button that clears it. */
function FilterChip({ text, onClear }: { text: string; onClear: () => void }) {
  return (
    <span className="inline-flex items-center gap-1 rounded-full border border-accent/40 bg-accent-soft/40 py-0.5 pr-1 pl-3 text-sm text-text">
      <span className="max-w-64 truncate" title={text}>
        {text}
      </span>
      <button
        type="button"
        className="inline-flex size-7 items-center justify-center rounded-full text-muted hover:bg-accent hover:text-ink"
        aria-label={t.clearFilter(text)}
        onClick={onClear}
      >
        <span aria-hidden="true">×</span>
      </button>
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

/** One lookup of the list (or of an expanded bulk job): when, what, its case, cost, status, reopening. */
function LookupRow({
  entry,
  opening,
  onOpen,
  by = false,
  me,
}: {
  entry: HistoryEntry;
  opening: string | null;
  onOpen: (entry: HistoryEntry) => void;
  /** The units' list: a column for who ran it. */
  by?: boolean;
  me?: string | undefined;
}) {
  const query = shownQuery(entry.kind, entry.query, entry.query_typed).typed;
  const user = userOf(entry);
  // Someone else's search opens as well (read as their supervisor); its button says whose it is.
  const theirs = user !== undefined && user.id !== me;
  return (
    <tr>
      <td className="whitespace-nowrap text-muted">
        <time dateTime={entry.created_at} title={entry.created_at}>
          {formatDateTime(entry.created_at)}
        </time>
      </td>
      {by && <ByCell user={user} />}
      <td className="whitespace-nowrap">{kindLabel(entry.kind)}</td>
      <td>
        <QueryCell entry={entry} />
      </td>
      <td>
        <CaseCell reference={entry.case_reference} />
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
            aria-label={theirs ? u.openTheirsLabel(query, user.name) : t.openLabel(query)}
            disabled={opening !== null}
            onClick={() => onOpen(entry)}
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
}

function CaseCell({ reference }: { reference: string | null }) {
  return reference ? (
    <span className="cell-clip" title={reference}>
      {reference}
    </span>
  ) : (
    <span className="text-muted">—</span>
  );
}

/** The list's columns: time, kind, query, case, cost, status, result; the units' list adds By. */
const COLUMNS = 7;

/**
 * A bulk job as one entry: its file, row count, credits spent and status; expanding it lists its rows a
 * page at a time (GET /api/history?job_id), each a lookup like any other.
 */
function JobEntry({
  item,
  opening,
  onOpen,
  onOnly,
  scope,
  me,
}: {
  item: HistoryJobItem;
  opening: string | null;
  onOpen: (entry: HistoryEntry) => void;
  onOnly: (jobId: string) => void;
  scope: HistoryScope;
  me?: string | undefined;
}) {
  const by = scope === 'unit';
  const { job } = item;
  const [expanded, setExpanded] = useState(false);
  const [rowsPage, setRowsPage] = useState(1);
  const rowsId = useId();
  return (
    <>
      <tr className="history-job">
        <td className="whitespace-nowrap text-muted">
          <time dateTime={item.created_at} title={item.created_at}>
            {formatDateTime(item.created_at)}
          </time>
        </td>
        {by && <ByCell user={userOf(item)} />}
        <td className="whitespace-nowrap">
          {t.bulkJob} · {kindLabel(job.type)}
        </td>
        <td>
          <span className="cell-clip font-medium text-text" title={job.name}>
            {job.name}
          </span>
          <span className="text-xs text-muted tabular-nums">{t.jobRows(job.total)}</span>
        </td>
        <td>
          <CaseCell reference={item.case_reference} />
        </td>
        <td className="text-right whitespace-nowrap tabular-nums">{job.credits_spent}</td>
        <td>
          <span
            className={`status-badge whitespace-nowrap ${job.status === 'done' ? 'status-on' : 'chip-slate'}`}
          >
            {messages.bulkPage.statuses[job.status] ?? job.status}
          </span>
        </td>
        <td className="text-right">
          <span className="inline-flex gap-1.5">
            <button
              type="button"
              className="btn-chip"
              aria-expanded={expanded}
              aria-controls={expanded ? rowsId : undefined}
              aria-label={expanded ? t.hideRowsLabel(job.name) : t.showRowsLabel(job.name)}
              onClick={() => setExpanded((open) => !open)}
            >
              {expanded ? t.hideRows : t.showRows}
            </button>
            <button
              type="button"
              className="btn-chip"
              aria-label={t.onlyJobLabel(job.name)}
              onClick={() => onOnly(job.id)}
            >
              {t.onlyJob}
            </button>
          </span>
        </td>
      </tr>
      {expanded && (
        <tr id={rowsId} className="history-job-rows">
          <td colSpan={by ? COLUMNS + 1 : COLUMNS}>
            <JobRows
              jobId={job.id}
              name={job.name}
              page={rowsPage}
              onPageChange={setRowsPage}
              opening={opening}
              onOpen={onOpen}
              scope={scope}
              me={me}
            />
          </td>
        </tr>
      )}
    </>
  );
}

function JobRows({
  jobId,
  name,
  page,
  onPageChange,
  opening,
  onOpen,
  scope,
  me,
}: {
  jobId: string;
  name: string;
  page: number;
  onPageChange: (page: number) => void;
  opening: string | null;
  onOpen: (entry: HistoryEntry) => void;
  scope: HistoryScope;
  me?: string | undefined;
}) {
  const rows = useJobRows(jobId, page, scope);
  const data = rows.data;
  const totalPages = data ? Math.max(1, Math.ceil(data.total / (data.per_page || JOB_ROWS_PAGE_SIZE))) : 1;
  return (
    <div className="space-y-2 py-1">
      <QueryView
        query={rows}
        failed={t.loadFailed}
        retryLabel={t.retry}
        empty={t.jobRowsEmpty}
        isEmpty={(answer) => answer.data.length === 0}
      >
        {() => (
          <table className="data-table" aria-label={t.jobRowsLabel(name)}>
            <tbody>
              {data?.data.map((entry) => (
                <LookupRow key={entry.id} entry={entry} opening={opening} onOpen={onOpen} me={me} />
              ))}
            </tbody>
          </table>
        )}
      </QueryView>
      {totalPages > 1 && (
        <Pagination
          page={page}
          totalPages={totalPages}
          onPageChange={onPageChange}
          label={t.pagesOf(t.jobRowsLabel(name))}
          disabled={rows.isFetching}
        />
      )}
    </div>
  );
}

/** The user's cases (open and closed) for the case filter. */
function useCaseChoices() {
  return useQuery({
    queryKey: ['cases', 'list', 'all'],
    queryFn: ({ signal }) =>
      api.get<{ data: CaseSummary[] }>('/api/cases', { signal }).then((answer) => answer.data),
    staleTime: 30_000,
  });
}

/** The bulk job of the job filter, for its name. */
function useFilterJob(jobId: string | undefined) {
  return useQuery({
    queryKey: ['bulk', 'job', jobId],
    queryFn: ({ signal }) => api.get<BulkJob>(`/api/bulk/${encodeURIComponent(jobId ?? '')}`, { signal }),
    enabled: jobId !== undefined,
    staleTime: 30_000,
  });
}

/**
 * The 'Lookups' tab of /history: the user's own lookups, each bulk job one entry that expands to its
 * rows, filtered by kind, by case and by bulk job (the filters in use are shown and each clears in one
 * click), paging, and reopening. With `scope='unit'` the same for the searches of everyone in the units
 * the user supervises, with who ran each; their results open read-only as to reports and cases (the
 * results page says whose they are), and the CSV of the list, which is always one's own, is left out.
 */
export function LookupsPanel({
  scope = 'mine',
  page,
  kind,
  caseId,
  jobId,
  onPageChange,
  onFilterChange,
}: {
  scope?: HistoryScope;
  page: number;
  kind: string | undefined;
  caseId: string | undefined;
  jobId: string | undefined;
  onPageChange: (page: number) => void;
  onFilterChange: (next: {
    kind?: string | undefined;
    caseId?: string | undefined;
    jobId?: string | undefined;
  }) => void;
}) {
  const id = useId();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const unit = scope === 'unit';
  const { user: me } = useAuth();
  const history = useHistory({ page, kind, caseId, jobId, scope });
  const caseChoices = useCaseChoices();
  const filterJob = useFilterJob(jobId);
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
  const cases = caseChoices.data ?? [];
  const chosenCase = caseId ? cases.find((item) => item.id === caseId) : undefined;
  const caseName = chosenCase?.reference ?? caseId ?? '';
  const jobName = filterJob.data?.name ?? jobId ?? '';

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <p className="text-sm text-muted tabular-nums" aria-live="polite">
          {data ? t.count(data.total) : ''}
        </p>
        <div className="flex flex-wrap items-center gap-2">
          <span className="flex items-center gap-2">
            <label htmlFor={`${id}-kind`} className="text-sm font-medium text-muted">
              {t.kindFilter}
            </label>
            <select
              id={`${id}-kind`}
              className="input min-h-10 w-auto min-w-44 cursor-pointer"
              value={kind ?? ''}
              onChange={(event) => onFilterChange({ kind: event.target.value || undefined })}
            >
              <option value="">{t.allKinds}</option>
              {filterKinds.map((option) => (
                <option key={option} value={option}>
                  {kindLabel(option)}
                </option>
              ))}
            </select>
          </span>
          <span className="flex items-center gap-2">
            <label htmlFor={`${id}-case`} className="text-sm font-medium text-muted">
              {t.caseFilter}
            </label>
            <select
              id={`${id}-case`}
              className="input min-h-10 w-auto max-w-64 min-w-44 cursor-pointer"
              value={caseId ?? ''}
              onChange={(event) => onFilterChange({ caseId: event.target.value || undefined })}
            >
              <option value="">{t.allCases}</option>
              {caseId && !chosenCase && <option value={caseId}>{caseName}</option>}
              {cases.map((item) => (
                <option key={item.id} value={item.id}>
                  {item.title === item.reference ? item.reference : `${item.reference} · ${item.title}`}
                </option>
              ))}
            </select>
          </span>
          {!unit && (
            <button
              type="button"
              className="btn-ghost min-h-10 px-3 whitespace-nowrap"
              onClick={() => void saveCsv()}
              disabled={exportCsv.isPending}
            >
              {exportCsv.isPending && <Spinner size="sm" decorative />}
              {exportCsv.isPending ? t.exporting : t.exportCsv}
            </button>
          )}
        </div>
      </div>

      {(caseId || jobId) && (
        <ul aria-label={t.filtersLabel} className="flex flex-wrap items-center gap-2">
          {caseId && (
            <li>
              <FilterChip
                text={t.filterCase(caseName)}
                onClear={() => onFilterChange({ caseId: undefined })}
              />
            </li>
          )}
          {jobId && (
            <li>
              <FilterChip text={t.filterJob(jobName)} onClear={() => onFilterChange({ jobId: undefined })} />
            </li>
          )}
          {caseId && jobId && (
            <li>
              <button
                type="button"
                className="btn-ghost min-h-9 px-3 text-sm"
                onClick={() => onFilterChange({ caseId: undefined, jobId: undefined })}
              >
                {t.clearFilters}
              </button>
            </li>
          )}
        </ul>
      )}

      <QueryView
        query={history}
        failed={t.loadFailed}
        retryLabel={t.retry}
        empty={caseId || jobId ? t.emptyFiltered : kind ? t.emptyKind : unit ? u.unitEmpty : t.empty}
        isEmpty={(answer) => answer.data.length === 0}
      >
        {() => (
          <TableScroller label={t.lookupsTab} busy={history.isPlaceholderData} stickyEnds>
            <table className="data-table">
              <thead>
                <tr>
                  <th scope="col">{t.time}</th>
                  {unit && <th scope="col">{u.by}</th>}
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
                {data?.data.map((item) =>
                  item.type === 'bulk_job' ? (
                    <JobEntry
                      key={item.id}
                      item={item}
                      opening={opening}
                      onOpen={(entry) => void reopen(entry)}
                      onOnly={(job) => onFilterChange({ jobId: job })}
                      scope={scope}
                      me={me?.id}
                    />
                  ) : (
                    <LookupRow
                      key={item.id}
                      entry={item}
                      opening={opening}
                      onOpen={(entry) => void reopen(entry)}
                      by={unit}
                      me={me?.id}
                    />
                  ),
                )}
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
      {unit && <p className="text-xs text-muted">{u.csvOwnOnly}</p>}

      {shown && <StoredResultModal detail={shown} onClose={() => setShown(null)} />}
    </div>
  );
}
