import { type ErrorBody, type HeldSearch, messages, type User } from '@footprint/domain';
import { useCallback, useMemo, useRef } from 'react';
import { toast } from 'react-toastify';
import { showHeldNotice } from '../components/HeldSearchNotice.tsx';
import { HeldSearchError, isApiError } from './api.ts';
import { useAuth } from './auth-context.ts';
import { caseReferenceRefusalOf } from './case-reference.ts';
import { firstFieldErrors } from './field-errors.ts';

/**
 * The answer of a paid call (a search, a detail lookup, a credit report), handled one way everywhere:
 * the balance it carries goes into the signed-in user, so the header shows it at once; a refusal is
 * read into one of a few outcomes (below) and said with the same toasts on every screen.
 *
 * - no answer (network down, not an API error): the screen's own failure text;
 * - 401: nothing here, the app-wide session rule (toast and /login, installed in app/AppRoot.tsx) has it;
 * - 202, held for a supervisor's approval (an admin named the kind sensitive; nothing charged, no
 *   result): the server's message as a notice that stays, with the way to My requests (/approvals);
 * - 402: a warning with the server's message ('Insufficient credits') and the balance it reports;
 * - 422 about the case reference: its message under the case-reference field, and as a toast;
 * - 503 (no source of the kind in this deployment, nothing charged): the server's message, whatever
 *   the screen's own words for a failure;
 * - any other refusal (422 field errors, 4xx, 5xx): the server's message or the screen's own text.
 */

/**
 * The browser's check before a paid call (spec §5: the credit check comes first): a balance above
 * zero. Without one the screen warns `messages.credits.insufficientUpgrade` and calls nothing.
 */
export const hasCredits = (credits: unknown): boolean => Number(credits) > 0;

/**
 * What the signed-in user may spend on a search now: their own credits and what their unit's pool may
 * still give them this month (`pool.available`, GET /api/user). The one sum every pre-check uses, so a
 * pool member with no credits of their own is not turned away before the server is asked.
 */
export function spendableCredits(user: Pick<User, 'credits' | 'pool'> | null | undefined): number {
  const own = Number(user?.credits);
  const pool = Number(user?.pool?.available);
  return (Number.isFinite(own) ? Math.max(0, own) : 0) + (Number.isFinite(pool) ? Math.max(0, pool) : 0);
}

/** The pre-check of every paid call: `hasCredits` of what the user may spend (own and pool). */
export const maySpend = (user: Pick<User, 'credits' | 'pool'> | null | undefined): boolean =>
  hasCredits(spendableCredits(user));

/** A refusal the server answered (every outcome but 'no-answer' and 'session-ended'). */
export interface AnsweredFailure {
  kind: 'insufficient' | 'case-reference' | 'invalid' | 'unavailable' | 'refused';
  status: number;
  body: ErrorBody;
  /** The balance after the refusal, when the server said it. */
  credits: number | undefined;
  /** The server's message, trimmed; `undefined` when it sent none. */
  message: string | undefined;
  /** The server's field messages (422 `errors`), first message per field. */
  fields: Record<string, string>;
}

/** A search held for a supervisor's approval (its 202): no result, nothing charged, the notice said. */
export interface HeldFailure {
  kind: 'held';
  held: HeldSearch;
}

export type PaidFailure = { kind: 'no-answer' } | { kind: 'session-ended' } | HeldFailure | AnsweredFailure;

const nonEmpty = (value: unknown): string | undefined =>
  typeof value === 'string' && value.trim() ? value.trim() : undefined;

/**
 * What a failed paid call means, from its HTTP status and error body alone (status 0: no answer).
 * 'insufficient' is a 402, 'case-reference' a 422 about the case reference, 'invalid' any other 422,
 * 'unavailable' a 503 (the deployment has no source for the search), 'refused' anything else.
 */
export function decidePaidFailure(status: number, body: ErrorBody): PaidFailure {
  if (status === 0) return { kind: 'no-answer' };
  if (status === 401) return { kind: 'session-ended' };
  const kind: AnsweredFailure['kind'] =
    status === 402
      ? 'insufficient'
      : caseReferenceRefusalOf(status, body) !== null
        ? 'case-reference'
        : status === 422
          ? 'invalid'
          : status === 503
            ? 'unavailable'
            : 'refused';
  return {
    kind,
    status,
    body,
    credits: typeof body.credits === 'number' ? body.credits : undefined,
    message: nonEmpty(body.message),
    fields: firstFieldErrors(body),
  };
}

