import { messages, type SourcePanel as Panel } from '@footprint/domain';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { ReadAsSupervisorNote, type Searcher } from '../../../components/ReadAsSupervisorNote.tsx';
import { paths } from '../../../config/paths.ts';
import { NoResultsImage } from './NoResultsImage.tsx';
import { SourcePanel } from './SourcePanel.tsx';

/**
 * Nothing to show: no value is synthetic, so no sandbox banner; the source panel still says which
 * sources answered nothing and why (and which are sandbox), and `answered` when they answered. A
 * reopened search of someone else's says whose it is (`searchedBy`).
 */
export function NoResults({
  searched,
  panel,
  answered,
  searchedBy,
}: {
  searched?: string;
  panel?: Panel | null;
  answered?: ReactNode;
  searchedBy?: Searcher | undefined;
}) {
  return (
    <div className="flex flex-1 flex-col items-center justify-center px-4 py-16 text-center">
      <NoResultsImage />
      <h1 className="mt-6 text-2xl font-bold tracking-tight text-text">{messages.results.noResults}</h1>
      {searched && (
        <p className="mt-2 text-sm text-muted">
          {messages.results.searchedFor} <span className="font-mono text-text">{searched}</span>
        </p>
      )}
      {answered}
      {searchedBy && (
        <ReadAsSupervisorNote searcher={searchedBy} className="mt-4 w-full max-w-2xl text-left" />
      )}
      {panel && (
        <div className="mt-4 w-full max-w-2xl text-left">
          <SourcePanel panel={panel} />
        </div>
      )}
      <Link to={paths.dashboard} className="btn-primary mt-8">
        {messages.search.noResultsButton}
      </Link>
    </div>
  );
}
