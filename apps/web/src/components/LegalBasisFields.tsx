import {
  CURRENT_LEGAL_BASIS_KINDS,
  type CurrentLegalBasisKind,
  LEGAL_BASIS_DECLARATIONS,
  LEGAL_BASIS_LABELS,
  type LegalBasisField,
  type LegalBasisKind,
  messages,
} from '@footprint/domain';
import {
  isCurrentKind,
  type LegalBasisDraft,
  type LegalBasisErrors,
  sectionsOf,
} from '../lib/legal-basis-draft.ts';

const t = messages.cases;

/** The last day a date of a legal basis may be: today as the domain's check counts it (UTC). */
const todayUtc = () => new Date().toISOString().slice(0, 10);

interface Props {
  /** Prefix of the inputs' ids (a `useId` of the form). */
  idPrefix: string;
  draft: LegalBasisDraft;
  onChange: (draft: LegalBasisDraft) => void;
  /** The client-side check's messages by input (`checkLegalBasis`). */
  errors: LegalBasisErrors;
  /** The server's `legal_basis` message, when it refused what the client let through. */
  serverError?: string | undefined;
  /** Whether a kind must be chosen (editing): the empty choice then reads "Choose a kind". */
  required?: boolean;
  /** The stored basis's kind when it is one no longer given (warrant, complaint, court order). */
  oldKind?: LegalBasisKind | undefined;
  /** The fieldset's legend and hint, when not a case's ("Legal basis", what it allows). */
  legend?: string | undefined;
  hint?: string | undefined;
  /** The empty choice's words when no kind is required (a case's: "Not given yet"). */
  noneLabel?: string | undefined;
  disabled?: boolean | undefined;
  /** Drawn in its own frame (the case forms); a search form's section sits in CaseFiling's instead. */
  framed?: boolean | undefined;
}

/**
 * The legal basis inputs of a case form: the kind (the kinds given today, by their labels) and, for
 * the chosen kind, the facts its declaration asks for, each with its label, hint, example and messages.
 */
export function LegalBasisFields({
  idPrefix,
  draft,
  onChange,
  errors,
  serverError,
  required,
  oldKind,
  legend = t.legalBasisLegend,
  hint = t.legalBasisHint,
  noneLabel = t.legalBasisNone,
  disabled = false,
  framed = true,
}: Props) {
  const set = (name: string, value: string) =>
    onChange({ kind: draft.kind, values: { ...draft.values, [name]: value } });
  const kindId = `${idPrefix}-lb-kind`;
  const general = [...(errors.legal_basis ?? []), ...(serverError ? [serverError] : [])];

  return (
    <fieldset
      disabled={disabled}
      className={`flex min-w-0 flex-col gap-3 ${framed ? 'rounded-md border border-line/70 px-3 py-3' : ''}`}
    >
      <legend className={`text-sm font-semibold text-text ${framed ? 'px-1' : 'mb-1'}`}>{legend}</legend>
      <p className="text-xs text-muted">{hint}</p>
      <div>
        <label htmlFor={kindId} className="label">
          {t.legalBasisKind}
        </label>
        <select
          id={kindId}
          className="input mt-1"
          value={draft.kind}
          aria-invalid={errors.kind ? true : undefined}
          aria-describedby={
            [
              describedBy(kindId, !!errors.kind, !!oldKind && !draft.kind),
              general.length > 0 ? `${kindId}-general` : '',
            ]
              .filter(Boolean)
              .join(' ') || undefined
          }
          onChange={(event) => {
            const kind = event.target.value;
            onChange({ kind: isCurrentKind(kind) ? kind : '', values: draft.values });
          }}
        >
          <option value="">{required ? t.legalBasisChoose : noneLabel}</option>
          {CURRENT_LEGAL_BASIS_KINDS.map((kind) => (
            <option key={kind} value={kind}>
              {LEGAL_BASIS_LABELS[kind]}
            </option>
          ))}
        </select>
        {oldKind && !draft.kind && (
          <p id={`${kindId}-hint`} className="mt-1 text-xs text-muted">
            {t.legalBasisOldKind(LEGAL_BASIS_LABELS[oldKind])}
          </p>
        )}
        <Messages id={`${kindId}-error`} list={errors.kind} />
      </div>
      {draft.kind && (
        <KindFields idPrefix={idPrefix} kind={draft.kind} draft={draft} errors={errors} set={set} />
      )}
      {general.length > 0 && (
        <div id={`${kindId}-general`} role="alert">
          {general.map((message) => (
            <p key={message} className="field-error">
              {message}
            </p>
          ))}
        </div>
      )}
    </fieldset>
  );
}

