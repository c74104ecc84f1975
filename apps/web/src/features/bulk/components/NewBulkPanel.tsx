import { BULK_TYPES, type BulkPreview, type BulkType, messages } from '@footprint/domain';
import { type DragEvent, type FormEvent, useId, useRef, useState } from 'react';
import { toast } from 'react-toastify';
import { CaseFiling } from '../../../components/CaseFiling.tsx';
import { Spinner } from '../../../components/Spinner.tsx';
import { useAuth } from '../../../lib/auth-context.ts';
import { useCaseReferenceDraft, useCaseReferenceField } from '../../../lib/case-reference.ts';
import { failureMessage, fieldErrorsOf } from '../../../lib/field-errors.ts';
import { usePaidAnswer } from '../../../lib/paid-answer.ts';
import { type BulkInput, usePreviewBulk } from '../api/previewBulk.ts';
import { useStartBulk } from '../api/startBulk.ts';
import {
  fileSize,
  type PastedList,
  parsePastedList,
  pastedListError,
  previewView,
  uploadError,
} from '../list.ts';
import { PreviewSummary } from './PreviewSummary.tsx';

const t = messages.bulkPage;
type Source = 'file' | 'paste';

/** A checked list: the answer of the preview, and the very input it was made from (Start sends it). */
interface Checked {
  preview: BulkPreview;
  input: BulkInput;
  /** A pasted list's text-box line of each value, for the invalid rows' 'Line'. */
  lines?: number[] | undefined;
}

/**
 * 'New bulk lookup': the kind of list, a CSV/XLSX file (picked or dropped) or a pasted list, the case
 * reference, then 'Check list' (POST /api/bulk/preview, free) and 'Start' (POST /api/bulk). Any change
 * to the list after a check asks for a new check, so Start always runs what the user saw priced.
 */
