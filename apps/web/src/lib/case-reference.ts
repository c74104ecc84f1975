import {
  CASE_REFERENCE_MAX_LENGTH,
  type CaseReferencePolicyResponse,
  casesMessages,
  type ErrorBody,
  LEGAL_BASIS_DECLARATIONS,
  messages,
} from '@footprint/domain';
import { useQuery } from '@tanstack/react-query';
import { type RefObject, useCallback, useEffect, useId, useRef, useState } from 'react';
import { api, isApiError } from './api.ts';
import { firstFieldErrors } from './field-errors.ts';
import {
  checkLegalBasis,
  emptyLegalBasisDraft,
  errorsAfterEdit,
  isCurrentKind,
  type LegalBasisDraft,
  type LegalBasisErrors,
  legalBasisInputOf,
} from './legal-basis-draft.ts';

/**
 * The case reference of a search (the investigation it is made for, recorded in the audit trail): optional unless the deployment requires one. The policy
 * comes from GET /api/case-reference-policy; every search screen reads it through this hook and sends
 * the trimmed value (or nothing) with its search call.
 */

/** The server refuses longer references (422) with `messages.caseReference.tooLong`. */
export { CASE_REFERENCE_MAX_LENGTH };

export type CaseReferencePolicy = Required<CaseReferencePolicyResponse>;

export const caseReferencePolicyKey = ['case-reference-policy'] as const;

/**
 * GET /api/case-reference-policy (any signed-in user): `{ required, legal_basis_required }`, each
 * true only when the server says exactly true.
 */
export async function fetchCaseReferencePolicy(signal?: AbortSignal): Promise<CaseReferencePolicy> {
  try {
    const answer = await api.get<Partial<CaseReferencePolicy>>('/api/case-reference-policy', { signal });
    return {
      required: answer?.required === true,
      legal_basis_required: answer?.legal_basis_required === true,
    };
  } catch (error) {
    // A server without the policy endpoint never requires a reference; it would refuse the search
    // itself otherwise, and that refusal reaches the form like any other 422.
    if (isApiError(error) && error.status === 404) return { required: false, legal_basis_required: false };
    throw error;
  }
}

/**
 * The deployment's policy for the forms: `required` is false while it loads or when it cannot be read
 * (the server checks again on every search and answers 422 if a reference was needed).
 */
export function useCaseReferencePolicy(): CaseReferencePolicy & { loading: boolean } {
  const query = useQuery({
    queryKey: caseReferencePolicyKey,
    queryFn: ({ signal }) => fetchCaseReferencePolicy(signal),
    staleTime: 60_000,
  });
  return {
    required: query.data?.required ?? false,
    legal_basis_required: query.data?.legal_basis_required ?? false,
    loading: query.isPending,
  };
}

/** What a search sends: the trimmed reference, or `undefined` (no key at all) when there is none. */
export function caseReferenceParam(value: string | null | undefined): string | undefined {
  const trimmed = (value ?? '').trim();
  return trimmed ? trimmed : undefined;
}

/** The browser's check before a search; the same messages as the server's 422. `null` when fine. */
export function caseReferenceError(value: string, required: boolean): string | null {
  const trimmed = value.trim();
  if (required && !trimmed) return messages.caseReference.required;
  if (trimmed.length > CASE_REFERENCE_MAX_LENGTH) return messages.caseReference.tooLong;
  return null;
}

const draftKey = (userId: unknown) => `footprint:case-reference:${String(userId ?? 'anonymous')}`;

function readDraft(key: string): string {
  try {
    return window.sessionStorage.getItem(key) ?? '';
  } catch {
    return '';
  }
}

/**
 * The case reference being typed, shared by the search screens of one tab and one user: an
 * investigator runs several searches for one case, so the field keeps its value across them (and
 * across 'New Search'), until the tab is closed or the user changes it.
 */
