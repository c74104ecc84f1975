import { describe, expect, it } from 'vitest';
import {
  detailGroups,
  fileSafe,
  formatCount,
  formatDate,
  labelOf,
  safeHref,
} from '../src/features/results/format.ts';

describe('labelOf', () => {
  it('reads record keys as labels', () => {
    expect(labelOf('owner_name')).toBe('Owner Name');
    expect(labelOf('fullName')).toBe('Full Name');
  });
});

describe('safeHref', () => {
  it('lets only http(s) links leave the app', () => {
    expect(safeHref(' https://example.test/a?b=1 ')).toBe('https://example.test/a?b=1');
    expect(safeHref('http://example.test')).toBe('http://example.test/');
    expect(safeHref('javascript:alert(1)')).toBeUndefined();
    expect(safeHref('data:text/html,x')).toBeUndefined();
    expect(safeHref('/relative')).toBeUndefined();
    expect(safeHref(42)).toBeUndefined();
  });
});

describe('detailGroups', () => {
  it('flattens a record into rows, nested objects as prefixed labels, lists of objects as numbered groups', () => {
    const groups = detailGroups({
      owner_name: '  Rohan   Deshmukh ',
      client_id: 'hidden',
      insured: true,
      seats: 5,
      colours: ['red', '', 'blue'],
      address: { city: 'Pune', pin: null },
      challans: [{ amount: 500 }, { amount: 200 }],
    });
    expect(groups).toEqual([
      {
        title: undefined,
        rows: [
          { label: 'Owner Name', value: 'Rohan Deshmukh' },
          { label: 'Insured', value: 'Yes' },
          { label: 'Seats', value: '5' },
          { label: 'Colours', value: 'red, blue' },
          { label: 'Address City', value: 'Pune' },
        ],
      },
      { title: 'Challans 1 of 2', rows: [{ label: 'Amount', value: '500' }] },
      { title: 'Challans 2 of 2', rows: [{ label: 'Amount', value: '200' }] },
    ]);
  });

  it('has nothing to show for an empty or non-object record', () => {
    expect(detailGroups({})).toEqual([]);
    expect(detailGroups(null)).toEqual([]);
    expect(detailGroups(['a'])).toEqual([]);
  });
});

describe('fileSafe', () => {
  it('replaces separators and control characters, and never returns an empty name', () => {
    expect(fileSafe('a/b\\c:d*e?f"g<h>i|j')).toBe('a_b_c_d_e_f_g_h_i_j');
    expect(fileSafe('line\nbreak')).toBe('line_break');
    expect(fileSafe('')).toBe('result');
    expect(fileSafe('x'.repeat(200))).toHaveLength(120);
  });
});

describe('formatDate and formatCount', () => {
  it('shows unparsable dates as they came', () => {
    expect(formatDate('not a date')).toBe('not a date');
  });

  it('adds the time only when asked and when the value has one', () => {
    const day = formatDate('2024-03-18');
    expect(day).toMatch(/2024/);
    expect(formatDate('2024-03-18', true)).toBe(day);
    expect(formatDate('2024-03-18T09:12:00Z', true)).not.toBe(formatDate('2024-03-18T09:12:00Z'));
  });

  it('groups thousands', () => {
    expect(formatCount(1234567)).toMatch(/^1\D?234\D?567$/);
  });
});
