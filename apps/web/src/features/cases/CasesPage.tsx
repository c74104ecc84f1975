import {
  type CaseStatus,
  type CaseSummary,
  createCaseBody,
  firstErrors,
  legalBasisLine,
  messages,
  toFieldErrors,
} from '@footprint/domain';
import { type FormEvent, useId, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { toast } from 'react-toastify';
import { LegalBasisFields } from '../../components/LegalBasisFields.tsx';
import { QueryView } from '../../components/LoadError.tsx';
import { Spinner } from '../../components/Spinner.tsx';
import { paths } from '../../config/paths.ts';
import { formatDateTime } from '../../lib/datetime.ts';
import { failureMessage, fieldErrorsOf, isSessionEnd } from '../../lib/field-errors.ts';
import {
  checkLegalBasis,
  emptyLegalBasisDraft,
  errorsAfterEdit,
  type LegalBasisErrors,
} from '../../lib/legal-basis-draft.ts';
import { useCreateCase } from './api/createCase.ts';
import { useCases } from './api/listCases.ts';

/**
 * /cases (beyond the spec): the user's investigations, owned or shared with them, filtered by status,
 * and a form that opens a new one. A search that carries a case reference opens its case by itself.
 */

const t = messages.cases;
const STATUS_FILTERS: Array<{ key: CaseStatus | 'all'; label: string }> = [
  { key: 'all', label: t.all },
  { key: 'open', label: t.open },
  { key: 'closed', label: t.closed },
];

export default function CasesPage() {
  const [params, setParams] = useSearchParams();
  const raw = params.get('status');
  const status: CaseStatus | undefined = raw === 'open' || raw === 'closed' ? raw : undefined;
  const cases = useCases(status);

  return (
    <div className="mx-auto flex w-full max-w-7xl flex-1 flex-col px-4 py-8 sm:px-6 lg:py-10">
      <header>
        <p className="eyebrow">{t.eyebrow}</p>
        <h1 className="mt-2 text-3xl font-bold tracking-tight text-text">{t.title}</h1>
        <p className="mt-2 max-w-2xl text-sm text-muted sm:text-base">{t.lead}</p>
      </header>

      <div className="mt-6 grid gap-6 lg:grid-cols-[minmax(0,1fr)_22rem]">
        <section aria-labelledby="cases-list-title" className="min-w-0">
          <div className="flex flex-wrap items-center justify-between gap-3">
            <h2 id="cases-list-title" className="text-lg font-semibold text-text">
              {t.title}
            </h2>
            <fieldset className="flex items-center gap-1">
              <legend className="sr-only">{t.statusFilter}</legend>
              {STATUS_FILTERS.map((filter) => {
                const active = (status ?? 'all') === filter.key;
                return (
                  <button
                    key={filter.key}
                    type="button"
                    aria-pressed={active}
                    className={`btn-chip ${active ? 'chip-indigo' : ''}`}
                    onClick={() => setParams(filter.key === 'all' ? {} : { status: filter.key })}
                  >
                    {filter.label}
                  </button>
                );
              })}
            </fieldset>
          </div>
          <div className="mt-3">
            <QueryView
              query={cases}
              failed={messages.history.loadFailed}
              retryLabel={messages.history.retry}
              empty={status ? t.emptyFiltered : t.empty}
              isEmpty={(data) => data.length === 0}
            >
              {(data) => (
                <ul className="flex flex-col gap-3">
                  {data.map((item) => (
                    <CaseCard key={item.id} item={item} />
                  ))}
                </ul>
              )}
            </QueryView>
          </div>
        </section>
        <NewCaseForm />
      </div>
    </div>
  );
}

function CaseCard({ item }: { item: CaseSummary }) {
  return (
    <li className="card px-4 py-3">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <Link to={paths.case(item.id)} className="link-accent text-base font-semibold">
          {item.title}
        </Link>
        <span className="flex flex-wrap items-center gap-1.5">
          {item.legal_hold && (
            <span className="status-badge chip-amber" title={t.holdBadgeHint}>
              {t.holdBadge}
            </span>
          )}
          <span className={`status-badge ${item.status === 'open' ? 'status-on' : 'chip-slate'}`}>
            {item.status === 'open' ? t.open : t.closed}
          </span>
        </span>
      </div>
      <p className="mt-1 text-sm text-muted">
        <span className="font-mono text-text">{item.reference}</span>
        {' · '}
        {t.items(item.items_count)}
        {' · '}
        {t.role[item.role]}
        {item.role !== 'owner' && ` (${item.owner.name})`}
      </p>
      {item.legal_basis && <p className="mt-1 text-xs text-muted">{legalBasisLine(item.legal_basis)}</p>}
      <p className="mt-1 text-xs text-muted">
        {t.updated}: {formatDateTime(item.updated_at)}
      </p>
    </li>
  );
}

function NewCaseForm() {
  const id = useId();
  const create = useCreateCase();
  const [title, setTitle] = useState('');
  const [reference, setReference] = useState('');
  const [basis, setBasis] = useState(emptyLegalBasisDraft);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [basisErrors, setBasisErrors] = useState<LegalBasisErrors>({});

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (create.isPending) return;
    const form = event.currentTarget;
    // The legal basis is checked by its own schema so that each message stands under its input (the
    // server keys them all by `legal_basis`); it is sent as typed, flat, as the server takes it.
    const checked = createCaseBody.safeParse({ title, ...(reference.trim() ? { reference } : {}) });
    const legal = checkLegalBasis(basis);
    setErrors(checked.success ? {} : firstErrors(toFieldErrors(checked.error)));
    setBasisErrors(legal.ok ? {} : legal.errors);
    if (!checked.success || !legal.ok) {
      requestAnimationFrame(() => form.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus());
      return;
    }
    try {
      const { title: named, reference: given } = checked.data;
      await create.mutateAsync({
        title: named,
        ...(given ? { reference: given } : {}),
        ...(legal.input ? { legal_basis: legal.input } : {}),
      });
      toast.success(t.created);
      setTitle('');
      setReference('');
      setBasis(emptyLegalBasisDraft);
    } catch (error) {
      if (isSessionEnd(error)) return;
      const fields = fieldErrorsOf(error);
      const shown = ['title', 'reference', 'legal_basis'].some((name) => fields[name]);
      setErrors(shown ? fields : { title: failureMessage(error, t.saveFailed) });
    }
  };

  const field = (name: string, label: string, value: string, set: (v: string) => void, hint?: string) => (
    <div>
      <label htmlFor={`${id}-${name}`} className="label">
        {label}
      </label>
      <input
        id={`${id}-${name}`}
        className="input mt-1"
        value={value}
        maxLength={name === 'title' ? 200 : 100}
        aria-invalid={errors[name] ? true : undefined}
        aria-describedby={
          [errors[name] ? `${id}-${name}-error` : '', hint ? `${id}-${name}-hint` : '']
            .filter(Boolean)
            .join(' ') || undefined
        }
        onChange={(event) => set(event.target.value)}
      />
      {hint && (
        <p id={`${id}-${name}-hint`} className="mt-1 text-xs text-muted">
          {hint}
        </p>
      )}
      {errors[name] && (
        <p id={`${id}-${name}-error`} className="field-error">
          {errors[name]}
        </p>
      )}
    </div>
  );

  return (
    <section aria-labelledby={`${id}-heading`} className="card h-fit px-4 py-4">
      <h2 id={`${id}-heading`} className="text-lg font-semibold text-text">
        {t.newCase}
      </h2>
      <form noValidate onSubmit={(event) => void onSubmit(event)} className="mt-3 flex flex-col gap-3">
        {field('title', t.titleLabel, title, setTitle)}
        {field('reference', t.referenceLabel, reference, setReference, t.referenceHint)}
        <LegalBasisFields
          idPrefix={id}
          draft={basis}
          onChange={(next) => {
            setBasisErrors((shown) => errorsAfterEdit(shown, basis, next));
            setBasis(next);
          }}
          errors={basisErrors}
          serverError={errors.legal_basis}
        />
        <button type="submit" className="btn-primary" disabled={create.isPending}>
          {create.isPending && <Spinner size="sm" decorative className="mr-1.5" />}
          {create.isPending ? t.creating : t.create}
        </button>
      </form>
    </section>
  );
}
