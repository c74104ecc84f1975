import {
  CASE_REFERENCE_MAX_LENGTH,
  type CaseReferencePolicyResponse,
  type ErrorBody,
  messages,
} from '@footprint/domain';
import { useQuery } from '@tanstack/react-query';
import { type RefObject, useCallback, useRef, useState } from 'react';
import { api, isApiError } from './api.ts';
import { firstFieldErrors } from './field-errors.ts';

/**
 * The case reference of a search (the investigation it is made for, recorded in the audit trail): optional unless the deployment requires one. The policy
 * comes from GET /api/case-reference-policy; every search screen reads it through this hook and sends
 * the trimmed value (or nothing) with its search call.
 */

/** The server refuses longer references (422) with `messages.caseReference.tooLong`. */
export { CASE_REFERENCE_MAX_LENGTH };

export type CaseReferencePolicy = CaseReferencePolicyResponse;

export const caseReferencePolicyKey = ['case-reference-policy'] as const;

/** GET /api/case-reference-policy (any signed-in user): `{ required }`. */
export async function fetchCaseReferencePolicy(signal?: AbortSignal): Promise<CaseReferencePolicy> {
  try {
    const answer = await api.get<Partial<CaseReferencePolicy>>('/api/case-reference-policy', { signal });
    return { required: answer?.required === true };
  } catch (error) {
    // A server without the policy endpoint never requires a reference; it would refuse the search
    // itself otherwise, and that refusal reaches the form like any other 422.
    if (isApiError(error) && error.status === 404) return { required: false };
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
  return { required: query.data?.required ?? false, loading: query.isPending };
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

/**
 * The message of a refused search when the refusal is about the case reference (a 422 with
 * `errors.case_reference`, or one of its messages), so the form can show it under the field.
 */
export function caseReferenceRefusalOf(status: number, body: ErrorBody): string | null {
  if (status !== 422) return null;
  const listed = firstFieldErrors(body).case_reference;
  if (listed) return listed;
  const message = body.message;
  return message === messages.caseReference.required || message === messages.caseReference.tooLong
    ? message
    : null;
}

/** `caseReferenceRefusalOf` for a caught error: `null` unless it is the server's refusal. */
export const caseReferenceRefusal = (error: unknown): string | null =>
  isApiError(error) ? caseReferenceRefusalOf(error.status, error.body) : null;

/** What `useCaseReferenceField` hands to `<CaseReferenceField>`. */
export interface CaseReferenceFieldState {
  value: string;
  onChange: (value: string) => void;
  required: boolean;
  error: string | null;
  inputRef: RefObject<HTMLInputElement | null>;
}

/**
 * The case-reference wiring of a search form, around the value the form keeps (`[value, setValue]`,
 * e.g. from `useCaseReferenceDraft`): the policy, the message under the field and focusing it.
 * `check()` is the browser's check before a search: the message is shown (or cleared) and, when it
 * refuses, the field is focused and the message returned. `showRefusal(error)` does the same for a
 * server 422 about the reference and says whether it was one.
 */
export function useCaseReferenceField([value, setValue]: readonly [string, (value: string) => void]) {
  const policy = useCaseReferencePolicy();
  const [error, setError] = useState<string | null>(null);
  const inputRef = useRef<HTMLInputElement>(null);

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

  const field: CaseReferenceFieldState = { value, onChange, required: policy.required, error, inputRef };
  return {
    field,
    /** What the search sends: the trimmed reference, or `undefined`. */
    param: caseReferenceParam(value),
    check: () => refuse(caseReferenceError(value, policy.required)),
    showRefusal: (failure: unknown) => {
      const refusal = caseReferenceRefusal(failure);
      if (refusal) refuse(refusal);
      return refusal !== null;
    },
  };
}
