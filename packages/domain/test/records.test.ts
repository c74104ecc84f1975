import { describe, expect, it } from 'vitest';
import {
  formatRecordDate,
  formatRecordValue,
  formatRupees,
  formatYesNo,
  isMissingValue,
  layoutRecord,
  MISSING,
  orderKeys,
  sectionOrder,
} from '../src/index.ts';

const rc = {
  color: 'PEARL WHITE',
  rc_number: 'MH12FP1234',
  client_id: 'rc_full_abc',
  fuel_type: 'PETROL',
  owner_name: 'ROHAN S DESHMUKH',
  registration_date: '2019-03-05',
  insurance_upto: '2026-01-31',
  maker_model: 'CITY',
  financed: true,
  zz_unknown: 'later',
  aa_unknown: 'earlier',
  mobile_number: null,
  permit_type: 'NA',
};

/** The same object with its keys in another order (a cached answer re-serialised). */
function shuffled<T extends Record<string, unknown>>(record: T, seed: number): T {
  const entries = Object.entries(record);
  for (let i = entries.length - 1; i > 0; i--) {
    const j = (i * 7 + seed) % (i + 1);
    [entries[i], entries[j]] = [entries[j]!, entries[i]!];
  }
  return Object.fromEntries(entries) as T;
}

describe('record order', () => {
  it('starts an RC with the owner, not the colour, and keeps client_id out', () => {
    const { rows } = layoutRecord(rc, 'rc');
    expect(rows[0]!.label).toBe('Owner Name');
    expect(rows[1]!.label).toBe('RC Number');
    const labels = rows.map((row) => row.label);
    expect(labels.indexOf('Color')).toBeGreaterThan(labels.indexOf('Fuel Type'));
    expect(labels).not.toContain('Client Id');
    expect(labels).not.toContain('Mobile Number');
    expect(labels).not.toContain('Permit Type');
    // Unknown keys come last, alphabetically.
    expect(labels.slice(-2)).toEqual(['Aa Unknown', 'Zz Unknown']);
  });

  it('gives a fresh and a shuffled answer the same order', () => {
    const fresh = layoutRecord(rc, 'rc');
    for (const seed of [1, 2, 3, 5, 8]) expect(layoutRecord(shuffled(rc, seed), 'rc')).toEqual(fresh);
    const gst = { b: 1, legal_name: 'X', a: 2, gstin: '27AADCN4821K1ZC' };
    expect(layoutRecord(shuffled(gst, 4), 'corporate:corporate_gstin')).toEqual(
      layoutRecord(gst, 'corporate:corporate_gstin'),
    );
  });

  it('orders known keys first and the rest alphabetically', () => {
    expect(orderKeys(['z', 'color', 'a', 'owner_name'], sectionOrder('rc'))).toEqual([
      'owner_name',
      'color',
      'a',
      'z',
    ]);
  });

  it('lays lists of records out as tables in the curated column order', () => {
    const filing = (taxp: string, rtntype: string) => ({
      arn: 'AA27240000001X',
      status: 'Filed',
      dof: '11-05-2024',
      rtntype,
      taxp,
      fy: '2024-2025',
      mof: 'ONLINE',
    });
    const { rows, tables } = layoutRecord(
      {
        legal_name: 'NIMBUSLANE',
        filing_status: [[filing('April', 'GSTR1'), filing('April', 'GSTR3B')]],
        hsn_info: { goods: [{ description: 'Laptops', hsn_code: '8471' }] },
      },
      'corporate:corporate_gstin',
    );
    expect(rows.map((row) => row.label)).toEqual(['Legal Name']);
    const filings = tables.find((table) => table.path === 'filing_status')!;
    expect(filings.columns.map((column) => column.key)).toEqual([
      'fy',
      'taxp',
      'rtntype',
      'status',
      'dof',
      'mof',
      'arn',
    ]);
    expect(filings.rows).toEqual([
      ['2024-2025', 'April', 'GSTR1', 'Filed', '11 May 2024', 'ONLINE', 'AA27240000001X'],
      ['2024-2025', 'April', 'GSTR3B', 'Filed', '11 May 2024', 'ONLINE', 'AA27240000001X'],
    ]);
    const goods = tables.find((table) => table.path === 'hsn_info.goods')!;
    expect(goods.title).toBe('Hsn Info › Goods');
    expect(goods.rows).toEqual([['8471', 'Laptops']]);
  });

  it('titles the challans table apart from the modal', () => {
    const { tables } = layoutRecord({ rc_number: 'MH12', challan_details: [{ amount: 500 }] }, 'challan');
    expect(tables.map((table) => [table.title, table.rows])).toEqual([['Challans', [['₹500']]]]);
  });

  it('fills missing cells with a dash so columns line up', () => {
    const { tables } = layoutRecord(
      {
        directors: [
          { name: 'A', din: '1', end_date: '-' },
          { name: 'B', din: '2', end_date: '2019-02-14' },
        ],
      },
      'corporate:corporate_cin',
    );
    expect(tables[0]!.rows).toEqual([
      ['A', '1', MISSING],
      ['B', '2', '14 Feb 2019'],
    ]);
  });

  it('never throws on junk', () => {
    for (const junk of [
      null,
      undefined,
      1,
      'x',
      [],
      [1, [2]],
      { a: { b: { c: { d: { e: { f: { g: { h: 1 } } } } } } } },
    ]) {
      expect(() => layoutRecord(junk, 'rc')).not.toThrow();
    }
    expect(layoutRecord(null, 'rc')).toEqual({ rows: [], tables: [] });
  });
});