export function NewBulkPanel({ onStarted }: { onStarted?: () => void }) {
  const id = useId();
  const { user } = useAuth();
  const paidAnswer = usePaidAnswer();
  const caseReference = useCaseReferenceField(useCaseReferenceDraft(user?.id));
  const preview = usePreviewBulk();
  const start = useStartBulk();
  const [type, setType] = useState<BulkType>('tel');
  const [source, setSource] = useState<Source>('file');
  const [file, setFile] = useState<File | null>(null);
  const [text, setText] = useState('');
  const [dragging, setDragging] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [checked, setChecked] = useState<Checked | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const textInput = useRef<HTMLTextAreaElement>(null);

  /** Every change to what would be sent drops the last check and its messages. */
  const changed = () => {
    setChecked(null);
    setErrors({});
  };

  const chooseFile = (next: File | null) => {
    changed();
    setFile(next);
    if (next) {
      const error = uploadError(next);
      if (error) setErrors({ file: error });
    }
  };

  const onDrop = (event: DragEvent<HTMLDivElement>) => {
    event.preventDefault();
    setDragging(false);
    const dropped = event.dataTransfer.files[0];
    if (dropped) chooseFile(dropped);
  };

  /** The browser's checks, then the input to send; `null` (with the messages shown) when refused. */
  const inputOf = (): { input: BulkInput; list?: PastedList } | null => {
    const refusal = caseReference.check();
    if (source === 'file') {
      const error = uploadError(file);
      if (error || !file) {
        setErrors({ file: error ?? t.noFile });
        if (!refusal) fileInput.current?.focus();
        return null;
      }
      if (refusal) return null;
      return { input: { source: 'file', type, file, caseReference: caseReference.param } };
    }
    const list = parsePastedList(text);
    const error = pastedListError(list);
    if (error) {
      setErrors({ values: error });
      if (!refusal) textInput.current?.focus();
      return null;
    }
    if (refusal) return null;
    return {
      input: { source: 'paste', type, values: list.values, caseReference: caseReference.param },
      list,
    };
  };

  /**
   * Shows a refusal the paid-answer way (the balance it says merged, a 402 warned, a case-reference
   * refusal under its field): field messages under their fields, anything else in the panel's alert.
   */
  const showFailure = (error: unknown, fallback: string) =>
    paidAnswer.failed(error, {
      failed: fallback,
      caseReference,
      inline: (failure) => {
        const next: Record<string, string> = {};
        for (const [field, message] of Object.entries(fieldErrorsOf(error))) {
          if (field === 'file') next.file = message;
          else if (field === 'values' || field.startsWith('values.')) next.values ??= message;
          else next.form ??= message;
        }
        if (Object.keys(next).length === 0) {
          // A 4xx says why (422: no valid row, 413: too large); a 5xx or no answer does not.
          const says = 'status' in failure && failure.status >= 400 && failure.status < 500;
          next.form = says ? failureMessage(error, fallback) : fallback;
        }
        // A field message for the other source's field still has to be seen.
        if (next.file && source !== 'file') next.form ??= next.file;
        if (next.values && source !== 'paste') next.form ??= next.values;
        setErrors(next);
      },
    });

  const onCheck = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (preview.isPending || start.isPending) return;
    setErrors({});
    setChecked(null);
    const made = inputOf();
    if (!made) return;
    try {
      const answer = await preview.mutateAsync(made.input);
      setChecked({ preview: answer, input: made.input, lines: made.list?.lines });
      paidAnswer.paid({ credits: answer.balance });
    } catch (error) {
      showFailure(error, t.checkFailed);
    }
  };

  const onStart = async () => {
    if (!checked || start.isPending) return;
    try {
      const job = await start.mutateAsync(checked.input);
      // A list of more rows than the admin allows without approval is held, not started (a 202 too).
      if (job.status === 'awaiting_approval') toast.info(t.startedAwaiting);
      else toast.success(t.started);
      setChecked(null);
      setErrors({});
      setFile(null);
      setText('');
      if (fileInput.current) fileInput.current.value = '';
      // Start is gone with the preview: the keyboard goes on to the list that now shows the job.
      onStarted?.();
    } catch (error) {
      showFailure(error, t.startFailed);
    }
  };

  const view = checked ? previewView(checked.preview, checked.lines) : null;
  const fieldId = (name: string) => `${id}-${name}`;
  const describedBy = (name: string, hint: boolean) =>
    [errors[name] ? fieldId(`${name}-error`) : '', hint ? fieldId(`${name}-hint`) : '']
      .filter(Boolean)
      .join(' ') || undefined;
  const pasted = source === 'paste' ? parsePastedList(text).values.length : 0;
  const busy = preview.isPending || start.isPending;

  return (
    <section aria-labelledby={fieldId('heading')} className="card px-4 py-5 sm:px-6">
      <h2 id={fieldId('heading')} className="text-lg font-semibold text-text">
        {t.newTitle}
      </h2>
      <form
        noValidate
        aria-labelledby={fieldId('heading')}
        aria-busy={busy}
        onSubmit={(event) => void onCheck(event)}
        className="mt-4 flex flex-col gap-5"
      >
        <div className="grid gap-5 md:grid-cols-2">
          <fieldset>
            <legend className="label">{t.typeLegend}</legend>
            <div className="search-toggle grid-cols-3">
              {BULK_TYPES.map((option) => (
                <label key={option} className="search-toggle-option px-2 sm:px-4">
                  <input
                    type="radio"
                    name={fieldId('type')}
                    value={option}
                    checked={type === option}
                    onChange={() => {
                      changed();
                      setType(option);
                    }}
                    className="peer sr-only"
                  />
                  <span>{t.types[option]}</span>
                </label>
              ))}
            </div>
          </fieldset>
          <fieldset>
            <legend className="label">{t.sourceLegend}</legend>
            <div className="search-toggle">
              {(['file', 'paste'] as const).map((option) => (
                <label key={option} className="search-toggle-option">
                  <input
                    type="radio"
                    name={fieldId('source')}
                    value={option}
                    checked={source === option}
                    onChange={() => {
                      changed();
                      setSource(option);
                    }}
                    className="peer sr-only"
                  />
                  <span>{option === 'file' ? t.sourceFile : t.sourcePaste}</span>
                </label>
              ))}
            </div>
          </fieldset>
        </div>

        {source === 'file' ? (
          <div>
            <label htmlFor={fieldId('file')} className="label">
              {t.fileLabel}
            </label>
            {/* biome-ignore lint/a11y/noStaticElementInteractions: the drop zone only adds dropping for a pointer; the file input inside it stays the keyboard's and screen reader's way in. */}
            <div
              onDragOver={(event) => {
                event.preventDefault();
                setDragging(true);
              }}
              onDragLeave={() => setDragging(false)}
              onDrop={onDrop}
              className={`flex flex-col items-start gap-2 rounded-xl border-2 border-dashed px-4 py-5 transition-colors ${
                dragging
                  ? 'border-accent bg-accent-soft/30'
                  : errors.file
                    ? 'border-danger/70'
                    : 'border-line bg-night/40'
              }`}
            >
              <p className="text-sm text-muted" aria-hidden="true">
                {t.dropHere}
              </p>
              <input
                ref={fileInput}
                id={fieldId('file')}
                type="file"
                name="file"
                accept=".csv,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
                onChange={(event) => chooseFile(event.target.files?.[0] ?? null)}
                aria-invalid={errors.file ? true : undefined}
                aria-describedby={describedBy('file', true)}
                className="w-full max-w-full text-sm text-muted file:mr-3 file:cursor-pointer file:rounded-lg file:border file:border-line file:bg-surface-2 file:px-3 file:py-2 file:text-sm file:font-semibold file:text-text hover:file:border-accent hover:file:text-accent"
              />
              {file && (
                <p className="text-xs text-text" aria-live="polite">
                  {t.chosenFile(file.name, fileSize(file.size))}
                </p>
              )}
            </div>
            {errors.file && (
              <p id={fieldId('file-error')} className="field-error">
                {errors.file}
              </p>
            )}
            <p id={fieldId('file-hint')} className="mt-1 text-xs text-muted">
              {t.fileHint}
            </p>
          </div>
        ) : (
          <div>
            <div className="mb-1 flex items-center justify-between gap-3">
              <label htmlFor={fieldId('values')} className="text-sm font-medium text-muted">
                {t.pasteLabel}
              </label>
              <span className="text-xs text-muted tabular-nums">{t.pastedLines(pasted)}</span>
            </div>
            <textarea
              ref={textInput}
              id={fieldId('values')}
              name="values"
              rows={8}
              spellCheck={false}
              autoComplete="off"
              value={text}
              onChange={(event) => {
                changed();
                setText(event.target.value);
              }}
              aria-invalid={errors.values ? true : undefined}
              aria-describedby={describedBy('values', true)}
              placeholder={t.pastePlaceholder(type)}
              className="input min-h-40 font-mono text-base sm:text-sm"
            />
            {errors.values && (
              <p id={fieldId('values-error')} className="field-error">
                {errors.values}
              </p>
            )}
            <p id={fieldId('values-hint')} className="mt-1 text-xs text-muted">
              {t.pasteHint(type)}
            </p>
          </div>
        )}

        <CaseFiling
          {...caseReference.field}
          onChange={(value) => {
            changed();
            caseReference.field.onChange(value);
          }}
          disabled={busy}
          className="max-w-xl"
        />

        {errors.form && (
          <p
            role="alert"
            className="rounded-lg border border-danger/40 bg-danger/10 px-3 py-2 text-sm text-rose-200"
          >
            {errors.form}
          </p>
        )}

        <div className="flex flex-wrap gap-3">
          {/* Busy, not disabled: it keeps the focus until the summary below takes it. */}
          <button type="submit" className="btn-ghost min-h-11" aria-disabled={busy || undefined}>
            {preview.isPending && <Spinner size="sm" decorative />}
            {preview.isPending ? t.checking : t.check}
          </button>
        </div>
      </form>

      {checked && view && (
        <PreviewSummary
          preview={checked.preview}
          view={view}
          starting={start.isPending}
          onStart={() => void onStart()}
        />
      )}
    </section>
  );
}
