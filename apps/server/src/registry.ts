import { LOOKUP_KINDS, PROVIDER_KINDS, type SourceMode } from '@footprint/domain';
import { ConfigError } from './config-error.ts';
import { kindAvailable, sourceModes } from './providers/modes.ts';
import type { Provider } from './providers/types.ts';
import { costPerCall } from './providers/vendor.ts';
import { VENDORS } from './providers/vendors.ts';
import { createSandboxProviders, parseFailureSpec, parseLatencySpec } from './sandbox/index.ts';

/** The providers of the vendors the environment switches on; a bad variable stops the start. */
/** What the registry reads of the configuration (a part of config.ts's `Config['providers']`). */
export interface ProviderSettings {
  sandbox: boolean;
  sandboxLatency: string;
  sandboxFailures: string;
  /** The raw environment, from which each vendor adapter reads its own variables. */
  env: Readonly<Record<string, string | undefined>>;
}

export function liveProviders(env: ProviderSettings['env']): Provider[] {
  const problems: string[] = [];
  const providers: Provider[] = [];
  for (const vendor of VENDORS) {
    const parsed = vendor.env.safeParse(env);
    const cost = costPerCall.safeParse(env[`${vendor.prefix}_COST_PER_CALL`]);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) problems.push(`${issue.path.join('.')}: ${issue.message}`);
      continue;
    }
    if (!cost.success) {
      problems.push(`${vendor.prefix}_COST_PER_CALL: ${cost.error.issues[0]?.message}`);
      continue;
    }
    const settings = vendor.configure(parsed.data);
    if (settings === undefined) continue;
    const info = { id: vendor.id, name: vendor.name, costPerCall: cost.data, currency: vendor.currency };
    providers.push(...vendor.providers(settings, info));
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return providers;
}

/**
 * The providers a deployment runs: every configured vendor's, and, only when the operator chose the
 * sandbox (SANDBOX), synthetic providers for the sources no vendor answers. With the sandbox off a
 * source no vendor answers is `not_configured`: nothing invented is ever served.
 */
export function buildProviders(
  config: { providers: ProviderSettings },
  /** Live providers built outside the vendor list (the site check, which runtime.ts builds once). */
  ownLive: readonly Provider[] = [],
): Provider[] {
  const live = [...liveProviders(config.providers.env), ...ownLive];
  if (!config.providers.sandbox) return live;
  const sandbox = createSandboxProviders({
    latencyMs: config.providers.sandboxLatency
      ? parseLatencySpec(config.providers.sandboxLatency)
      : undefined,
    failureRate: config.providers.sandboxFailures
      ? parseFailureSpec(config.providers.sandboxFailures)
      : undefined,
  });
  const replaced = new Set(live.map((provider) => provider.source));
  return [...sandbox.filter((provider) => !replaced.has(provider.source)), ...live];
}

export { sourceModes, VENDORS };

/**
 * The start-up banner: for the phone and e-mail lookups, which sources are live, sandbox or not
 * configured; for the searches answered by one source (details, corporate, verification), which
 * are live, sandbox or unavailable.
 */
export const describeProviders = (providers: Provider[]): string => {
  const modes = sourceModes(providers);
  const label = { live: 'live', sandbox: 'sandbox', not_configured: 'not configured' } as const;
  const group = (entries: [string, SourceMode][]) =>
    (['live', 'sandbox', 'not_configured'] as const)
      .map((mode) => [mode, entries.filter(([, m]) => m === mode).map(([name]) => name)] as const)
      .filter(([, names]) => names.length > 0)
      .map(([mode, names]) => `${label[mode]}: ${names.join(', ')}`)
      .join('; ');
  const lines = LOOKUP_KINDS.map((kind) => {
    const sources = modes[kind];
    const unavailable = kindAvailable(sources) ? '' : ' (unavailable: no source configured)';
    return `  ${kind.padEnd(6)} ${group(Object.entries(sources))}${unavailable}`;
  });
  const single = PROVIDER_KINDS.filter((kind) => !(LOOKUP_KINDS as readonly string[]).includes(kind));
  lines.push(`  other  ${group(single.map((kind) => [kind, modes[kind][kind] ?? 'not_configured']))}`);
  return lines.join('\n');
};
