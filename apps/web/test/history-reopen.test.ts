import type { HistoryDetail } from '@footprint/domain';
import { describe, expect, it } from 'vitest';
import { resultsStateOf } from '../src/features/history/reopen.ts';

const detail = (patch: Partial<HistoryDetail>): HistoryDetail => ({
  id: 'lookup-1',
  kind: 'tel',
  query: '919876543210',
  query_typed: '919876543210',
  status: 'complete',
  case_reference: null,
  created_at: '2025-03-14T10:32:00Z',
  cost: 1,
  cached: false,
  sandbox: false,
  result: { data: { name: 'Rohan' } },
  ...patch,
});

describe('resultsStateOf', () => {
  it('reopens a phone lookup as the search handed it over, marked cached, with its lookup id', () => {
    expect(resultsStateOf(detail({ case_reference: 'FIR 214/2025' }))).toEqual({
      type: 'tel',
      userInput: '9876543210',
      dialCode: '91',
      results: { data: { name: 'Rohan' }, lookup_id: 'lookup-1', cached: true, sandbox: false },
      caseReference: 'FIR 214/2025',
    });
  });

  it('keeps a stored lookup id and the sandbox mark of either the entry or the answer', () => {
    const state = resultsStateOf(
      detail({ query: '9876543210', result: { lookup_id: 'stored-7', sandbox: true, data: {} } }),
    );
    expect(state).toMatchObject({
      dialCode: '',
      userInput: '9876543210',
      results: { lookup_id: 'stored-7', sandbox: true, cached: true },
      caseReference: undefined,
    });
  });

  it('keeps what became of each source, so the reopened page shows the same source panel', () => {
    const source_status = { wpData: { status: 'ok', mode: 'live', vendor: 'Example Vendor' } };
    const state = resultsStateOf(
      detail({ sandbox: true, result: { wpData: {}, errors: {}, source_status } }),
    );
    expect(state?.results).toMatchObject({ source_status, sandbox: true });
    const email = resultsStateOf(detail({ kind: 'email', result: { data: { errors: {} }, source_status } }));
    expect(email?.results).toMatchObject({ source_status });
  });

  it('reopens an e-mail lookup only when its answer has data', () => {
    expect(
      resultsStateOf(detail({ kind: 'email', query: 'a@b.test', sandbox: true, result: { data: { x: 1 } } })),
    ).toEqual({
      type: 'email',
      userInput: 'a@b.test',
      results: { data: { x: 1 }, lookup_id: 'lookup-1', cached: true, sandbox: true },
      caseReference: undefined,
    });
    expect(resultsStateOf(detail({ kind: 'email', result: { data: 'x' } }))).toBeNull();
  });

  it("says whose search it is when it is someone else's (a supervisor reading it), and only then", () => {
    const user = { id: 'user-9', name: 'Constable Arjun Nair', email: 'arjun@example.org' };
    expect(resultsStateOf(detail({ user }))).toMatchObject({
      type: 'tel',
      searchedBy: { name: 'Constable Arjun Nair', email: 'arjun@example.org' },
      results: { lookup_id: 'lookup-1' },
    });
    expect(
      resultsStateOf(detail({ kind: 'email', query: 'a@b.test', user, result: { data: {} } })),
    ).toMatchObject({ type: 'email', searchedBy: { name: user.name, email: user.email } });
    expect(resultsStateOf(detail({}))).not.toHaveProperty('searchedBy');
  });

  it('leaves other kinds and unreadable answers to the detail view', () => {
    expect(resultsStateOf(detail({ kind: 'rc', result: { data: {} } }))).toBeNull();
    expect(resultsStateOf(detail({ kind: 'leak' }))).toBeNull();
    expect(resultsStateOf(detail({ result: null }))).toBeNull();
    expect(resultsStateOf(detail({ result: ['x'] }))).toBeNull();
  });
});
