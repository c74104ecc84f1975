import { describe, expect, it } from 'vitest';
import {
  baseKind,
  displayQuery,
  filterKinds,
  kindLabel,
  leakRowsOf,
  shownQuery,
  statusTone,
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

describe('shownQuery', () => {
  it('shows a leak search as typed, with the normalized rows beside it', () => {
    expect(shownQuery('leak', '[["name",["deshmukh","rohan"]]]', 'Name: Rohan Deshmukh')).toEqual({
      typed: 'Name: Rohan Deshmukh',
      normalized: 'Name: deshmukh rohan',
    });
  });

  it('shows an intel search as its filled fields, with the matched text beside it', () => {
    expect(
      shownQuery('verification:vehicle_rc', 'vehicle_number=MH12AB1234', 'Vehicle Number: MH12AB1234'),
    ).toEqual({ typed: 'Vehicle Number: MH12AB1234', normalized: 'vehicle_number=MH12AB1234' });
  });

  it('says nothing more when the two differ only in case or spacing', () => {
    expect(shownQuery('email', 'a@b.co', 'A@B.co')).toEqual({ typed: 'A@B.co', normalized: null });
  });

  it('shows a row stored before the typed form was kept (or typed as stored) the readable way', () => {
    expect(shownQuery('tel', '919876543210', '919876543210')).toEqual({
      typed: '+91 9876543210',
      normalized: null,
    });
    expect(shownQuery('leak', '[["name",["deshmukh","rohan"]]]', '[["name",["deshmukh","rohan"]]]')).toEqual({
      typed: 'Name: deshmukh rohan',
      normalized: null,
    });
  });
});

describe('statusTone', () => {
  it('gives no_record the neutral grey, never the colour of a failure or a refund', () => {
    expect(statusTone('no_record')).toBe('chip-slate');
    expect(statusTone('complete')).toBe('status-on');
    expect(statusTone('refunded')).toBe('chip-amber');
    expect(statusTone('pending')).toBe('status-off');
  });
});
