import { type CaseDetail, legalBasisLine, messages } from '@footprint/domain';
import { toast } from 'react-toastify';
import { Spinner } from '../../../components/Spinner.tsx';
import { failureMessage, isSessionEnd } from '../../../lib/field-errors.ts';
import { useUpdateCase } from '../api/updateCase.ts';
import { BundleButton } from './BundleButton.tsx';

const t = messages.cases;

/**
 * The case's reference, title, status, owner and legal basis, with the bundle download and, for those
 * who manage it, Close or Reopen.
 */
export function CaseHeader({ detail, manage }: { detail: CaseDetail; manage: boolean }) {
  const update = useUpdateCase(detail.id);
  const toggle = async () => {
    try {
      await update.mutateAsync({ status: detail.status === 'open' ? 'closed' : 'open' });
    } catch (error) {
      if (!isSessionEnd(error)) toast.error(failureMessage(error, t.saveFailed));
    }
  };

  return (
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
  );
}
