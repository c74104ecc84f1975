import { type HeldSearch, messages, type User } from '@footprint/domain';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError, HeldSearchError, isHeldSearch } from '../src/lib/api.ts';
import { AuthContext, type AuthContextValue } from '../src/lib/auth-context.ts';
import {
  decidePaidFailure,
  hasCredits,
  maySpend,
  type PaidFailure,
  paidFailureOf,
  paidFailureToast,
  spendableCredits,
  usePaidAnswer,
} from '../src/lib/paid-answer.ts';

const toasts = vi.hoisted(() => ({ warning: vi.fn(), error: vi.fn(), info: vi.fn(), dismiss: vi.fn() }));
vi.mock('react-toastify', () => ({ toast: toasts }));

describe('hasCredits', () => {
  it('lets a paid call go only with a balance above zero', () => {
    expect(hasCredits(3)).toBe(true);
    expect(hasCredits('2')).toBe(true);
    expect(hasCredits(0)).toBe(false);
    expect(hasCredits(-1)).toBe(false);
    expect(hasCredits(undefined)).toBe(false);
    expect(hasCredits('many')).toBe(false);
  });
});

describe('spendableCredits', () => {
  const pool = (available: number) => ({
    unit_id: 'u1',
    unit_name: 'Harbour Police Station',
    balance: 100,
    monthly_allowance: 40,
    used_this_month: 40 - available,
    available,
  });

  it("adds what the unit's pool may still give to the user's own credits", () => {
    expect(spendableCredits({ credits: 5, pool: null })).toBe(5);
    expect(spendableCredits({ credits: 5 })).toBe(5);
    expect(spendableCredits({ credits: 0, pool: pool(12) })).toBe(12);
    expect(spendableCredits({ credits: 3, pool: pool(12) })).toBe(15);
    expect(spendableCredits(null)).toBe(0);
  });

  it('lets a pool member with no credits of their own search, and no one with neither', () => {
    expect(maySpend({ credits: 0, pool: pool(1) })).toBe(true);
    expect(maySpend({ credits: 0, pool: pool(0) })).toBe(false);
    expect(maySpend({ credits: 0, pool: null })).toBe(false);
    expect(maySpend(undefined)).toBe(false);
  });
});

describe('decidePaidFailure', () => {
  it('reads no answer and a 401 without looking at the body', () => {
    expect(decidePaidFailure(0, { credits: 4 })).toEqual({ kind: 'no-answer' });
    expect(decidePaidFailure(401, { message: 'Unauthenticated.' })).toEqual({ kind: 'session-ended' });
  });

  it('reads a 402 as insufficient credits, with the balance and message the server sent', () => {
    const body = { message: ' Insufficient credits ', credits: 0 };
    expect(decidePaidFailure(402, body)).toEqual({
      kind: 'insufficient',
      status: 402,
      body,
      credits: 0,
      message: 'Insufficient credits',
      fields: {},
    });
  });

  it('tells a case-reference refusal from other 422s', () => {
    const reference = decidePaidFailure(422, {
      message: 'The given data was invalid.',
      errors: { case_reference: [messages.caseReference.required] },
    });
    expect(reference).toMatchObject({
      kind: 'case-reference',
      status: 422,
      message: 'The given data was invalid.',
      fields: { case_reference: messages.caseReference.required },
    });
    expect(decidePaidFailure(422, { message: messages.caseReference.tooLong }).kind).toBe('case-reference');
    expect(decidePaidFailure(422, { errors: { number: ['Enter 10 digits.'] } })).toMatchObject({
      kind: 'invalid',
      fields: { number: 'Enter 10 digits.' },
      message: undefined,
    });
    // The leak finder's per-row list starts with '' for a valid first row: no first message to keep.
    expect(decidePaidFailure(422, { errors: { fields: ['', 'Enter a name.'] } }).kind).toBe('invalid');
  });

  it('reads a 503 as a search this deployment cannot answer', () => {
    const message =
      'Phone searches are not available in this deployment: no source for them is configured. No credits were charged.';
    expect(decidePaidFailure(503, { message })).toMatchObject({ kind: 'unavailable', status: 503, message });
  });

  it('reads every other status as a refusal, keeping a balance only when it is a number', () => {
    expect(decidePaidFailure(500, { message: '  ', credits: '7' as unknown as number })).toMatchObject({
      kind: 'refused',
      status: 500,
      credits: undefined,
      message: undefined,
    });
    expect(decidePaidFailure(400, { error: 'Bad request.', credits: 7 })).toMatchObject({
      kind: 'refused',
      credits: 7,
    });
  });

  it('reads a caught error', () => {
    expect(paidFailureOf(new TypeError('Failed to fetch'))).toEqual({ kind: 'no-answer' });
    expect(paidFailureOf(new ApiError(0, {}))).toEqual({ kind: 'no-answer' });
    expect(paidFailureOf(new ApiError(402, { credits: 1 }))).toMatchObject({
      kind: 'insufficient',
      credits: 1,
    });
  });
});

