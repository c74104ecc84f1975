import { type CaseDetail, legalBasisLine, messages } from '@footprint/domain';
import { type FormEvent, useId, useState } from 'react';
import { toast } from 'react-toastify';
import { LegalBasisFields } from '../../../components/LegalBasisFields.tsx';
import { Spinner } from '../../../components/Spinner.tsx';
import { failureMessage, fieldErrorsOf, isSessionEnd } from '../../../lib/field-errors.ts';
import {
  checkLegalBasis,
  draftOf,
  errorsAfterEdit,
  isCurrentKind,
  type LegalBasisErrors,
} from '../../../lib/legal-basis-draft.ts';
import { useUpdateCase } from '../api/updateCase.ts';
import { BundleButton } from './BundleButton.tsx';
import { ExportMenu } from './ExportMenu.tsx';
import { LegalBasisFacts } from './LegalBasisFacts.tsx';
import { LegalHoldBanner, PlaceHoldButton } from './LegalHold.tsx';

const t = messages.cases;

/**
 * The case's reference, title, status, owner, legal basis (its line and its facts) and legal hold, with
 * the bundle download and, for those who manage it, Close or Reopen and the change of its legal basis.
 */
export function CaseHeader({ detail, manage }: { detail: CaseDetail; manage: boolean }) {
  const update = useUpdateCase(detail.id);
  const [editing, setEditing] = useState(false);
  const toggle = async () => {
    try {
      await update.mutateAsync({ status: detail.status === 'open' ? 'closed' : 'open' });
    } catch (error) {
      if (!isSessionEnd(error)) toast.error(failureMessage(error, t.saveFailed));
    }
  };

  return (
    <header className="mt-3 flex flex-wrap items-start justify-between gap-4">
      <div className="min-w-0 flex-1 basis-80">
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
        {detail.legal_basis && <LegalBasisFacts basis={detail.legal_basis} />}
        <div className="mt-2 flex flex-wrap items-center gap-x-5 gap-y-1 empty:hidden">
          {manage && !editing && (
            <button type="button" className="link-accent text-sm" onClick={() => setEditing(true)}>
              {detail.legal_basis ? t.legalBasisEdit : t.legalBasisGive}
            </button>
          )}
          {!editing && <PlaceHoldButton detail={detail} />}
        </div>
        {manage && editing && <LegalBasisEditor detail={detail} onDone={() => setEditing(false)} />}
        <LegalHoldBanner detail={detail} />
      </div>
      <div className="flex flex-wrap gap-2">
        <BundleButton detail={detail} />
        <ExportMenu detail={detail} />
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

/** The owner's form to give or change the legal basis (PATCH /api/cases/{id} `legal_basis`). */
function LegalBasisEditor({ detail, onDone }: { detail: CaseDetail; onDone: () => void }) {
  const id = useId();
  const update = useUpdateCase(detail.id);
  const [draft, setDraft] = useState(() => draftOf(detail.legal_basis));
  const [errors, setErrors] = useState<LegalBasisErrors>({});
  const [serverError, setServerError] = useState<string>();
  const stored = detail.legal_basis?.kind;

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (update.isPending) return;
    const form = event.currentTarget;
    const checked = draft.kind
      ? checkLegalBasis(draft)
      : ({ ok: false, errors: { kind: [t.legalBasisKindRequired] } } as const);
    setServerError(undefined);
    if (!checked.ok || !checked.input) {
      setErrors(checked.ok ? {} : checked.errors);
      requestAnimationFrame(() => form.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus());
      return;
    }
    setErrors({});
    try {
      await update.mutateAsync({ legal_basis: checked.input });
      toast.success(t.legalBasisSaved);
      onDone();
    } catch (error) {
      if (isSessionEnd(error)) return;
      setServerError(fieldErrorsOf(error).legal_basis ?? failureMessage(error, t.saveFailed));
    }
  };

  return (
    <form noValidate onSubmit={(event) => void onSubmit(event)} className="mt-3 flex max-w-xl flex-col gap-3">
      <LegalBasisFields
        idPrefix={id}
        draft={draft}
        onChange={(next) => {
          setErrors((shown) => errorsAfterEdit(shown, draft, next));
          setDraft(next);
        }}
        errors={errors}
        serverError={serverError}
        required
        oldKind={stored && !isCurrentKind(stored) ? stored : undefined}
      />
      <div className="flex flex-wrap gap-2">
        <button type="submit" className="btn-primary" disabled={update.isPending}>
          {update.isPending && <Spinner size="sm" decorative className="mr-1.5" />}
          {update.isPending ? t.legalBasisSaving : t.legalBasisSave}
        </button>
        <button type="button" className="btn-ghost" onClick={onDone}>
          {t.legalBasisCancel}
        </button>
      </div>
    </form>
  );
}
