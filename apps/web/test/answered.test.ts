import { formatAnsweredAt } from '@footprint/domain';
import { describe, expect, it } from 'vitest';
import { resultsStateOf } from '../src/features/history/reopen.ts';
import { answeredLineOf } from '../src/features/results/answered.ts';

// The project runs with TZ=UTC: local time is UTC here.
describe('formatAnsweredAt', () => {
  it('prints dd MMM yyyy, HH:mm with a zero-padded day and English months', () => {
    expect(formatAnsweredAt('2025-03-04T10:32:59Z')).toBe('04 Mar 2025, 10:32');
    expect(formatAnsweredAt('2025-09-21T00:05:00Z')).toBe('21 Sep 2025, 00:05');
    expect(formatAnsweredAt('2025-12-31T23:59:00.000Z', 'utc')).toBe('31 Dec 2025, 23:59');
  });

  it('prints nothing for a missing or unreadable time', () => {
    expect(formatAnsweredAt(undefined)).toBe('');
    expect(formatAnsweredAt('')).toBe('');
    expect(formatAnsweredAt('not a date')).toBe('');
  });
});

describe('answeredLineOf', () => {
  it('says when the sources answered a fresh answer', () => {
    expect(answeredLineOf({ answered_at: '2025-03-04T10:32:00Z', reused_from: null })).toEqual({
      text: 'Answered 04 Mar 2025, 10:32',
      iso: '2025-03-04T10:32:00Z',
      title: 'The sources answered at 2025-03-04T10:32:00Z.',
      reused: false,
      reusedCase: null,
    });
  });

  it('says a reused answer was reused, with the case reference of the lookup it reuses', () => {
    const line = answeredLineOf({
      answered_at: '2025-03-04T08:15:00Z',
      reused_from: { lookup_id: 'paid-1', case_reference: 'FIR 214/2025' },
    });
    expect(line).toMatchObject({
      text: 'Answered 04 Mar 2025, 08:15, reused',
      reused: true,
      reusedCase: 'Case reference FIR 214/2025',
    });
    expect(line?.title).toContain('paid-1');
    expect(
      answeredLineOf({
        answered_at: '2025-03-04T08:15:00Z',
        reused_from: { lookup_id: 'p', case_reference: null },
      })?.reusedCase,
    ).toBe('No case reference');
  });

  it('says nothing when the answer has no readable time', () => {
    expect(answeredLineOf({})).toBeNull();
    expect(answeredLineOf(null)).toBeNull();
    expect(answeredLineOf({ answered_at: 'yesterday', reused_from: null })).toBeNull();
  });
});

describe('a reopened lookup', () => {
  it('keeps the time its sources answered and what it reused, so the page says the same', () => {
    const state = resultsStateOf({
      id: 'repeat-1',
      kind: 'tel',
      query: '919876543210',
      query_typed: '919876543210',
      status: 'complete',
      case_reference: 'CASE-2',
      created_at: '2025-03-04T11:00:00Z',
      cost: 0,
      cached: true,
      sandbox: false,
      result: {
        errors: {},
        answered_at: '2025-03-04T08:15:00Z',
        reused_from: { lookup_id: 'paid-1', case_reference: 'CASE-1' },
      },
    });
    expect(answeredLineOf(state?.results)).toMatchObject({
      text: 'Answered 04 Mar 2025, 08:15, reused',
      reusedCase: 'Case reference CASE-1',
    });
  });
});
