import { messages } from '@footprint/domain';
import { useQuery } from '@tanstack/react-query';
import { Link, Navigate, useParams } from 'react-router';
import { LoadError, LoadingBlock } from '../../components/LoadError.tsx';
import { paths } from '../../config/paths.ts';
import { hasStatus, serverMessage } from '../../lib/field-errors.ts';
import { getHistoryEntry } from './api/getHistoryEntry.ts';
import { StoredResult, storedTitle, storedWhen } from './components/StoredResultModal.tsx';
import { resultsStateOf } from './reopen.ts';

const t = messages.history;

/**
 * /history/{lookup id}: one stored search by its address (the link of an approved request, on
 * /approvals and in its e-mail). A phone or e-mail search opens on /results as Search history opens
 * it; any other shows here. Read once (the server notes each reading in the audit trail).
 */
export default function HistoryEntryPage() {
  const { id = '' } = useParams();
  const entry = useQuery({
    queryKey: ['history', 'entry', id],
    queryFn: () => getHistoryEntry(id),
    staleTime: Number.POSITIVE_INFINITY,
    refetchOnWindowFocus: false,
    retry: false,
  });
  const state = entry.data ? resultsStateOf(entry.data) : null;
  if (state) return <Navigate to={paths.results} state={state} replace />;

  return (
    <div className="mx-auto flex w-full max-w-5xl flex-1 flex-col px-4 py-8 sm:px-6 lg:py-10">
      <p>
        <Link to={paths.history} className="link-accent text-sm font-medium">
          {t.menuLink}
        </Link>
      </p>
      {entry.isPending ? (
        <LoadingBlock />
      ) : entry.isError ? (
        <div className="mt-4">
          <h1 className="mb-4 text-2xl font-bold tracking-tight text-text">{t.title}</h1>
          <LoadError
            message={serverMessage(entry.error, hasStatus(entry.error, 410) ? t.purged : t.openFailed)}
            retryLabel={messages.admin.retry}
            onRetry={() => void entry.refetch()}
            retrying={entry.isFetching}
          />
        </div>
      ) : (
        <>
          <header className="mt-2 mb-5">
            <h1 className="text-2xl font-bold tracking-tight break-words text-text">
              {storedTitle(entry.data)}
            </h1>
            <p className="mt-1 text-sm text-muted">{storedWhen(entry.data)}</p>
          </header>
          <div className="card px-4 py-4 sm:px-5">
            <StoredResult detail={entry.data} />
          </div>
        </>
      )}
    </div>
  );
}