describe('record formatter', () => {
  it('formats dates with and without a time', () => {
    expect(formatRecordDate('2024-03-05')).toBe('05 Mar 2024');
    expect(formatRecordDate('05-03-2024')).toBe('05 Mar 2024');
    expect(formatRecordDate('5/3/2024')).toBe('05 Mar 2024');
    expect(formatRecordDate('2024-03-05T09:00:00Z')).toBe('05 Mar 2024, 14:30 IST');
    expect(formatRecordDate('2024-03-05T20:00:00.000Z')).toBe('06 Mar 2024, 01:30 IST');
    expect(formatRecordDate('2024-03-05T09:00:00+05:30')).toBe('05 Mar 2024, 09:00 IST');
    expect(formatRecordDate('2024-03-05 09:15:00')).toBe('05 Mar 2024, 09:15 IST');
    expect(formatRecordDate('2024-02-30')).toBeUndefined();
    expect(formatRecordDate('2024-2025')).toBeUndefined();
    expect(formatRecordValue('manufacturing_date', '3/2019')).toBe('Mar 2019');
    expect(formatRecordValue('fy', '2024-2025')).toBe('2024-2025');
  });

  it('formats amounts with Indian grouping', () => {
    expect(formatRupees(500)).toBe('₹500');
    expect(formatRupees(123456)).toBe('₹1,23,456');
    expect(formatRupees('12345678')).toBe('₹1,23,45,678');
    expect(formatRupees('1,50,00,000.50')).toBe('₹1,50,00,000.5');
    expect(formatRupees(-2500)).toBe('-₹2,500');
    expect(formatRecordValue('amount', '1500')).toBe('₹1,500');
    expect(formatRecordValue('authorised_capital', '5000000')).toBe('₹50,00,000');
    expect(formatRecordValue('annual_aggregate_turnover', 'Slab: Rs. 5 Cr. to 25 Cr.')).toBe(
      'Slab: Rs. 5 Cr. to 25 Cr.',
    );
    expect(formatRecordValue('tax_upto', 'LTT')).toBe('LTT');
    // Counts are not money.
    expect(formatRecordValue('cubic_capacity', '1497')).toBe('1497');
  });

  it('reads booleans and yes/no strings as Yes/No', () => {
    expect(formatYesNo(true)).toBe('Yes');
    expect(formatYesNo(false)).toBe('No');
    expect(formatRecordValue('x', 'Y')).toBe('Yes');
    expect(formatRecordValue('x', ' no ')).toBe('No');
    expect(formatRecordValue('x', 'TRUE')).toBe('Yes');
    expect(formatRecordValue('no_cylinders', '0')).toBe('0');
  });

  it('reads missing values as one em dash', () => {
    for (const missing of [
      null,
      undefined,
      '',
      '  ',
      'null',
      'NA',
      'n/a',
      '-',
      Number.NaN,
      '1800-01-01',
      [],
    ]) {
      expect(formatRecordValue('x', missing)).toBe('—');
    }
    expect(isMissingValue('0')).toBe(false);
    expect(isMissingValue(0)).toBe(false);
  });

  it('never throws on junk', () => {
    const junk: unknown[] = [
      {},
      Symbol('s'),
      () => 1,
      10n,
      Number.POSITIVE_INFINITY,
      '\u0000\u202e',
      '9'.repeat(400),
      '2024-99-99T99:99Z',
    ];
    for (const value of junk) {
      for (const key of ['amount', 'date', 'x']) expect(typeof formatRecordValue(key, value)).toBe('string');
    }
  });
});
