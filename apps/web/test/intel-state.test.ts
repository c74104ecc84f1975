import { describe, expect, it } from 'vitest';
import { intelFieldErrorOf, readIntelResultsState } from '../src/features/intel/intelState.ts';

describe('readIntelResultsState', () => {
  it('keeps the string and boolean inputs of its own area', () => {
    const state = readIntelResultsState('corporate', {
      area: 'corporate',
      type: 'corporate_gstin',
      input: { gstin: '27AADCN4821K1ZC', consent: true, count: 3, nested: { a: 1 } },
      data: { legal_name: 'Acme' },
      sandbox: true,
    });
    expect(state).toEqual({
      area: 'corporate',
      type: 'corporate_gstin',
      input: { gstin: '27AADCN4821K1ZC', consent: true },
      data: { legal_name: 'Acme' },
      sandbox: true,
    });
  });

  it('reads a 422 (no record) as null data, and anything but true as no sandbox', () => {
    expect(
      readIntelResultsState('verification', { area: 'verification', type: 'pan', sandbox: 'yes' }),
    ).toEqual({ area: 'verification', type: 'pan', input: {}, data: null, sandbox: false });
  });

  it('keeps the lookup id of the search (Save and Add to case need it), and only a string one', () => {
    const base = { area: 'corporate', type: 'corporate_cin', input: {}, data: { a: 1 }, sandbox: false };
    expect(readIntelResultsState('corporate', { ...base, lookupId: 'abc-123' })?.lookupId).toBe('abc-123');
    expect(readIntelResultsState('corporate', { ...base, lookupId: 42 })).not.toHaveProperty('lookupId');
  });

  it("refuses another area's state and malformed ones", () => {
    expect(readIntelResultsState('verification', { area: 'corporate', type: 'pan' })).toBeNull();
    expect(readIntelResultsState('corporate', { area: 'corporate' })).toBeNull();
    expect(readIntelResultsState('corporate', undefined)).toBeNull();
    expect(readIntelResultsState('corporate', [])).toBeNull();
  });
});

describe('intelFieldErrorOf', () => {
  it("puts the server's message for data.<field> under that field of the form", () => {
    expect(
      intelFieldErrorOf(['gstin', 'year'], {
        type: 'fine',
        'data.year': 'Enter a year between 2017 and 2026.',
      }),
    ).toEqual({ field: 'year', message: 'Enter a year between 2017 and 2026.' });
  });

  it('keeps a message about no field of the form above the button, and nothing when none is named', () => {
    expect(intelFieldErrorOf(['pan'], { type: 'Choose a search type.' })).toEqual({
      message: 'Choose a search type.',
    });
    expect(intelFieldErrorOf(['pan'], {})).toBeNull();
  });
});
