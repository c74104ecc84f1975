import { LEGAL_BASIS_LABELS, legalBasisInput, legalBasisLine, messages } from '@footprint/domain';
import { useId } from 'react';
import {
  type CaseReferenceFieldState,
  type SearchLegalBasisState,
  searchBasisTexts,
} from '../lib/case-reference.ts';
import { emptyLegalBasisDraft, type LegalBasisDraft, legalBasisInputOf } from '../lib/legal-basis-draft.ts';
import { useOpenCases } from '../lib/open-cases.ts';
import { CaseReferenceField } from './CaseReferenceField.tsx';
import { Icon } from './Icon.tsx';
import { LegalBasisFields } from './LegalBasisFields.tsx';

const t = messages.caseReference.filing;

/**
 * The case a search will be filed under, beside the submit button of every search form (issue 31: a
 * reference carried from the last search must never be sent unseen). It says the case in words ('Filed
 * under FIR 214/2026 · Theft ring', 'new case' for a reference no case has yet, or 'Not filed under a
 * case'), clears it in one action ('No case'), and changes it: pick one of the user's open cases (GET
 * /api/cases?status=open) or type a reference, as the text field always took. Forms wire it with
 * `useCaseReferenceField(useCaseReferenceDraft(user?.id))`, so the current case is shared by the forms
 * of the tab, and shown on each before its search.
 */
export function CaseFiling({
  value,
  onChange,
  required,
  error,
  inputRef,
  legalBasis,
  disabled = false,
  className = '',
}: CaseReferenceFieldState & { disabled?: boolean; className?: string }) {
  const id = useId();
  const trimmed = value.trim();
  const openCases = useOpenCases(!disabled);
  const cases = openCases.data ?? [];
  const picked = cases.find((item) => item.reference.toLowerCase() === trimmed.toLowerCase());

  const summaryId = `${id}-summary`;
  return (
    <section aria-labelledby={summaryId} className={`case-filing ${className}`}>
      <div className="flex flex-wrap items-center justify-between gap-x-3 gap-y-2">
        <p id={summaryId} className="flex min-w-0 items-center gap-2 text-sm" aria-live="polite">
          <Icon
            className="size-4 text-muted"
            d="M3 7.5A1.5 1.5 0 0 1 4.5 6h4l2 2h9A1.5 1.5 0 0 1 21 9.5v8A1.5 1.5 0 0 1 19.5 19h-15A1.5 1.5 0 0 1 3 17.5z"
          />
          <span className="sr-only">{t.label}: </span>
          {trimmed ? (
            <span className="min-w-0">
              <span className="text-muted">{t.filedUnder} </span>
              <strong className="font-semibold break-words text-text">{trimmed}</strong>
              {picked && picked.title !== picked.reference && (
                <span className="text-muted"> · {picked.title}</span>
              )}
              {!picked && openCases.isSuccess && <span className="text-muted"> ({t.newCase})</span>}
            </span>
          ) : (
            <span className="text-muted">{t.none}</span>
          )}
        </p>
        {trimmed && (
          <button
            type="button"
            className="btn-ghost min-h-10 shrink-0 px-3 text-sm"
            disabled={disabled}
            aria-label={t.clearLabel}
            onClick={() => onChange('')}
          >
            {t.clear}
          </button>
        )}
      </div>
      <div className={`mt-3 grid gap-3 ${cases.length > 0 ? 'sm:grid-cols-2' : ''}`}>
        {cases.length > 0 && (
          <div>
            <label htmlFor={`${id}-pick`} className="mb-1 block text-sm font-medium text-muted">
              {t.pick}
            </label>
            <select
              id={`${id}-pick`}
              className="input min-h-11 cursor-pointer text-base sm:text-sm"
              value={picked?.id ?? ''}
              disabled={disabled}
              onChange={(event) => {
                const chosen = cases.find((item) => item.id === event.target.value);
                onChange(chosen ? chosen.reference : '');
              }}
            >
              <option value="">{t.pickNone}</option>
              {cases.map((item) => (
                <option key={item.id} value={item.id}>
                  {item.title === item.reference ? item.reference : `${item.reference} · ${item.title}`}
                </option>
              ))}
            </select>
          </div>
        )}
        <CaseReferenceField
          value={value}
          onChange={onChange}
          required={required}
          error={error}
          inputRef={inputRef}
          disabled={disabled}
        />
      </div>
      {legalBasis && <SearchBasis state={legalBasis} underCase={!!trimmed} disabled={disabled} />}
    </section>
  );
}

const b = searchBasisTexts;

/** The draft in words: its one line when complete, its kind when not, or that none is stated. */
function basisSummary(draft: LegalBasisDraft, underCase: boolean): string {
  if (!draft.kind) return underCase ? b.noneUnderCase : b.none;
  const checked = legalBasisInput.safeParse(legalBasisInputOf(draft));
  return checked.success
    ? legalBasisLine(checked.data)
    : `${LEGAL_BASIS_LABELS[draft.kind]} (${b.incomplete})`;
}

/**
 * The legal basis the search states itself, under the case it is filed under (when the deployment
 * requires a legal basis for every search): one line saying it in words, and the kind and facts of the
 * case form behind 'State a legal basis' / 'Change'. It starts open outside a case, and closed under one
 * (whose basis then usually applies); a refusal about it opens it.
 */
function SearchBasis({
  state,
  underCase,
  disabled,
}: {
  state: SearchLegalBasisState;
  underCase: boolean;
  disabled: boolean;
}) {
  const { idPrefix, draft, onChange, errors, refusal, open, onOpenChange } = state;
  const panelId = `${idPrefix}-lb-panel`;
  const headingId = `${idPrefix}-lb-heading`;
  return (
    <div className="mt-4 border-t border-line/70 pt-3">
      <div className="flex flex-wrap items-center justify-between gap-x-3 gap-y-2">
        <p id={headingId} className="flex min-w-0 flex-1 basis-64 items-start gap-2 text-sm">
          <Icon
            className="mt-0.5 size-4 shrink-0 text-muted"
            d="M12 3v18M7 21h10M5 7h14M5 7l-3 6a3 3 0 0 0 6 0zM19 7l-3 6a3 3 0 0 0 6 0z"
          />
          <span className="min-w-0 break-words">
            <span className="font-semibold text-text">{b.legend}: </span>
            <span className={draft.kind ? 'text-text' : 'text-muted'}>{basisSummary(draft, underCase)}</span>
          </span>
        </p>
        <div className="ml-auto flex shrink-0 gap-2">
          {draft.kind && (
            <button
              type="button"
              className="btn-ghost min-h-10 px-3 text-sm"
              disabled={disabled}
              aria-label={b.clearLabel}
              onClick={() => onChange(emptyLegalBasisDraft)}
            >
              {b.clear}
            </button>
          )}
          <button
            type="button"
            className="btn-ghost min-h-10 px-3 text-sm"
            aria-expanded={open}
            aria-controls={panelId}
            aria-describedby={headingId}
            onClick={() => onOpenChange(!open)}
          >
            {open ? b.hide : draft.kind ? b.change : b.show}
          </button>
        </div>
      </div>
      <div id={panelId} hidden={!open} className="mt-3">
        {open && (
          <LegalBasisFields
            idPrefix={idPrefix}
            draft={draft}
            onChange={onChange}
            errors={errors}
            serverError={refusal ?? undefined}
            legend={messages.cases.legalBasisFacts}
            hint={b.hint}
            noneLabel={b.none}
            disabled={disabled}
            framed={false}
          />
        )}
      </div>
    </div>
  );
}

export default CaseFiling;