/** `decidePaidFailure` for whatever a paid call threw. */
export const paidFailureOf = (error: unknown): PaidFailure =>
  error instanceof HeldSearchError
    ? { kind: 'held', held: error.held }
    : isApiError(error)
      ? decidePaidFailure(error.status, error.body)
      : { kind: 'no-answer' };

/** What says nothing more on a screen: a 401 (the session rule speaks) and a held search (its notice). */
export const saidElsewhere = (failure: PaidFailure): failure is { kind: 'session-ended' } | HeldFailure =>
  failure.kind === 'session-ended' || failure.kind === 'held';

/** The words of one screen for its failures. */
export interface PaidFailureWords {
  /** Said when no answer came, and for a refusal without a message of the server's. */
  failed: string;
  /** What a refusal other than 401, 402 and 503 says, when not the server's message (or `failed`). */
  refusal?: (failure: AnsweredFailure) => string;
}

export interface PaidFailureToast {
  level: 'warning' | 'error';
  text: string;
}

/**
 * The one toast a failure gets on the common path; `null` for a 401 (the session rule speaks) and for
 * a held search (its notice, said once by `usePaidAnswer().refused`).
 */
export function paidFailureToast(failure: PaidFailure, words: PaidFailureWords): PaidFailureToast | null {
  if (failure.kind === 'no-answer') return { level: 'error', text: words.failed };
  if (saidElsewhere(failure)) return null;
  if (failure.kind === 'insufficient')
    return { level: 'warning', text: failure.message ?? messages.credits.insufficient };
  // The server says which search this deployment cannot answer and that nothing was charged.
  if (failure.kind === 'unavailable') return { level: 'error', text: failure.message ?? words.failed };
  return { level: 'error', text: words.refusal?.(failure) ?? failure.message ?? words.failed };
}

/** What `usePaidAnswer().failed` accepts besides the words. */
export interface PaidFailureOptions extends PaidFailureWords {
  /** The form's case-reference field (`useCaseReferenceField`): a refusal about it is shown under it. */
  caseReference?: { showRefusal: (error: unknown) => boolean };
  /**
   * For a screen that answers beside its action (the case pivot's dialog, the bulk panel): every
   * failure but a 401, a 402 and a case-reference refusal shown under `caseReference` comes here, with
   * the text its toast would have said, instead of a toast. The 402 warning stays the common toast.
   */
  inline?: (failure: ShownFailure, text: string) => void;
}

/** A failure a screen says: anything but a 401 and a held search. */
export type ShownFailure = Exclude<PaidFailure, { kind: 'session-ended' } | HeldFailure>;

/**
 * The paid-answer handling of a screen. `paid(answer)` after a success merges the balance the answer
 * carries (and says whether it carried one); `refused(error)` after a failure merges the balance a
 * refusal carries, says a held search's notice (the one place a 202 is said) and returns what the
 * failure was, for screens whose wording is their own (they say nothing of what `saidElsewhere`);
 * `failed(error, options)` does that and says it the common way (or beside the action, `inline`).
 */
export function usePaidAnswer() {
  const { mergeUser, user, refetch } = useAuth();
  // A pool member's answer carries only their own balance: the pool's part is read again (GET /api/user).
  const pooled = useRef(false);
  pooled.current = Boolean(user?.pool);

  const mergeCredits = useCallback(
    (credits: unknown): boolean => {
      if (pooled.current) void refetch().catch(() => undefined);
      if (typeof credits !== 'number') return false;
      mergeUser({ credits });
      return true;
    },
    [mergeUser, refetch],
  );

  const refused = useCallback(
    (error: unknown): PaidFailure => {
      const failure = paidFailureOf(error);
      // Held: nothing was charged, so the balance is neither merged nor read again.
      if (failure.kind === 'held') showHeldNotice(failure.held);
      else if ('credits' in failure) mergeCredits(failure.credits);
      return failure;
    },
    [mergeCredits],
  );

  const failed = useCallback(
    (error: unknown, options: PaidFailureOptions): PaidFailure => {
      const failure = refused(error);
      const underField = failure.kind === 'case-reference' && options.caseReference?.showRefusal(error);
      const note = paidFailureToast(failure, options);
      if (!note || saidElsewhere(failure)) return failure;
      if (options.inline && failure.kind !== 'insufficient') {
        if (!underField) options.inline(failure, note.text);
      } else toast[note.level](note.text);
      return failure;
    },
    [refused],
  );

  return useMemo(
    () => ({
      paid: (answer: { credits?: unknown } | null | undefined): boolean => mergeCredits(answer?.credits),
      refused,
      failed,
    }),
    [mergeCredits, refused, failed],
  );
}