describe('paidFailureToast', () => {
  const words = { failed: 'Search failed.' };
  const decide = (status: number, body = {}) => decidePaidFailure(status, body);

  it('says the screen text when no answer came, and nothing for a 401', () => {
    expect(paidFailureToast({ kind: 'no-answer' }, words)).toEqual({
      level: 'error',
      text: 'Search failed.',
    });
    expect(paidFailureToast({ kind: 'session-ended' }, words)).toBeNull();
  });

  it("warns about a 402 with the server's message, or the standard one", () => {
    expect(paidFailureToast(decide(402, { message: 'Insufficient credits' }), words)).toEqual({
      level: 'warning',
      text: 'Insufficient credits',
    });
    expect(paidFailureToast(decide(402), words)).toEqual({ level: 'warning', text: 'Insufficient credits.' });
  });

  it("says the server's message for other refusals unless the screen has its own words", () => {
    expect(paidFailureToast(decide(422, { message: 'Invalid number.' }), words)).toEqual({
      level: 'error',
      text: 'Invalid number.',
    });
    expect(paidFailureToast(decide(500), words)).toEqual({ level: 'error', text: 'Search failed.' });
    expect(
      paidFailureToast(decide(500, { message: 'Upstream down' }), {
        ...words,
        refusal: () => 'RC lookup failed.',
      }),
    ).toEqual({ level: 'error', text: 'RC lookup failed.' });
  });

  it("says the server's message for a 503, even where the screen words other refusals itself", () => {
    const message = 'RC searches are not available in this deployment: no source for them is configured.';
    const own = { ...words, refusal: () => 'RC lookup failed.' };
    expect(paidFailureToast(decide(503, { message }), own)).toEqual({ level: 'error', text: message });
    expect(paidFailureToast(decide(503), own)).toEqual({ level: 'error', text: 'Search failed.' });
  });
});

/** The 202 of a search held for a supervisor's approval. */
const held: HeldSearch = {
  status: 'pending',
  message: "A UPI search needs a supervisor's approval: your request is waiting for them.",
  poll: '/api/approvals/6f1c2a8e-0000-4000-8000-000000000001',
  approval: {
    id: '6f1c2a8e-0000-4000-8000-000000000001',
    status: 'pending',
    kind: 'upi',
    kind_label: 'UPI',
    query: 'name@oksbi',
    case_reference: null,
    legal_basis: null,
    cost: 1,
    requester: { id: 'u1', name: 'Rohan', email: 'rohan@example.org' },
    requested_at: '2026-12-04T10:00:00.000Z',
    expires_at: '2026-12-06T10:00:00.000Z',
    decided_by: null,
    decided_at: null,
    note: null,
    lookup_id: null,
    failure: null,
    decides: false,
  },
};

describe('a search held for approval', () => {
  it('is told from any other 202 (a queued bulk job) by its body', () => {
    expect(isHeldSearch(held)).toBe(true);
    expect(isHeldSearch({ id: 'job', status: 'pending' })).toBe(false);
    expect(isHeldSearch({ ...held, approval: null })).toBe(false);
  });

  it('is a failure of its own kind, which no common toast says', () => {
    const failure = paidFailureOf(new HeldSearchError(held));
    expect(failure).toEqual({ kind: 'held', held });
    expect(paidFailureToast(failure, { failed: 'Search failed.' })).toBeNull();
  });
});

