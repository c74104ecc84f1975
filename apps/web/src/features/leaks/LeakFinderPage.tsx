import {
  LEAK_FIELD_TYPES,
  LEAK_MAX_ROWS,
  type LeakFieldType,
  type LeakRow,
  type LeakSearchResponse,
  leakRowError,
  messages,
} from '@footprint/domain';
import { type FormEvent, useCallback, useEffect, useRef, useState } from 'react';
import { toast } from 'react-toastify';
import { CaseFiling } from '../../components/CaseFiling.tsx';
import { Icon } from '../../components/Icon.tsx';
import { Overlay } from '../../components/Overlay.tsx';
import { useAuth } from '../../lib/auth-context.ts';
import {
  useCaseReferenceDraft,
  useCaseReferenceField,
  useLegalBasisDraft,
} from '../../lib/case-reference.ts';
import { fieldMessages } from '../../lib/field-errors.ts';
import { type LeakNeedles, needlesOf } from '../../lib/leak-highlight.ts';
import { type AnsweredFailure, maySpend, usePaidAnswer } from '../../lib/paid-answer.ts';
import { useSearchLeaks } from './api/searchLeaks.ts';
import { LeakResults } from './components/LeakResults.tsx';
import { LeakRowsEditor } from './components/LeakRowsEditor.tsx';

/**
 * /leak-data-finder (spec §2.6, §4 leak finder, §5, §7, §8): up to four rows of type and value, searched
 * together. Search checks credits first, then every row; a new search is charged once by the server,
 * and turning its pages re-sends the same rows (free, `cached: true`) without a credit check here, so a
 * search bought with the last credit can still be read to the end. The case reference is
 * checked after the rows and sent with the search and its pages.
 */

type RowId = LeakRow['id'];

interface Answer {
  response: LeakSearchResponse;
  /** The rows as searched: pages re-send them, and highlighting compares against them. */
  query: LeakRow[];
  /** The case reference the search was made with; its pages carry the same one. */
  caseReference: string | undefined;
  /** The legal basis the search stated itself; its pages carry the same one. */
  legalBasis: Record<string, unknown> | undefined;
  needles: LeakNeedles;
  /** Whether this answer came from pressing Search (not from turning a page). */
  fresh: boolean;
}

/** Phone numbers are often pasted formatted ('+91 98765-43210'); the rule of spec §5 counts digits. */
const cleanValue = (type: LeakFieldType, value: string): string =>
  type === 'phone' ? value.replace(/[\s().+-]/g, '') : value.trim();

const nonEmpty = (value: unknown): string | undefined =>
  typeof value === 'string' && value.trim() ? value.trim() : undefined;

/** A refused leak search says the server's `error`, then its `details`, then its message. */
const refusalText = ({ body }: AnsweredFailure): string => {
  const details = body.details;
  return (
    nonEmpty(body.error) ??
    nonEmpty(details) ??
    nonEmpty(Array.isArray(details) ? details[0] : undefined) ??
    nonEmpty(body.message) ??
    messages.leaks.failed
  );
};

