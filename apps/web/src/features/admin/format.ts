/**
 * How the Providers screen shows its figures: vendor money in the vendor's own currency, success
 * rates, the order of the rows and the summary above them. Pure, so the web unit tests read them.
 */
import { type AuditEvent, type ProviderHealth, type SourceMode, typedDiffers } from '@footprint/domain';

/** The digits a currency is normally written with (USD 2, JPY 0, KWD 3); undefined for a bad code. */
function currencyDigits(currency: string): number | undefined {
  try {
    return new Intl.NumberFormat('en-US', { style: 'currency', currency }).resolvedOptions()
      .maximumFractionDigits;
  } catch {
    return undefined;
  }
}

/**
 * An amount in a vendor's currency: '$12.35', '₹1,250.00', '¥300'. Amounts under one unit keep up to
 * four decimals, so that a few calls at a fraction of a cent still show ('$0.0042'). A code Intl does
 * not know is written after the number ('12.5 XYZ').
 */
export function formatMoney(amount: number, currency: string): string {
  const digits = currencyDigits(currency);
  if (digits === undefined)
    return `${amount.toLocaleString('en-US', { maximumFractionDigits: 4 })} ${currency}`;
  const small = amount !== 0 && Math.abs(amount) < 1;
  return new Intl.NumberFormat('en-US', {
    style: 'currency',
    currency,
    minimumFractionDigits: digits,
    maximumFractionDigits: small ? Math.max(digits, 4) : digits,
  }).format(amount);
}

/** A share as a percentage with one decimal ('66.7%'); null (nothing called) as '—'. */
export const formatRate = (rate: number | null): string =>
  rate === null
    ? '—'
    : rate.toLocaleString('en-US', { style: 'percent', minimumFractionDigits: 1, maximumFractionDigits: 1 });

/** The text colour of a success rate: red under 75 %, amber under 95 %, plain above, muted without calls. */
export function successTone(rate: number | null): string {
  if (rate === null) return 'text-muted';
  if (rate < 0.75) return 'text-rose-300';
  if (rate < 0.95) return 'text-amber-300';
  return 'text-text';
}

/** The badge class of a mode. */
export const modeTone = (mode: SourceMode): string =>
  mode === 'live' ? 'status-on' : mode === 'sandbox' ? 'chip-slate' : 'status-off';

const MODE_ORDER: Record<SourceMode, number> = { live: 0, sandbox: 1, not_configured: 2 };

/**
 * Rows in the order an operator reads them: refused credentials first, then live vendors, the sandbox,
 * and the sources nobody answers; the server's order within each.
 */
export function orderRows(rows: readonly ProviderHealth[]): ProviderHealth[] {
  const rank = (row: ProviderHealth) => (row.misconfigured ? -1 : MODE_ORDER[row.mode]);
  return rows
    .map((row, index) => ({ row, index }))
    .sort((a, b) => rank(a.row) - rank(b.row) || a.index - b.index)
    .map(({ row }) => row);
}

/** How many rows are in each mode, and how many vendors refuse our credentials. */
export function countModes(rows: readonly ProviderHealth[]) {
  const count = (mode: SourceMode) => rows.filter((row) => row.mode === mode).length;
  return {
    live: count('live'),
    sandbox: count('sandbox'),
    notConfigured: count('not_configured'),
    misconfigured: rows.filter((row) => row.misconfigured).length,
  };
}

/** This month's vendor spend per currency, each formatted ('$1.25, ₹300.00'); '' when there is none. */
export function monthTotals(rows: readonly ProviderHealth[]): string {
  const totals = new Map<string, number>();
  for (const row of rows) {
    if (!row.spend) continue;
    totals.set(row.spend.currency, (totals.get(row.spend.currency) ?? 0) + row.spend.month);
  }
  return [...totals]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([currency, amount]) => formatMoney(amount, currency))
    .join(', ');
}

/** The badge class of an audit outcome: no_record is neutral grey, a failure rose, a refusal amber. */
export const outcomeTone = (outcome: string): string =>
  outcome === 'success'
    ? 'status-on'
    : outcome === 'no_record'
      ? 'chip-slate'
      : outcome === 'denied'
        ? 'chip-amber'
        : 'chip-rose';

/**
 * The target column of the trail: a search's query as typed, with its target (the query as matched)
 * beside it where the two read differently; any other action's target as it is.
 */
export function auditTarget(event: Pick<AuditEvent, 'target' | 'query_typed' | 'query_normalized'>): {
  shown: string | null;
  matched: string | null;
} {
  if (!event.query_typed) return { shown: event.target, matched: null };
  return {
    shown: event.query_typed,
    matched: typedDiffers(event.query_typed, event.query_normalized) ? event.target : null,
  };
}

/** A whole number typed in a field ('-50', ' 1,000 '); NaN for anything else ('1.5', '', '12abc'). */
export function typedWhole(text: string): number {
  const plain = text.trim().replaceAll(',', '');
  return /^[-+]?\d+$/.test(plain) ? Number(plain) : Number.NaN;
}
