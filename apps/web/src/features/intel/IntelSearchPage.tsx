import {
  corporateTypes,
  findIntelType,
  type IntelArea,
  type IntelField,
  type IntelKind,
  type IntelType,
  initialIntelValues,
  messages,
  showsSyntheticData,
  toIntelRequestData,
  validateIntel,
  verificationTypes,
} from '@footprint/domain';
import { type FormEvent, type ReactNode, useEffect, useId, useRef, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { toast } from 'react-toastify';
import { CaseFiling } from '../../components/CaseFiling.tsx';
import { Overlay } from '../../components/Overlay.tsx';
import { paths } from '../../config/paths.ts';
import { saveBlob } from '../../lib/api.ts';
import { useAuth } from '../../lib/auth-context.ts';
import {
  useCaseReferenceDraft,
  useCaseReferenceField,
  useLegalBasisDraft,
} from '../../lib/case-reference.ts';
import { maySpend, type PaidFailure, saidElsewhere, usePaidAnswer } from '../../lib/paid-answer.ts';
import { unavailableText, useKindAvailable } from '../../lib/sources.ts';
import { type IntelSearchInput, useIntelPdf, useIntelSearch } from './api/intelSearch.ts';
import { IntelFieldInput, type IntelValue } from './components/IntelFieldInput.tsx';
import { creditReportFailureToast } from './credit-report-failure.ts';
import { type IntelResultsState, intelFieldErrorOf } from './intelState.ts';

/**
 * /corporate and /verification-id (spec §2.7, §2.8, §4, §5, §8): a search-type dropdown drives a form
 * built from the domain's field definitions. Changing the type clears the values. Submit checks credits,
 * then the domain rules (the same ones the server applies), then the case reference; a JSON answer opens
 * the results page, the credit report's PDF is saved and the form cleared. A failed credit report is one
 * toast on the form (credit-report-failure.ts). Types this deployment has no source for are marked in
 * the dropdown; while one is chosen the screen says so and the submit stays disabled (the server would
 * only answer 503).
 */

type Values = Record<string, IntelValue>;

interface FormError {
  /** The field the message is about, when it is about one. */
  field?: string;
  message: string;
}

/** The form as it was when a search left for the results page, so going back restores it. */
interface SavedForm {
  intelForm: { type: string; values: Values };
}

const config: Record<
  IntelArea,
  { types: readonly IntelType[]; title: string; lead: string; results: string; icon: ReactNode }
> = {
  corporate: {
    types: corporateTypes,
    title: messages.intelPages.corporateTitle,
    lead: messages.intelPages.corporateLead,
    results: paths.corporateResults,
    icon: (
      <path d="M4 21V5a1 1 0 0 1 1-1h9a1 1 0 0 1 1 1v16M15 9h4a1 1 0 0 1 1 1v11M2.5 21h19M8 8h3M8 12h3M8 16h3" />
    ),
  },
  verification: {
    types: verificationTypes,
    title: messages.intelPages.verificationTitle,
    lead: messages.intelPages.verificationLead,
    results: paths.verificationResults,
    icon: (
      <>
        <rect x="3" y="4.5" width="18" height="15" rx="2" />
        <circle cx="9" cy="11" r="2.25" />
        <path d="M5.5 16.5c.5-1.7 1.8-2.6 3.5-2.6s3 .9 3.5 2.6M15 10h3M15 13.5h3" />
      </>
    ),
  },
};

const submitIcons: Record<string, string> = {
  search: 'M11 4.5a6.5 6.5 0 1 0 0 13 6.5 6.5 0 0 0 0-13zM20 20l-4.2-4.2',
  download: 'M12 4v11M7.5 10.5 12 15l4.5-4.5M5 19h14',
  verify: 'M12 3 4.5 6v5.5c0 4.6 3.2 8.4 7.5 9.5 4.3-1.1 7.5-4.9 7.5-9.5V6zM8.5 12l2.5 2.5 4.5-5',
};

const nonEmpty = (value: unknown): string | undefined =>
  typeof value === 'string' && value.trim() ? value.trim() : undefined;

/**
 * Which field a refusal of `validateIntel` is about, to show it under that field and focus it:
 * '{label} is required.' names the label; the mobile, PAN and consent rules name their kind. A message
 * about the whole form (the employment combinations) belongs to no field.
 */
function fieldOfMessage(type: IntelType, message: string): IntelField | undefined {
  const byLabel = type.fields
    .filter((field) => message.startsWith(`${field.label} `))
    .sort((a, b) => b.label.length - a.label.length)[0];
  if (byLabel) return byLabel;
  const byKind = (kind: IntelField['kind']) => type.fields.find((field) => field.kind === kind);
  if (/^Mobile number/.test(message)) return byKind('mobile');
  if (/PAN/.test(message)) return byKind('pan');
  if (/consent/i.test(message)) return byKind('consent');
  return undefined;
}

function readSavedForm(area: IntelArea, state: unknown) {
  const saved = (state as Partial<SavedForm> | null)?.intelForm;
  if (!saved || typeof saved.type !== 'string') return null;
  const type = findIntelType(area, saved.type);
  if (!type) return null;
  const values = { ...initialIntelValues(type) };
  for (const key of Object.keys(values)) {
    const value = saved.values?.[key];
    if (typeof value === typeof values[key]) values[key] = value as IntelValue;
  }
  return { type, values };
}

export function IntelSearchPage({ area }: { area: IntelArea }) {
  const { types, title, lead, results, icon } = config[area];
  const navigate = useNavigate();
  const location = useLocation();
  const { user } = useAuth();
  const paidAnswer = usePaidAnswer();
  const search = useIntelSearch(area);
  const pdf = useIntelPdf();
  const id = useId();

  const [initial] = useState(() => readSavedForm(area, location.state));
  const [type, setType] = useState<IntelType>(() => initial?.type ?? (types[0] as IntelType));
  const [values, setValues] = useState<Values>(() => initial?.values ?? initialIntelValues(type));
  const caseReference = useCaseReferenceField(useCaseReferenceDraft(user?.id), {
    legalBasis: useLegalBasisDraft(user?.id),
  });
  const [formError, setFormError] = useState<FormError | null>(null);
  const fieldRefs = useRef(new Map<string, HTMLInputElement | HTMLSelectElement>());
  const busy = search.isPending || pdf.isPending;
  // A field the server refused takes the focus once the form is enabled again after the call.
  const [focusWanted, setFocusWanted] = useState<string | null>(null);
  useEffect(() => {
    if (!focusWanted || busy) return;
    fieldRefs.current.get(focusWanted)?.focus();
    setFocusWanted(null);
  }, [focusWanted, busy]);
  const available = useKindAvailable();
  const kindOf = (option: IntelType) => `${area}:${option.type}` as IntelKind;
  const unavailable = !available(kindOf(type));

  // Spec §4: changing the search type clears the entered values (the case reference is about the
  // investigation, not this search, and stays).
  const onTypeChange = (next: string) => {
    const found = findIntelType(area, next);
    if (!found) return;
    setType(found);
    setValues(initialIntelValues(found));
    setFormError(null);
  };

  const onValueChange = (name: string, value: IntelValue) => {
    setValues((current) => ({ ...current, [name]: value }));
    setFormError((current) => (current?.field === name || !current?.field ? null : current));
  };

  const fieldRef = (name: string) => (element: HTMLInputElement | HTMLSelectElement | null) => {
    if (element) fieldRefs.current.set(name, element);
    else fieldRefs.current.delete(name);
  };

  /** The server's per-field messages of a 400: under the field they name (focused), or above the button. */
  const showFieldError = (fields: Record<string, string>) => {
    const placed = intelFieldErrorOf(
      type.fields.map((field) => field.name),
      fields,
    );
    if (!placed) return;
    setFormError(placed);
    if (placed.field) setFocusWanted(placed.field);
  };

  /** Spec §8, corporate: the server's message with the balance, then per status. */
  const corporateFailed = (failure: PaidFailure, sent: IntelSearchInput) => {
    if (failure.kind === 'unavailable') {
      toast.error(failure.message ?? messages.intelPages.failed);
      return;
    }
    if (failure.kind === 'no-answer') {
      toast.error(messages.intelPages.failed);
      return;
    }
    if (saidElsewhere(failure)) return;
    const suffix = failure.credits === undefined ? '' : messages.intelPages.creditsRemaining(failure.credits);
    toast.error(`${failure.message ?? messages.intelPages.failed}${suffix}`);
    if (failure.status === 422) {
      showEmptyResults(sent);
      return;
    }
    if (failure.kind !== 'insufficient') toast.error(messages.intelPages.somethingWrong);
  };

  /**
   * Spec §8, verification: the failure said once in its own words (402 'Insufficient credits.', 400
   * the server's error or 'Bad request.', otherwise the server's message or 'Something went wrong'),
   * and 'internal server error' beside it when the server did fail (5xx). A 422 opens the empty results.
   */
  const verificationFailed = (failure: PaidFailure, sent: IntelSearchInput) => {
    if (failure.kind === 'unavailable') {
      toast.error(failure.message ?? messages.intelPages.somethingWrong);
      return;
    }
    if (failure.kind === 'no-answer') {
      toast.error(messages.intelPages.somethingWrong);
      return;
    }
    if (saidElsewhere(failure)) return;
    if (failure.status === 422) {
      showEmptyResults(sent);
      return;
    }
    if (failure.kind === 'insufficient') toast.warning(messages.credits.insufficient);
    else if (failure.status === 400)
      toast.error(nonEmpty(failure.body.error) ?? failure.message ?? messages.intelPages.badRequest);
    else toast.error(failure.message ?? messages.intelPages.somethingWrong);
    if (failure.status >= 500) toast.error(messages.intelPages.internalError);
  };

  const saveForm = () =>
    navigate(location.pathname, {
      replace: true,
      state: {
        intelForm: { type: type.type, values },
      } satisfies SavedForm,
    });

  const openResults = async (sent: IntelSearchInput, data: unknown, sandbox: boolean, lookupId?: string) => {
    await saveForm();
    const state: IntelResultsState = {
      area,
      type: sent.type,
      input: sent.data,
      data,
      sandbox,
      ...(lookupId ? { lookupId } : {}),
    };
    await navigate(results, { state });
  };

  // Spec §4: a 422 (no record) opens the results page with null data and the warning 'No data found'.
  const showEmptyResults = (sent: IntelSearchInput) => {
    toast.warning(messages.intelPages.noData);
    void openResults(sent, null, false);
  };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy || unavailable) return;
    if (!maySpend(user)) {
      toast.warning(messages.credits.insufficientUpgrade);
      return;
    }
    const message = validateIntel(type, values);
    if (message) {
      const field = fieldOfMessage(type, message);
      setFormError({ field: field?.name, message });
      toast.error(message);
      if (field) fieldRefs.current.get(field.name)?.focus();
      return;
    }
    const referenceError = caseReference.check();
    if (referenceError) {
      toast.error(referenceError);
      return;
    }
    setFormError(null);
    const caseRef = caseReference.param;
    const basis = caseReference.legalBasisParam;
    const sent: IntelSearchInput = {
      type: type.type,
      data: toIntelRequestData(type, values),
      ...(caseRef ? { case_reference: caseRef } : {}),
      ...(basis ? { legal_basis: basis } : {}),
    };

    if (type.returnsPdf) {
      try {
        const answer = await pdf.mutateAsync(sent);
        paidAnswer.paid(answer);
        saveBlob(answer.pdf, `credit_report_${Date.now()}.pdf`);
        toast.success(messages.creditReport.success);
        setValues(initialIntelValues(type));
      } catch (error) {
        const failure = paidAnswer.refused(error);
        // A refusal about the case or the stated legal basis is shown under its input.
        if (caseReference.showRefusal(error) && 'message' in failure) {
          toast.error(failure.message ?? messages.intelPages.failed);
          return;
        }
        const note = creditReportFailureToast(failure);
        if (note) toast[note.level](note.text);
      }
      return;
    }

    try {
      const answer = await search.mutateAsync(sent);
      paidAnswer.paid(answer);
      await openResults(
        sent,
        answer.data ?? null,
        showsSyntheticData(answer.source_status, answer.sandbox),
        typeof answer.lookup_id === 'string' ? answer.lookup_id : undefined,
      );
      toast.success(messages.intelPages.found);
    } catch (error) {
      const failure = paidAnswer.refused(error);
      // A refusal about the case or the stated legal basis is shown under its input, not as a
      // refused search (a 422 would otherwise open the empty results).
      if (caseReference.showRefusal(error) && 'message' in failure) {
        toast.error(failure.message ?? messages.intelPages.failed);
        return;
      }
      if ('status' in failure && failure.status === 400) showFieldError(failure.fields);
      if (area === 'corporate') corporateFailed(failure, sent);
      else verificationFailed(failure, sent);
    }
  };

  const typeId = `${id}-type`;
  const unavailableId = `${id}-unavailable`;
  const checkboxes = type.fields.filter((field) => field.kind === 'checkbox');
  const firstCheckbox = checkboxes[0];
  const unboundError = formError && !formError.field ? formError.message : null;

  const renderField = (field: IntelField) => (
    <IntelFieldInput
      key={`${type.type}-${field.name}`}
      field={field}
      value={values[field.name] ?? (field.kind === 'checkbox' || field.kind === 'consent' ? false : '')}
      onChange={(value) => onValueChange(field.name, value)}
      disabled={busy}
      error={formError?.field === field.name ? formError.message : undefined}
      inputRef={fieldRef(field.name)}
      required={!field.optional && !type.combinations}
    />
  );

  return (
    <div className="mx-auto flex w-full max-w-3xl flex-1 flex-col px-4 py-8 sm:px-6 lg:py-12">
      <div className="text-center">
        <span className="mx-auto flex size-12 items-center justify-center rounded-2xl bg-accent-soft text-accent">
          <svg
            viewBox="0 0 24 24"
            fill="none"
            stroke="currentColor"
            strokeWidth="1.75"
            strokeLinecap="round"
            strokeLinejoin="round"
            aria-hidden="true"
            focusable="false"
            className="size-6"
          >
            {icon}
          </svg>
        </span>
        <h1 className="mt-4 text-3xl font-bold tracking-tight text-text sm:text-4xl">{title}</h1>
        <p className="mx-auto mt-3 max-w-xl text-sm text-balance text-muted sm:text-base">{lead}</p>
      </div>

      <form
        noValidate
        onSubmit={(event) => void onSubmit(event)}
        aria-busy={busy}
        aria-label={title}
        className="card mt-8 w-full p-4 sm:p-6"
      >
        <div>
          <label htmlFor={typeId} className="label">
            {messages.intelPages.searchType}
          </label>
          <select
            id={typeId}
            name="type"
            value={type.type}
            onChange={(event) => onTypeChange(event.target.value)}
            disabled={busy}
            className="input min-h-11 text-base font-medium text-text sm:text-sm"
          >
            {types.map((option) => (
              <option key={option.type} value={option.type}>
                {available(kindOf(option)) ? option.label : messages.sources.unavailableOption(option.label)}
              </option>
            ))}
          </select>
          {unavailable && (
            <p id={unavailableId} role="status" className="unavailable-note mt-3">
              {unavailableText(kindOf(type))}
            </p>
          )}
        </div>

        <div className="mt-5 grid gap-4 border-t border-line/70 pt-5 sm:grid-cols-2">
          {type.combinations && (
            <p className="text-sm text-muted sm:col-span-2">{messages.intelPages.combinationHint}</p>
          )}
          {type.fields.map((field) => {
            if (field.kind !== 'checkbox') return renderField(field);
            if (field !== firstCheckbox) return null;
            // The type's checkboxes (what the answer should include) sit together in one group.
            return (
              <fieldset key={`${type.type}-checkboxes`} className="min-w-0 sm:col-span-2">
                <legend className="label">{messages.intelPages.include}</legend>
                <div className="grid gap-2 sm:grid-cols-2">{checkboxes.map(renderField)}</div>
              </fieldset>
            );
          })}
        </div>

        <CaseFiling className="mt-5" disabled={busy} {...caseReference.field} />

        {unboundError && (
          <p
            role="alert"
            className="mt-4 rounded-lg border border-danger/40 bg-danger/10 px-3 py-2 text-sm text-danger"
          >
            {unboundError}
          </p>
        )}

        <button
          type="submit"
          className="btn-primary mt-6 w-full py-3 text-base"
          disabled={busy || unavailable}
          aria-describedby={unavailable ? unavailableId : undefined}
        >
          <svg
            viewBox="0 0 24 24"
            fill="none"
            stroke="currentColor"
            strokeWidth="2"
            strokeLinecap="round"
            strokeLinejoin="round"
            aria-hidden="true"
            focusable="false"
            className="size-5"
          >
            <path
              d={
                type.returnsPdf
                  ? submitIcons.download
                  : area === 'verification'
                    ? submitIcons.verify
                    : submitIcons.search
              }
            />
          </svg>
          {type.submitLabel}
        </button>
      </form>

      {busy && <Overlay message={type.overlay} />}
    </div>
  );
}