export default function LeakFinderPage() {
  const { user } = useAuth();
  const paidAnswer = usePaidAnswer();
  const search = useSearchLeaks();
  const nextId = useRef(2);
  const [rows, setRows] = useState<LeakRow[]>(() => [{ id: 1, type: 'name', value: '' }]);
  const [answer, setAnswer] = useState<Answer | null>(null);
  const caseReference = useCaseReferenceField(useCaseReferenceDraft(user?.id), {
    legalBasis: useLegalBasisDraft(user?.id),
  });
  const inputs = useRef(new Map<RowId, HTMLInputElement>());
  const pendingFocus = useRef<RowId | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const focusResults = useRef(false);
  const ticket = useRef(0);
  const searching = search.isPending;

  const inputRef = useCallback((id: RowId, element: HTMLInputElement | null) => {
    if (element) inputs.current.set(id, element);
    else inputs.current.delete(id);
  }, []);

  const focusRow = (id: RowId | undefined) => {
    if (id !== undefined) inputs.current.get(id)?.focus();
  };

  // A row added or retyped gets the focus once it is in the page.
  useEffect(() => {
    if (pendingFocus.current === null) return;
    focusRow(pendingFocus.current);
    pendingFocus.current = null;
  });

  // After each answer the summary heading takes the focus, so keyboard and screen-reader users land on
  // the new page of results (and the page scrolls there).
  useEffect(() => {
    if (!answer || !focusResults.current) return;
    focusResults.current = false;
    heading.current?.focus({ preventScroll: true });
    heading.current?.scrollIntoView({ block: 'start' });
  }, [answer]);

  const updateRow = (id: RowId, patch: Partial<LeakRow>) =>
    setRows((current) => current.map((row) => (row.id === id ? { ...row, ...patch } : row)));

  // Spec §4: changing a row's type clears what was typed in it. The focus stays on the selector: arrow
  // keys on a closed select change it at once, and moving the focus away would stop them.
  const onTypeChange = (id: RowId, type: LeakFieldType) =>
    updateRow(id, { type, value: '', isValid: undefined, error: undefined });

  const onValueChange = (id: RowId, value: string) =>
    updateRow(id, { value, isValid: undefined, error: undefined });

  const onAdd = () => {
    if (rows.length >= LEAK_MAX_ROWS) {
      toast.warning(messages.leaks.maxRows);
      return;
    }
    // The next row starts on a type not used yet: a second Name row is rarely what is wanted.
    const used = new Set(rows.map((row) => row.type));
    const type = LEAK_FIELD_TYPES.find((candidate) => !used.has(candidate)) ?? 'name';
    const id = nextId.current++;
    setRows((current) => [...current, { id, type, value: '' }]);
    pendingFocus.current = id;
  };

  const onRemove = (id: RowId) => {
    const index = rows.findIndex((row) => row.id === id);
    setRows((current) => current.filter((row) => row.id !== id));
    pendingFocus.current = rows[index - 1]?.id ?? rows[0]?.id ?? null;
  };

  const failed = (error: unknown, fresh: boolean, sent: LeakRow[]) => {
    const failure = paidAnswer.failed(error, {
      failed: messages.leaks.failed,
      refusal: refusalText,
      caseReference: fresh ? caseReference : undefined,
    });
    if (fresh && 'status' in failure && failure.status === 422) showRowErrors(error, sent);
  };

  /**
   * The server checks every row again (spec §5, same rules); its 422 lists one message per row under
   * `errors.fields`, '' for a valid row. Those go under the rows they are about.
   */
  const showRowErrors = (error: unknown, sent: LeakRow[]) => {
    const list = fieldMessages(error, 'fields');
    if (list.length !== sent.length) return;
    const byId = new Map<RowId, string>();
    sent.forEach((row, index) => {
      const message = nonEmpty(list[index]);
      if (message) byId.set(row.id, message);
    });
    if (byId.size === 0) return;
    setRows((current) =>
      current.map((row) => (byId.has(row.id) ? { ...row, isValid: false, error: byId.get(row.id) } : row)),
    );
  };

  const run = async (
    fields: LeakRow[],
    page: number,
    fresh: boolean,
    needles: LeakNeedles,
    reference: string | undefined,
    basis: Record<string, unknown> | undefined,
  ) => {
    ticket.current += 1;
    const mine = ticket.current;
    try {
      const response = await search.mutateAsync({
        fields,
        page,
        caseReference: reference,
        legalBasis: basis,
      });
      paidAnswer.paid(response);
      if (mine !== ticket.current) return;
      focusResults.current = true;
      setAnswer({ response, query: fields, caseReference: reference, legalBasis: basis, needles, fresh });
    } catch (error) {
      if (mine !== ticket.current) return;
      // A failed new search leaves no answer on screen that belongs to other rows; a failed page turn
      // keeps the page that was showing.
      if (fresh) setAnswer(null);
      failed(error, fresh, fields);
    }
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (searching) return;
    // Spec §5: the credit check comes before any row message is shown.
    if (!maySpend(user)) {
      toast.warning(messages.credits.insufficientUpgrade);
      return;
    }
    const checked = rows.map((row) => {
      const error = leakRowError(row.type, cleanValue(row.type, row.value));
      return { ...row, isValid: error === null, error: error ?? undefined };
    });
    setRows(checked);
    const firstInvalid = checked.find((row) => !row.isValid);
    if (firstInvalid) {
      toast.error(firstInvalid.error ?? messages.leaks.invalidInput);
      focusRow(firstInvalid.id);
      return;
    }
    const referenceProblem = caseReference.check();
    if (referenceProblem) {
      toast.error(referenceProblem);
      return;
    }
    const fields = checked.map((row) => ({ ...row, value: cleanValue(row.type, row.value) }));
    void run(fields, 1, true, needlesOf(fields), caseReference.param, caseReference.legalBasisParam);
  };

  const onPageChange = (page: number) => {
    if (!answer || searching) return;
    void run(answer.query, page, false, answer.needles, answer.caseReference, answer.legalBasis);
  };

  return (
    <div className="mx-auto flex w-full max-w-7xl flex-1 flex-col px-4 py-8 sm:px-6 lg:py-12">
      <div className="mx-auto w-full max-w-3xl">
        <div className="text-center">
          <p className="eyebrow">{messages.taglines.footprint}</p>
          <h1 className="mt-3 text-3xl font-bold tracking-tight text-text sm:text-4xl">
            {messages.mainNav.leakFinder}
          </h1>
          <p className="mx-auto mt-3 max-w-xl text-sm text-balance text-muted sm:text-base">
            {messages.leaks.lead}
          </p>
        </div>

        <form
          noValidate
          onSubmit={onSubmit}
          aria-busy={searching}
          aria-label={messages.mainNav.leakFinder}
          className="card mt-8 w-full p-4 sm:p-6"
        >
          <LeakRowsEditor
            rows={rows}
            disabled={searching}
            onTypeChange={onTypeChange}
            onValueChange={onValueChange}
            onAdd={onAdd}
            onRemove={onRemove}
            inputRef={inputRef}
          />
          <CaseFiling className="mt-5" disabled={searching} {...caseReference.field} />
          <div className="mt-5 flex flex-col-reverse items-stretch gap-3 sm:flex-row sm:items-center sm:justify-between">
            <p className="text-center text-xs text-muted tabular-nums sm:text-left">
              {messages.leaks.rowCount(rows.length, LEAK_MAX_ROWS)}
            </p>
            <button type="submit" className="btn-primary py-2.5 text-base sm:min-w-40" disabled={searching}>
              <Icon className="size-5" strokeWidth={2}>
                <circle cx="11" cy="11" r="6.5" />
                <path d="m20 20-4.2-4.2" />
              </Icon>
              {messages.search.submit}
            </button>
          </div>
        </form>
      </div>

      {answer && (
        <LeakResults
          response={answer.response}
          needles={answer.needles}
          cachedNotice={answer.fresh}
          busy={searching}
          onPageChange={onPageChange}
          headingRef={heading}
          watch={{ kind: 'leak', query: answer.query, caseReference: answer.caseReference }}
        />
      )}

      {searching && <Overlay message={messages.leaks.searching} />}
    </div>
  );
}