function KindFields({
  idPrefix,
  kind,
  draft,
  errors,
  set,
}: {
  idPrefix: string;
  kind: CurrentLegalBasisKind;
  draft: LegalBasisDraft;
  errors: LegalBasisErrors;
  set: (name: string, value: string) => void;
}) {
  const purpose: LegalBasisField = {
    name: 'purpose',
    label: t.legalBasisPurpose,
    hint: t.legalBasisPurposeHint,
    type: 'text',
    example: '',
  };
  return (
    <>
      {[...LEGAL_BASIS_DECLARATIONS[kind].fields, purpose].map((field) => (
        <FactInput
          key={`${kind}-${field.name}`}
          id={`${idPrefix}-lb-${field.name}`}
          field={field}
          multiline={field.name === 'purpose'}
          value={draft.values[field.name] ?? ''}
          errors={errors[field.name]}
          onChange={(value) => set(field.name, value)}
        />
      ))}
    </>
  );
}

function FactInput({
  id,
  field,
  multiline,
  value,
  errors,
  onChange,
}: {
  id: string;
  field: LegalBasisField;
  multiline: boolean;
  value: string;
  errors: readonly string[] | undefined;
  onChange: (value: string) => void;
}) {
  const invalid = !!errors && errors.length > 0;
  const common = {
    id,
    value,
    placeholder: field.example || undefined,
    'aria-invalid': invalid ? true : undefined,
    'aria-describedby': describedBy(id, invalid, !!field.hint),
  } as const;
  return (
    <div>
      <label htmlFor={id} className="label">
        {field.label}
      </label>
      {field.type === 'sections' || multiline ? (
        <textarea
          {...common}
          className="input mt-1 min-h-20"
          rows={field.type === 'sections' ? 3 : 2}
          spellCheck={field.type === 'sections' ? false : undefined}
          onChange={(event) => onChange(event.target.value)}
          // The list as it will be sent: one section a line, blank lines gone.
          onBlur={
            field.type === 'sections'
              ? (event) => {
                  const tidy = sectionsOf(event.target.value).join('\n');
                  if (tidy !== event.target.value) onChange(tidy);
                }
              : undefined
          }
        />
      ) : field.type === 'year' ? (
        <input
          {...common}
          type="text"
          inputMode="numeric"
          autoComplete="off"
          maxLength={4}
          className="input mt-1 sm:max-w-32"
          onChange={(event) => onChange(event.target.value)}
        />
      ) : field.type === 'date' ? (
        <input
          {...common}
          type="date"
          min="2000-01-01"
          max={todayUtc()}
          className="input mt-1 sm:max-w-48"
          onChange={(event) => onChange(event.target.value)}
        />
      ) : (
        <input
          {...common}
          type="text"
          autoComplete="off"
          className="input mt-1"
          onChange={(event) => onChange(event.target.value)}
        />
      )}
      {field.hint && (
        <p id={`${id}-hint`} className="mt-1 text-xs text-muted">
          {field.hint}
        </p>
      )}
      <Messages id={`${id}-error`} list={errors} />
    </div>
  );
}

function Messages({ id, list }: { id: string; list: readonly string[] | undefined }) {
  if (!list || list.length === 0) return null;
  return (
    <div id={id}>
      {list.map((message) => (
        <p key={message} className="field-error">
          {message}
        </p>
      ))}
    </div>
  );
}

/** The error first (read first), then the hint. */
const describedBy = (id: string, error: boolean, hint: boolean): string | undefined =>
  [error ? `${id}-error` : '', hint ? `${id}-hint` : ''].filter(Boolean).join(' ') || undefined;