describe('usePaidAnswer', () => {
  let mergeUser: ReturnType<typeof vi.fn>;
  let paidAnswer: ReturnType<typeof usePaidAnswer>;

  beforeEach(() => {
    toasts.warning.mockClear();
    toasts.error.mockClear();
    toasts.info.mockClear();
    mergeUser = vi.fn();
    const auth = { user: { credits: 5 } as User, mergeUser } as unknown as AuthContextValue;
    const Probe = () => {
      paidAnswer = usePaidAnswer();
      return null;
    };
    renderToStaticMarkup(createElement(AuthContext.Provider, { value: auth }, createElement(Probe)));
  });

  it('merges the balance of an answer into the signed-in user', () => {
    expect(paidAnswer.paid({ credits: 4 })).toBe(true);
    expect(mergeUser).toHaveBeenCalledWith({ credits: 4 });
    expect(paidAnswer.paid({})).toBe(false);
    expect(paidAnswer.paid(undefined)).toBe(false);
    expect(mergeUser).toHaveBeenCalledTimes(1);
  });

  it('merges the balance of a 402 and warns once', () => {
    const failure = paidAnswer.failed(new ApiError(402, { message: 'Insufficient credits', credits: 0 }), {
      failed: 'Search failed.',
    });
    expect(failure.kind).toBe('insufficient');
    expect(mergeUser).toHaveBeenCalledWith({ credits: 0 });
    expect(toasts.warning).toHaveBeenCalledWith('Insufficient credits');
    expect(toasts.error).not.toHaveBeenCalled();
  });

  it('says a held search once, as a notice that stays, and merges no balance', () => {
    const failure = paidAnswer.failed(new HeldSearchError(held), {
      failed: 'Search failed.',
      inline: vi.fn(),
    });
    expect(failure.kind).toBe('held');
    expect(toasts.info).toHaveBeenCalledTimes(1);
    expect(toasts.info.mock.calls[0]?.[1]).toMatchObject({
      autoClose: false,
      toastId: `held-${held.approval.id}`,
    });
    expect(mergeUser).not.toHaveBeenCalled();
    expect(toasts.warning).not.toHaveBeenCalled();
    expect(toasts.error).not.toHaveBeenCalled();
  });

  it('leaves a 401 to the session rule', () => {
    paidAnswer.failed(new ApiError(401, { credits: 3 }), { failed: 'Search failed.' });
    expect(mergeUser).not.toHaveBeenCalled();
    expect(toasts.warning).not.toHaveBeenCalled();
    expect(toasts.error).not.toHaveBeenCalled();
  });

  it('shows a case-reference refusal under the field and says it', () => {
    const showRefusal = vi.fn(() => true);
    const error = new ApiError(422, { message: messages.caseReference.required });
    paidAnswer.failed(error, { failed: 'Search failed.', caseReference: { showRefusal } });
    expect(showRefusal).toHaveBeenCalledWith(error);
    expect(toasts.error).toHaveBeenCalledWith(messages.caseReference.required);
  });

  it('does not touch the case-reference field for other refusals', () => {
    const showRefusal = vi.fn(() => false);
    paidAnswer.failed(new ApiError(500, {}), { failed: 'Search failed.', caseReference: { showRefusal } });
    expect(showRefusal).not.toHaveBeenCalled();
    expect(toasts.error).toHaveBeenCalledWith('Search failed.');
  });

  it('hands the decided failure to screens with their own words, balance merged, nothing said', () => {
    const failure: PaidFailure = paidAnswer.refused(new ApiError(422, { message: 'No record.', credits: 2 }));
    expect(failure).toMatchObject({ kind: 'invalid', status: 422, message: 'No record.' });
    expect(mergeUser).toHaveBeenCalledWith({ credits: 2 });
    expect(toasts.error).not.toHaveBeenCalled();
  });

  it('says a refusal beside the action when the screen answers inline, the 402 warning staying a toast', () => {
    const inline = vi.fn();
    const failed = 'Could not save.';
    const refusal = paidAnswer.failed(new ApiError(422, { message: 'Closed case.', credits: 6 }), {
      failed,
      inline,
    });
    expect(refusal.kind).toBe('invalid');
    expect(inline).toHaveBeenCalledWith(refusal, 'Closed case.');
    expect(mergeUser).toHaveBeenCalledWith({ credits: 6 });
    paidAnswer.failed(new TypeError('Failed to fetch'), { failed, inline });
    expect(inline).toHaveBeenLastCalledWith({ kind: 'no-answer' }, failed);
    expect(toasts.error).not.toHaveBeenCalled();

    inline.mockClear();
    paidAnswer.failed(new ApiError(402, { message: 'Insufficient credits', credits: 0 }), { failed, inline });
    paidAnswer.failed(new ApiError(401, {}), { failed, inline });
    expect(inline).not.toHaveBeenCalled();
    expect(toasts.warning).toHaveBeenCalledWith('Insufficient credits');
  });

  it('leaves a case-reference refusal to its field when answering inline', () => {
    const inline = vi.fn();
    const showRefusal = vi.fn(() => true);
    const error = new ApiError(422, { message: messages.caseReference.required });
    paidAnswer.failed(error, { failed: 'Search failed.', caseReference: { showRefusal }, inline });
    expect(showRefusal).toHaveBeenCalledWith(error);
    expect(inline).not.toHaveBeenCalled();
    expect(toasts.error).not.toHaveBeenCalled();
    // A screen without the field says it with the rest.
    paidAnswer.failed(error, { failed: 'Search failed.', inline });
    expect(inline).toHaveBeenCalledWith(
      expect.objectContaining({ kind: 'case-reference' }),
      messages.caseReference.required,
    );
  });
});

describe('usePaidAnswer for a member of a unit pool', () => {
  it('reads the user again after an answer, for what the pool has left', () => {
    const mergeUser = vi.fn();
    const refetch = vi.fn(async () => null);
    const pool = {
      unit_id: 'u1',
      unit_name: 'Harbour Police Station',
      balance: 30,
      monthly_allowance: 40,
      used_this_month: 10,
      available: 30,
    };
    const auth = { user: { credits: 0, pool } as User, mergeUser, refetch } as unknown as AuthContextValue;
    let paidAnswer: ReturnType<typeof usePaidAnswer> | undefined;
    const Probe = () => {
      paidAnswer = usePaidAnswer();
      return null;
    };
    renderToStaticMarkup(createElement(AuthContext.Provider, { value: auth }, createElement(Probe)));
    expect(paidAnswer?.paid({ credits: 0 })).toBe(true);
    expect(mergeUser).toHaveBeenCalledWith({ credits: 0 });
    expect(refetch).toHaveBeenCalledTimes(1);
  });
});
