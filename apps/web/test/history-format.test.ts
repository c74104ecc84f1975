import { describe, expect, it } from 'vitest';
import {
  baseKind,
  displayQuery,
  filterKinds,
  kindLabel,
  leakRowsOf,
} from '../src/features/history/format.ts';

describe('kindLabel and baseKind', () => {
  it('names a kind and its intel type', () => {
    expect(kindLabel('tel')).toBe('Phone');
    expect(kindLabel('corporate:corporate_gstin')).toBe('Corporate · GSTIN Details');
    expect(kindLabel('corporate:unknown_type')).toBe('Corporate · unknown_type');
    expect(kindLabel('fax')).toBe('fax');
    expect(baseKind('corporate:pan')).toBe('corporate');
    expect(baseKind('leak')).toBe('leak');
  });

  it('offers the filter kinds in sidebar order', () => {
    expect(filterKinds[0]).toBe('tel');
    expect(filterKinds).toContain('verification');
  });
});

describe('leakRowsOf', () => {
  it('reads a stored leak search, joining name tokens', () => {
    expect(leakRowsOf('[["name",["deshmukh","rohan"]],["phone","9876543210"]]')).toEqual([
      { type: 'name', value: 'deshmukh rohan' },
      { type: 'phone', value: '9876543210' },
    ]);
  });

  it('is null for anything else in that column', () => {
    expect(leakRowsOf('9876543210x')).toBeNull();
    expect(leakRowsOf('[]')).toBeNull();
    expect(leakRowsOf('[[1,"x"]]')).toBeNull();
    expect(leakRowsOf('[["name",3]]')).toBeNull();
    expect(leakRowsOf('{"a":1}')).toBeNull();
  });
});

describe('displayQuery', () => {
  it('splits a stored phone into dial code and number', () => {
    expect(displayQuery('tel', '919876543210')).toBe('+91 9876543210');
    expect(displayQuery('tel', '9876543210')).toBe('9876543210');
  });

  it('reads a leak search as its rows', () => {
    expect(displayQuery('leak', '[["name",["deshmukh","rohan"]],["email","a@b.test"]]')).toBe(
      'Name: deshmukh rohan · Email: a@b.test',
    );
    expect(displayQuery('leak', 'legacy text')).toBe('legacy text');
  });

  it('leaves other kinds as stored', () => {
    expect(displayQuery('email', 'a@b.test')).toBe('a@b.test');
  });
});
