import { describe, expect, it } from 'vitest';
import {
  fileSafe,
  formatCount,
  formatDate,
  labelOf,
  safeHref,
  yearSpan,
} from '../src/features/results/format.ts';
import { hasDetail } from '../src/features/results/modals/useDetailLookups.ts';

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

describe('hasDetail', () => {
  it('shows a record with something in it, in any key order, and not an empty one', () => {
    expect(hasDetail('rc', { color: 'WHITE', owner_name: 'ROHAN' })).toBe(true);
    expect(hasDetail('rc', { client_id: 'x', permit_type: 'NA', mobile_number: null })).toBe(false);
    expect(hasDetail('rc', null)).toBe(false);
    expect(hasDetail('challan', { rc_number: 'MH12', challan_details: [] })).toBe(false);
    expect(hasDetail('challan', { rc_number: 'MH12', challan_details: [{ amount: 500 }] })).toBe(true);
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

  it('adds the time only when asked and when the value has one, in the domain format', () => {
    const day = formatDate('2024-03-18');
    expect(day).toBe('18 Mar 2024');
    expect(formatDate('2024-03-18T09:12:00Z')).toBe('18 Mar 2024');
    expect(formatDate('2024-03-18T09:12:00Z', true)).toBe('18 Mar 2024, 14:42 IST');
    expect(formatDate('2024-03-18', true)).toBe(day);
    expect(formatDate('2024-03-18T09:12:00Z', true)).not.toBe(formatDate('2024-03-18T09:12:00Z'));
  });

  it('groups thousands', () => {
    expect(formatCount(1234567)).toMatch(/^1\D?234\D?567$/);
  });
});

describe('yearSpan', () => {
  it('says a period of study or work in years', () => {
    expect(yearSpan(2015, 2019)).toBe('2015–2019');
    expect(yearSpan(2019, 2019)).toBe('2019');
    expect(yearSpan(2015)).toBe('2015–present');
    expect(yearSpan(undefined, 2019)).toBe('until 2019');
    expect(yearSpan()).toBeUndefined();
  });
});
