import { type CaseDetail, legalBasisLine, messages } from '@footprint/domain';
import { Link, useParams } from 'react-router';
import { toast } from 'react-toastify';
import { LoadingBlock } from '../../components/LoadError.tsx';
import { Spinner } from '../../components/Spinner.tsx';
import { paths } from '../../config/paths.ts';
import { failureMessage, hasStatus, isSessionEnd } from '../../lib/field-errors.ts';
import { useCase } from './api/getCase.ts';
import { useUpdateCase } from './api/updateCase.ts';
import { BundleButton } from './components/BundleButton.tsx';
import { Entities } from './components/Entities.tsx';
import { Members } from './components/Members.tsx';
import { Notes } from './components/Notes.tsx';
import { Searches } from './components/Searches.tsx';
import { Timeline } from './components/Timeline.tsx';

/**
 * /cases/{id} (beyond the spec): one investigation. Its searches (the user's own reopen their stored
 * result without a charge), the entities their results hold (corroborated ones marked, with the other
 * cases that found them), the notes, and the members. The owner closes and reopens it.
 */

const t = messages.cases;

export default function CasePage() {
  const { id = '' } = useParams();
  const query = useCase(id);
  if (query.isPending) return <LoadingBlock />;
  if (!query.data) {
    const missing = hasStatus(query.error, 404);
    return (
      <div className="mx-auto w-full max-w-3xl px-4 py-10 sm:px-6">
        <p role="alert" className="text-text">
          {missing ? t.notFound : messages.history.loadFailed}
        </p>
        <Link to={paths.cases} className="link-accent mt-3 inline-block">
          {t.back}
        </Link>
      </div>
    );
  }
  return <CaseView detail={query.data} />;
}

function CaseView({ detail }: { detail: CaseDetail }) {
  const update = useUpdateCase(detail.id);
  const manage = detail.role === 'owner' || detail.role === 'admin';
  const toggle = async () => {
    try {
      await update.mutateAsync({ status: detail.status === 'open' ? 'closed' : 'open' });
    } catch (error) {
      if (!isSessionEnd(error)) toast.error(failureMessage(error, t.saveFailed));
    }
  };

  return (
    <div className="mx-auto flex w-full max-w-7xl flex-1 flex-col px-4 py-8 sm:px-6 lg:py-10">
      <Link to={paths.cases} className="link-accent text-sm">
        ← {t.back}
      </Link>
      <header className="mt-3 flex flex-wrap items-start justify-between gap-4">
        <div className="min-w-0">
          <p className="eyebrow">{detail.reference}</p>
          <h1 className="mt-2 text-3xl font-bold tracking-tight text-text">{detail.title}</h1>
          <p className="mt-2 text-sm text-muted">
            <span className={`status-badge ${detail.status === 'open' ? 'status-on' : 'chip-slate'}`}>
              {detail.status === 'open' ? t.open : t.closed}
            </span>{' '}
            {t.owner}: {detail.owner.name} · {t.role[detail.role]}
          </p>
          <p className="mt-1 text-sm text-muted">
            {t.legalBasisLegend}:{' '}
            <span className="text-text">
              {detail.legal_basis ? legalBasisLine(detail.legal_basis) : t.legalBasisNone}
            </span>
          </p>
        </div>
        <div className="flex flex-wrap gap-2">
          <BundleButton detail={detail} />
          {manage && (
            <button
              type="button"
              className="btn-ghost"
              disabled={update.isPending}
              onClick={() => void toggle()}
            >
              {update.isPending && <Spinner size="sm" decorative className="mr-1.5" />}
              {detail.status === 'open' ? t.closeCase : t.reopenCase}
            </button>
          )}
        </div>
      </header>
      {detail.status === 'closed' && (
        <p className="mt-4 rounded-md border border-line bg-surface px-3 py-2 text-sm text-muted">
          {t.closedNote}
        </p>
      )}

      <div className="mt-6 grid gap-6 lg:grid-cols-[minmax(0,1fr)_22rem]">
        <div className="flex min-w-0 flex-col gap-6">
          <Searches detail={detail} />
          <Entities detail={detail} />
          <Timeline detail={detail} />
        </div>
        <div className="flex min-w-0 flex-col gap-6">
          <Notes detail={detail} />
          <Members detail={detail} manage={manage} />
        </div>
      </div>
    </div>
  );
}
