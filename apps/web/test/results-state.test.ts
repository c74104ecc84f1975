import { describe, expect, it } from 'vitest';
import { readResultsState } from '../src/features/results/index.ts';

const phoneResults = { data: { name: 'Rohan' }, credits: 9, lookup_id: 'l1' };

describe('readResultsState', () => {
  it('reads a phone search as the dashboard hands it over', () => {
    const state = readResultsState({
      type: 'tel',
      userInput: '9876543210',
      dialCode: '91',
      results: phoneResults,
      caseReference: '  FIR 214/2025 ',
    });
    expect(state).toEqual({
      type: 'tel',
      userInput: '9876543210',
      dialCode: '91',
      results: phoneResults,
      caseReference: 'FIR 214/2025',
    });
  });

  it('defaults a missing dial code and drops a blank case reference', () => {
    const state = readResultsState({
      type: 'tel',
      userInput: '9876543210',
      results: {},
      caseReference: '  ',
    });
    expect(state).toEqual({
      type: 'tel',
      userInput: '9876543210',
      dialCode: '',
      results: {},
      caseReference: undefined,
    });
  });

  it('reads an e-mail search only when its answer has data', () => {
    const results = { data: { breaches: [] } };
    expect(readResultsState({ type: 'email', userInput: 'a@b.test', results })).toEqual({
      type: 'email',
      userInput: 'a@b.test',
      results,
      caseReference: undefined,
    });
    expect(readResultsState({ type: 'email', userInput: 'a@b.test', results: { data: null } })).toBeNull();
  });

  it("keeps who ran someone else's search only when it names them and their address", () => {
    const searchedBy = { name: 'Constable Arjun Nair', email: 'arjun@example.org' };
    expect(
      readResultsState({ type: 'tel', userInput: '9876543210', results: phoneResults, searchedBy }),
    ).toMatchObject({ searchedBy });
    expect(
      readResultsState({ type: 'email', userInput: 'a@b.test', results: { data: {} }, searchedBy }),
    ).toMatchObject({ searchedBy });
    for (const odd of [null, 'Arjun', { name: 'Arjun' }, { name: 1, email: 'a@b.test' }]) {
      expect(
        readResultsState({ type: 'tel', userInput: '1', results: {}, searchedBy: odd }),
      ).not.toHaveProperty('searchedBy');
    }
  });

  it('treats anything else as no state', () => {
    expect(readResultsState(null)).toBeNull();
    expect(readResultsState('tel')).toBeNull();
    expect(readResultsState({ type: 'tel', userInput: 9876543210, results: {} })).toBeNull();
    expect(readResultsState({ type: 'tel', userInput: '1', results: [] })).toBeNull();
    expect(readResultsState({ type: 'fax', userInput: '1', results: { data: {} } })).toBeNull();
  });
});
