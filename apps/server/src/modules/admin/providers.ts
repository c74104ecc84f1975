/**
 * The Providers screen's rows: each provider's health from the runner, who answers its source, what
 * its vendor cost (the usage table), and a row for each source no provider answers, so that an
 * operator sees what is missing as well as what runs.
 */
import type { ProviderHealth, SourceMode } from '@footprint/domain';
import type { ProviderStats } from '../../providers/runner.ts';
import type { Provider, ProviderKind } from '../../providers/types.ts';
import type { MonthUsage } from '../usage/query.ts';
import type { CallCount } from '../usage/recorder.ts';

/** What the deployment runs, fixed for the life of a runtime (runtime.ts builds it). */
export interface ProviderCatalogue {
  providers: readonly Provider[];
  /** Per kind, per source: live, sandbox or not configured (src/registry.ts `sourceModes`). */
  modes: Readonly<Record<ProviderKind, Readonly<Record<string, SourceMode>>>>;
  /** Vendor id → the prefix of its variables ('hibp' → 'HIBP'). */
  envPrefixes: Readonly<Record<string, string>>;
}

export interface ProvidersView {
  stats: readonly ProviderStats[];
  catalogue: ProviderCatalogue;
  /** This month's usage rows (readMonthUsage). */
  usage: readonly MonthUsage[];
  /** Calls and answers of a provider since this process started. */
  countSinceStart: (providerId: string) => CallCount;
}

/** Answers over calls, to four decimals; null when nothing was called. */
export const successRate = ({ calls, successes }: CallCount): number | null =>
  calls > 0 ? Math.round((successes / calls) * 10_000) / 10_000 : null;

/** Money to the column's scale, without the float dust of a sum (0.30000000000000004 → 0.3). */
const money = (value: number) => Math.round(value * 1_000_000) / 1_000_000;

/** A provider's calls today, and its spend in its vendor's currency (rows in another currency aside). */
export function usageOf(
  usage: readonly MonthUsage[],
  provider: Provider,
): Pick<ProviderHealth, 'calls_today' | 'spend'> {
  const rows = usage.filter((row) => row.providerId === provider.id);
  const callsToday = rows.reduce((sum, row) => sum + row.callsToday, 0);
  const vendor = provider.vendor;
  if (!vendor) return { calls_today: callsToday, spend: null };
  const priced = rows.filter((row) => row.currency === vendor.currency);
  return {
    calls_today: callsToday,
    spend: {
      today: money(priced.reduce((sum, row) => sum + row.spendToday, 0)),
      month: money(priced.reduce((sum, row) => sum + row.spendMonth, 0)),
      currency: vendor.currency,
    },
  };
}

/** The row of a running provider. */
export function providerRow(
  stats: ProviderStats,
  provider: Provider | undefined,
  view: Pick<ProvidersView, 'catalogue' | 'usage' | 'countSinceStart'>,
): ProviderHealth {
  const vendor = provider?.vendor;
  return {
    id: stats.id,
    source: stats.source,
    kinds: stats.kinds,
    sandbox: stats.sandbox,
    calls: stats.calls,
    failures: stats.failures,
    timeouts: stats.timeouts,
    notFound: stats.notFound,
    rejectedOpen: stats.rejectedOpen,
    latency: stats.latency,
    breaker: stats.breaker,
    mode: stats.sandbox ? 'sandbox' : 'live',
    vendor: vendor?.name ?? null,
    env_prefix: vendor ? (view.catalogue.envPrefixes[vendor.id] ?? null) : null,
    success_rate: successRate(view.countSinceStart(stats.id)),
    misconfigured: stats.misconfigured,
    last_error: stats.lastError,
    paused_until: stats.pausedUntil,
    ...(provider ? usageOf(view.usage, provider) : { calls_today: 0, spend: null }),
  };
}

/** Each source with kinds no provider answers, with those kinds, in catalogue order. */
export function unansweredSources(
  modes: ProviderCatalogue['modes'],
): Array<{ source: string; kinds: ProviderKind[] }> {
  const bySource = new Map<string, ProviderKind[]>();
  for (const [kind, sources] of Object.entries(modes) as Array<[ProviderKind, Record<string, SourceMode>]>) {
    for (const [source, mode] of Object.entries(sources)) {
      if (mode !== 'not_configured') continue;
      bySource.set(source, [...(bySource.get(source) ?? []), kind]);
    }
  }
  return [...bySource].map(([source, kinds]) => ({ source, kinds }));
}

/** The row of a source nobody answers: nothing was called, so every counter is zero. */
export const notConfiguredRow = (source: string, kinds: readonly ProviderKind[]): ProviderHealth => ({
  id: `not_configured:${source}`,
  source,
  kinds,
  sandbox: false,
  calls: 0,
  failures: 0,
  timeouts: 0,
  notFound: 0,
  rejectedOpen: 0,
  latency: { p50: null, p95: null, p99: null },
  breaker: 'closed',
  mode: 'not_configured',
  vendor: null,
  env_prefix: null,
  success_rate: null,
  misconfigured: false,
  last_error: null,
  paused_until: null,
  calls_today: 0,
  spend: null,
});

/** Every running provider in the runner's order, then every source nobody answers. */
export function presentProviders(view: ProvidersView): ProviderHealth[] {
  const byId = new Map(view.catalogue.providers.map((provider) => [provider.id, provider]));
  return [
    ...view.stats.map((stats) => providerRow(stats, byId.get(stats.id), view)),
    ...unansweredSources(view.catalogue.modes).map(({ source, kinds }) => notConfiguredRow(source, kinds)),
  ];
}