export function useCaseReferenceDraft(userId: unknown): [string, (value: string) => void] {
  const key = draftKey(userId);
  const [draft, setDraft] = useState<{ key: string; value: string }>(() => ({ key, value: readDraft(key) }));
  const value = draft.key === key ? draft.value : readDraft(key);
  const update = useCallback(
    (next: string) => {
      setDraft({ key, value: next });
      try {
        if (next) window.sessionStorage.setItem(key, next);
        else window.sessionStorage.removeItem(key);
      } catch {
        // Without sessionStorage the value lives as long as the page.
      }
    },
    [key],
  );
  return [value, update];
}

/** The words of the search's own legal basis section (domain messages). */
export const searchBasisTexts = messages.caseReference.searchBasis;

const basisDraftKey = (userId: unknown) => `footprint:search-legal-basis:${String(userId ?? 'anonymous')}`;

/** A stored draft, read defensively (another build may have written it): anything else is none. */
export function parseLegalBasisDraft(text: string | null): LegalBasisDraft {
  if (!text) return emptyLegalBasisDraft;
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value !== 'object' || value === null) return emptyLegalBasisDraft;
    const { kind, values } = value as { kind?: unknown; values?: unknown };
    const kept: Record<string, string> = {};
    if (typeof values === 'object' && values !== null)
      for (const [name, fact] of Object.entries(values)) if (typeof fact === 'string') kept[name] = fact;
    return { kind: typeof kind === 'string' && isCurrentKind(kind) ? kind : '', values: kept };
  } catch {
    return emptyLegalBasisDraft;
  }
}

function readBasisDraft(key: string): LegalBasisDraft {
  try {
    return parseLegalBasisDraft(window.sessionStorage.getItem(key));
  } catch {
    return emptyLegalBasisDraft;
  }
}

/**
 * The legal basis a search states itself, as its form holds it, shared like the case reference by the
 * search screens of one tab and one user (sessionStorage): an investigator searching outside a case
 * states it once, not for each search.
 */
export function useLegalBasisDraft(userId: unknown): [LegalBasisDraft, (draft: LegalBasisDraft) => void] {
  const key = basisDraftKey(userId);
  const [draft, setDraft] = useState<{ key: string; value: LegalBasisDraft }>(() => ({
    key,
    value: readBasisDraft(key),
  }));
  const value = draft.key === key ? draft.value : readBasisDraft(key);
  const update = useCallback(
    (next: LegalBasisDraft) => {
      setDraft({ key, value: next });
      try {
        const empty = !next.kind && Object.values(next.values).every((fact) => !fact);
        if (empty) window.sessionStorage.removeItem(key);
        else window.sessionStorage.setItem(key, JSON.stringify(next));
      } catch {
        // Without sessionStorage the draft lives as long as the page.
      }
    },
    [key],
  );
  return [value, update];
}

/** The parts of `casesMessages.legalBasisMissing(reference)` around the reference. */
const [missingBefore = '', missingAfter = ''] = casesMessages.legalBasisMissing('\u0000').split('\u0000');

/** Whether a message is the server's "this case has no legal basis yet" (whatever its reference). */
export const isLegalBasisMissing = (message: string | null | undefined): boolean =>
  !!message && message.startsWith(missingBefore) && message.endsWith(missingAfter);

/**
 * The server's messages about a stated legal basis (a 422, or the intel searches' 400): `legal_basis`
 * (about the whole) and `legal_basis.<field>`, keyed by input as `checkLegalBasis` keys them. `null`
 * when the refusal names no part of it.
 */
export function legalBasisRefusalOf(status: number, body: ErrorBody): LegalBasisErrors | null {
  if (status !== 422 && status !== 400) return null;
  const errors: Record<string, string[]> = {};
  for (const [field, message] of Object.entries(firstFieldErrors(body))) {
    if (field === 'legal_basis') errors.legal_basis = [message];
    else if (field.startsWith('legal_basis.')) {
      const name = field.slice('legal_basis.'.length).split('.')[0] ?? '';
      errors[name || 'legal_basis'] = [message];
    }
  }
  return Object.keys(errors).length > 0 ? errors : null;
}

/**
 * The message of a refused search when the refusal is about the case reference (a 422 with
 * `errors.case_reference`, or one of its messages) or about the legal basis the search stated (a 422,
 * or an intel search's 400, with `errors.legal_basis…`), so the form can show it under its field.
 */
