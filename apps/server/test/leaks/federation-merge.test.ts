// The pure half of the leak search's federation: how a vendor's record becomes a leak record, what
// makes two records identical, how they merge, what a stored result gives back, and page windows.
import type { LeakOrigin, LeakRecord } from '@footprint/domain';
import { describe, expect, it } from 'vitest';
import {
  federate,
  federationOf,
  identityOf,
  mergeRecords,
  NO_FEDERATION,
  pageWindow,
  vendorQueryOf,
  vendorRecordOf,
} from '../../src/modules/leaks/federation.ts';
import { conditionOf } from '../../src/modules/leaks/query.ts';
import type { VendorLeakRecord } from '../../src/providers/leak-search.ts';

const A: LeakOrigin = { kind: 'vendor', name: 'Vendor A' };
const B: LeakOrigin = { kind: 'vendor', name: 'Vendor B' };

const found = (overrides: Partial<VendorLeakRecord> = {}): VendorLeakRecord => ({
  source: { name: 'Orbitly', breach_date: '2021-03' },
  name: ['Kabir Menon'],
  email: ['other.kabir@example.test', 'Kabir.Menon@Example.test'],
  phone: ['+91 70000 00001'],
  username: ['kabir_m'],
  address: [],
  other: { city: 'Pune', password_hash: 'x', user_password: 'y' },
  ...overrides,
});

const byEmail = [conditionOf('email', 'kabir.menon@example.test')];

describe('vendorRecordOf', () => {
  it('shows the value that matched, keeps the others in `other`, and drops credential-like keys', () => {
    const record = vendorRecordOf(found(), byEmail, A, 'a')!;
    expect(record).toMatchObject({
      source: { name: 'Orbitly', breach_date: '2021-03', description: null },
      name: 'Kabir Menon',
      email: 'Kabir.Menon@Example.test',
      phone: '+91 70000 00001',
      username: 'kabir_m',
      address: null,
      other: { city: 'Pune', email_2: 'other.kabir@example.test' },
      matched: ['email'],
      origins: [A],
    });
    expect(Object.keys(record.other)).not.toContain('password_hash');
    expect(Object.keys(record.other)).not.toContain('user_password');
    expect(record.id).toMatch(/^a:[0-9a-f]{16}$/);
  });

  it('refuses a record that misses any row of the query', () => {
    const conditions = [...byEmail, conditionOf('name', 'Meera Rao')];
    expect(vendorRecordOf(found(), conditions, A, 'a')).toBeNull();
    expect(vendorRecordOf(found({ email: [] }), byEmail, A, 'a')).toBeNull();
    const phone = [conditionOf('phone', '917000000001')];
    expect(vendorRecordOf(found(), phone, A, 'a')?.matched).toEqual(['phone']);
  });
});

describe('identity and merging', () => {
  const base = vendorRecordOf(found(), byEmail, A, 'a')!;

  it('calls records identical whatever their case, spacing, phone format or name order', () => {
    const same = {
      ...base,
      name: 'MENON  kabir',
      email: 'kabir.menon@example.test',
      phone: '7000000001',
      username: 'KABIR_M',
      source: { ...base.source, name: ' orbitly ' },
    };
    expect(identityOf(same)).toBe(identityOf(base));
    expect(identityOf({ ...base, source: { ...base.source, name: 'Chaiwala Rewards' } })).not.toBe(
      identityOf(base),
    );
    expect(identityOf({ ...base, address: 'Baner, Pune' })).not.toBe(identityOf(base));
  });

  it('merges identical records of several vendors into one listing each origin once', () => {
    const fromB = vendorRecordOf(found(), byEmail, B, 'b')!;
    const different = vendorRecordOf(found({ username: ['someone_else'] }), byEmail, B, 'b')!;
    const merged = mergeRecords([
      [base, base],
      [fromB, different],
    ]);
    expect(merged).toHaveLength(2);
    expect(merged[0]!.origins).toEqual([A, B]);
    expect(merged[0]!.id).toBe(base.id);
    expect(merged[1]!.origins).toEqual([B]);
  });

  it('moves records the local index holds onto the local record, keeping the rest as the vendors own', () => {
    const other = vendorRecordOf(found({ username: ['someone_else'] }), byEmail, B, 'b')!;
    const twin = { ...base, id: '42', source: { name: 'ORBITLY' } };
    const federation = federate([base, other], [twin], []);
    expect(federation.also_in).toEqual({ '42': [A] });
    expect(federation.records).toEqual([other]);
  });
});

describe('stored federation and pages', () => {
  it('reads back what was stored, and nothing from an older or damaged result', () => {
    const record: LeakRecord = vendorRecordOf(found(), byEmail, A, 'a')!;
    const federation = {
      records: [record],
      also_in: { '7': [B] },
      vendors: [{ ...A, status: 'ok' as const, records: 1 }],
    };
    expect(federationOf({ total: 1, data: [], federation })).toEqual(federation);
    expect(federationOf({ total: 1, data: [] })).toBe(NO_FEDERATION);
    expect(federationOf({ federation: { records: 'x' } })).toBe(NO_FEDERATION);
    expect(federationOf(null)).toBe(NO_FEDERATION);
  });

  it('shows the local matches first, then the vendors own records', () => {
    expect(pageWindow(25, 1, 10)).toEqual({ local: { offset: 0, limit: 10 }, vendor: { start: 0, end: 0 } });
    expect(pageWindow(25, 3, 10)).toEqual({ local: { offset: 20, limit: 5 }, vendor: { start: 0, end: 5 } });
    expect(pageWindow(25, 4, 10)).toEqual({ local: { offset: 25, limit: 0 }, vendor: { start: 5, end: 15 } });
    expect(pageWindow(0, 1, 10)).toEqual({ local: { offset: 0, limit: 0 }, vendor: { start: 0, end: 10 } });
  });

  it('gives vendors the rows as typed and as the index normalizes them', () => {
    expect(
      vendorQueryOf([
        { type: 'name', value: '  José ÁLVAREZ ' },
        { type: 'phone', value: '+91 98765-43210' },
      ]).rows,
    ).toEqual([
      { type: 'name', raw: 'José ÁLVAREZ', value: 'jose alvarez' },
      { type: 'phone', raw: '+91 98765-43210', value: '9876543210' },
    ]);
  });
});
