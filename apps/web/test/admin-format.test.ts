import type { ProviderHealth } from '@footprint/domain';
import { describe, expect, it } from 'vitest';
import {
  auditTarget,
  countModes,
  formatMoney,
  formatRate,
  monthTotals,
  orderRows,
  outcomeTone,
  successTone,
  typedWhole,
} from '../src/features/admin/format.ts';

describe('formatMoney', () => {
  it('writes an amount in the vendor’s currency with its usual digits', () => {
    expect(formatMoney(12.345, 'USD')).toBe('$12.35');
    expect(formatMoney(1250, 'INR')).toBe('₹1,250.00');
    expect(formatMoney(300, 'JPY')).toBe('¥300');
    expect(formatMoney(0, 'EUR')).toBe('€0.00');
  });

  it('keeps up to four decimals under one unit, so a few cheap calls still show', () => {
    expect(formatMoney(0.0042, 'USD')).toBe('$0.0042');
    expect(formatMoney(0.15, 'USD')).toBe('$0.15');
    expect(formatMoney(0.30000000000000004, 'USD')).toBe('$0.30');
  });

  it('writes an unknown code after the number instead of failing', () => {
    expect(formatMoney(12.5, 'NOT-A-CODE')).toBe('12.5 NOT-A-CODE');
  });
});

describe('formatRate and successTone', () => {
  it('shows a share with one decimal, and nothing without calls', () => {
    expect(formatRate(0.6667)).toBe('66.7%');
    expect(formatRate(1)).toBe('100.0%');
    expect(formatRate(null)).toBe('—');
  });

  it('colours low rates, never as the only signal (the figure is always written)', () => {
    expect(successTone(null)).toBe('text-muted');
    expect(successTone(0.5)).toBe('text-rose-300');
    expect(successTone(0.9)).toBe('text-amber-300');
    expect(successTone(0.99)).toBe('text-text');
  });
});

const row = (id: string, overrides: Partial<ProviderHealth> = {}): ProviderHealth => ({
  id,
  source: id.split(':').at(-1) ?? id,
  kinds: ['email'],
  sandbox: false,
  calls: 0,
  failures: 0,
  timeouts: 0,
  notFound: 0,
  rejectedOpen: 0,
  latency: { p50: null, p95: null, p99: null },
  breaker: 'closed',
  mode: 'live',
  vendor: null,
  env_prefix: null,
  success_rate: null,
  misconfigured: false,
  last_error: null,
  paused_until: null,
  calls_today: 0,
  spend: null,
  ...overrides,
});

describe('the rows and their summary', () => {
  const rows = [
    row('sandbox:wpData', { mode: 'sandbox', sandbox: true }),
    row('not_configured:telData', { mode: 'not_configured' }),
    row('kyc:rc', { spend: { today: 0.1, month: 0.2, currency: 'INR' } }),
    row('hibp:hibpData', {
      misconfigured: true,
      spend: { today: 0.05, month: 1.25, currency: 'USD' },
    }),
    row('acme:emailData', { spend: { today: 0, month: 0.1, currency: 'USD' } }),
  ];

  it('puts refused credentials first, then live, sandbox and not configured, keeping the server order', () => {
    expect(orderRows(rows).map((r) => r.id)).toEqual([
      'hibp:hibpData',
      'kyc:rc',
      'acme:emailData',
      'sandbox:wpData',
      'not_configured:telData',
    ]);
  });

  it('counts the modes and the refused vendors', () => {
    expect(countModes(rows)).toEqual({ live: 3, sandbox: 1, notConfigured: 1, misconfigured: 1 });
  });

  it('totals this month’s spend per currency', () => {
    expect(monthTotals(rows)).toBe('₹0.20, $1.35');
    expect(monthTotals([row('sandbox:x', { mode: 'sandbox' })])).toBe('');
  });
});

describe('outcomeTone', () => {
  it('gives no_record the neutral grey and keeps rose for failures', () => {
    expect(outcomeTone('no_record')).toBe('chip-slate');
    expect(outcomeTone('failure')).toBe('chip-rose');
    expect(outcomeTone('success')).toBe('status-on');
    expect(outcomeTone('denied')).toBe('chip-amber');
  });
});

describe('auditTarget', () => {
  it('shows a search as typed, with its target where the two read differently', () => {
    expect(
      auditTarget({
        target: '[["name",["deshmukh","rohan"]]]',
        query_typed: 'Name: Rohan Deshmukh',
        query_normalized: '[["name",["deshmukh","rohan"]]]',
      }),
    ).toEqual({ shown: 'Name: Rohan Deshmukh', matched: '[["name",["deshmukh","rohan"]]]' });
    expect(
      auditTarget({ target: '919876543210', query_typed: '919876543210', query_normalized: '919876543210' }),
    ).toEqual({ shown: '919876543210', matched: null });
  });

  it("shows any other action's target as it is", () => {
    expect(auditTarget({ target: 'user-1', query_typed: null, query_normalized: null })).toEqual({
      shown: 'user-1',
      matched: null,
    });
  });
});

describe('typedWhole', () => {
  it('reads a whole number, signed or with thousands separators, and nothing else', () => {
    expect(typedWhole('40')).toBe(40);
    expect(typedWhole(' -50 ')).toBe(-50);
    expect(typedWhole('+1,000')).toBe(1000);
    expect(typedWhole('1.5')).toBeNaN();
    expect(typedWhole('')).toBeNaN();
    expect(typedWhole('12abc')).toBeNaN();
  });
});