export function caseReferenceRefusalOf(status: number, body: ErrorBody): string | null {
  const basis = legalBasisRefusalOf(status, body);
  if (basis) return Object.values(basis)[0]?.[0] ?? null;
  if (status !== 422) return null;
  const listed = firstFieldErrors(body).case_reference;
  if (listed) return listed;
  const message = body.message;
  return message === messages.caseReference.required ||
    message === messages.caseReference.tooLong ||
    message === casesMessages.legalBasisRequired
    ? message
    : null;
}

/** `caseReferenceRefusalOf` for a caught error: `null` unless it is the server's refusal. */
export const caseReferenceRefusal = (error: unknown): string | null =>
  isApiError(error) ? caseReferenceRefusalOf(error.status, error.body) : null;

/**
 * The legal basis section of `<CaseFiling>` (the search's own basis), when the form takes one and the
 * deployment requires a legal basis for every search.
 */
export interface SearchLegalBasisState {
  /** Prefix of its inputs' ids. */
  idPrefix: string;
  draft: LegalBasisDraft;
  onChange: (draft: LegalBasisDraft) => void;
  /** The browser's check's (or the server's) messages by input. */
  errors: LegalBasisErrors;
  /** A refusal about the basis as a whole (none stated outside a case). */
  refusal: string | null;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

/** What `useCaseReferenceField` hands to `<CaseReferenceField>` (and `<CaseFiling>`). */
export interface CaseReferenceFieldState {
  value: string;
  onChange: (value: string) => void;
  required: boolean;
  error: string | null;
  inputRef: RefObject<HTMLInputElement | null>;
  /** The search's own legal basis: present only on a form that sends one, when the policy asks for it. */
  legalBasis?: SearchLegalBasisState | undefined;
}

/** The order the inputs of a basis are checked and focused in. */
const firstBadInput = (errors: LegalBasisErrors, draft: LegalBasisDraft): string => {
  const facts = draft.kind ? LEGAL_BASIS_DECLARATIONS[draft.kind].fields.map((fact) => fact.name) : [];
  const order = ['kind', ...facts, 'purpose'];
  return (
    order.find((name) => errors[name]?.length) ??
    Object.keys(errors).find((name) => name !== 'legal_basis') ??
    'kind'
  );
};

export interface CaseReferenceFieldOptions {
  /**
   * The draft of the legal basis the search may state itself (`useLegalBasisDraft`): given by the
   * forms whose search takes `legal_basis` (not bulk jobs nor watches, which use their case's).
   */
  legalBasis?: readonly [LegalBasisDraft, (draft: LegalBasisDraft) => void];
}

/**
 * The case-reference wiring of a search form, around the value the form keeps (`[value, setValue]`,
 * e.g. from `useCaseReferenceDraft`): the policy, the message under the field and focusing it.
 * `check()` is the browser's check before a search: the message is shown (or cleared) and, when it
 * refuses, the field is focused and the message returned. `showRefusal(error)` does the same for a
 * server refusal about the reference (or the stated basis) and says whether it was one.
 *
 * With `options.legalBasis`, and the deployment's `legal_basis_required` on, the form also states the
 * search's own legal basis (`field.legalBasis`, drawn by `<CaseFiling>`): `check()` then refuses a
 * search with neither a case nor a basis (`casesMessages.legalBasisRequired`) and checks a stated
 * basis with the server's own schema, focusing its first bad input; `legalBasisParam` is what the POST
 * searches send (`undefined` while no kind is chosen) and `legalBasisQuery` its JSON text for GET
 * /api/tel and /api/email.
 */
export function useCaseReferenceField(
  [value, setValue]: readonly [string, (value: string) => void],
  options: CaseReferenceFieldOptions = {},
) {
  const policy = useCaseReferencePolicy();
  const [error, setError] = useState<string | null>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const idPrefix = useId();

  const refuse = useCallback((message: string | null) => {
    setError(message);
    if (message) inputRef.current?.focus();
    return message;
  }, []);
  const onChange = useCallback(
    (next: string) => {
      setValue(next);
      setError(null);
    },
    [setValue],
  );

  // The search's own legal basis.
  const [draft, setDraft] = options.legalBasis ?? [emptyLegalBasisDraft, () => undefined];
  const [basisErrors, setBasisErrors] = useState<LegalBasisErrors>({});
  const [basisRefusal, setBasisRefusal] = useState<string | null>(null);
  /** Set when the server asked for a basis the policy (stale, or still loading) did not. */
  const [serverAsked, setServerAsked] = useState(false);
  /** The user's choice of open or closed; `null`: open unless a case reference is filled. */
  const [openChoice, setOpenChoice] = useState<boolean | null>(null);
  /** The input to focus once it is on the page and enabled (the section may have just opened). */
  const [focusWanted, setFocusWanted] = useState<string | null>(null);
  const shown = !!options.legalBasis && (policy.legal_basis_required || serverAsked);
  const reference = caseReferenceParam(value);
  const open = openChoice ?? !reference;

  useEffect(() => {
    if (!focusWanted) return;
    const element = document.getElementById(`${idPrefix}-lb-${focusWanted}`);
    if (!element || (element as HTMLInputElement).disabled) return;
    element.focus();
    if (document.activeElement === element) setFocusWanted(null);
  });

  const refuseBasis = (errors: LegalBasisErrors, refusal: string | null, focus: string) => {
    setBasisErrors(errors);
    setBasisRefusal(refusal);
    setOpenChoice(true);
    setFocusWanted(focus);
  };

  const onBasisChange = useCallback(
    (next: LegalBasisDraft) => {
      setBasisErrors((current) => errorsAfterEdit(current, draft, next));
      setBasisRefusal(null);
      setDraft(next);
    },
    [draft, setDraft],
  );

  const basisParam = shown ? (legalBasisInputOf(draft) ?? undefined) : undefined;
  const legalBasis: SearchLegalBasisState | undefined = shown
    ? {
        idPrefix,
        draft,
        onChange: onBasisChange,
        errors: basisErrors,
        refusal: basisRefusal,
        open,
        onOpenChange: setOpenChoice,
      }
    : undefined;

  const field: CaseReferenceFieldState = {
    value,
    onChange,
    required: policy.required,
    error,
    inputRef,
    legalBasis,
  };
  return {
    field,
    /** What the search sends: the trimmed reference, or `undefined`. */
    param: reference,
    /** The stated legal basis a POST search sends (`legal_basis`), or `undefined`. */
    legalBasisParam: basisParam,
    /** The same as JSON text, for the query of GET /api/tel and /api/email, or `undefined`. */
    legalBasisQuery: basisParam ? JSON.stringify(basisParam) : undefined,
    check: (): string | null => {
      const problem = refuse(caseReferenceError(value, policy.required));
      if (problem || !shown) return problem;
      if (!draft.kind) {
        setBasisErrors({});
        if (reference) {
          setBasisRefusal(null);
          return null;
        }
        refuseBasis({}, casesMessages.legalBasisRequired, 'kind');
        return casesMessages.legalBasisRequired;
      }
      const checked = checkLegalBasis(draft);
      if (checked.ok) {
        setBasisErrors({});
        setBasisRefusal(null);
        return null;
      }
      refuseBasis(checked.errors, null, firstBadInput(checked.errors, draft));
      return Object.values(checked.errors)[0]?.[0] ?? casesMessages.legalBasisRequired;
    },
    showRefusal: (failure: unknown): boolean => {
      if (!isApiError(failure)) return false;
      const basis = options.legalBasis ? legalBasisRefusalOf(failure.status, failure.body) : null;
      if (basis) {
        refuseBasis(basis, null, firstBadInput(basis, draft));
        return true;
      }
      const refusal = caseReferenceRefusalOf(failure.status, failure.body);
      if (!refusal) return false;
      if (options.legalBasis && refusal === casesMessages.legalBasisRequired) {
        setServerAsked(true);
        refuseBasis({}, refusal, 'kind');
        return true;
      }
      refuse(refusal);
      // The case has no basis yet: the search may state its own, so that section opens too.
      if (options.legalBasis && isLegalBasisMissing(refusal)) {
        setServerAsked(true);
        setOpenChoice(true);
      }
      return true;
    },
  };
}
