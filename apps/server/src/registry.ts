import type { Config } from './config.ts';
import { hibpProvider } from './providers/http/hibp.ts';
import { kycProviders } from './providers/http/kyc.ts';
import type { Provider } from './providers/types.ts';
import { createSandboxProviders, parseFailureSpec, parseLatencySpec } from './sandbox/index.ts';

/**
 * The providers a deployment runs: the sandbox for every source, with each real upstream that the
 * environment configures taking its sources' place (HIBP_API_KEY → hibpData; KYC_BASE_URL and
 * KYC_TOKEN → the mobile-linked sources and the RC, UPI and challan details).
 */
export function buildProviders(config: Config): Provider[] {
  const sandbox = createSandboxProviders({
    latencyMs: config.providers.sandboxLatency
      ? parseLatencySpec(config.providers.sandboxLatency)
      : undefined,
    failureRate: config.providers.sandboxFailures
      ? parseFailureSpec(config.providers.sandboxFailures)
      : undefined,
  });
  const real: Provider[] = [
    ...(config.providers.hibp ? [hibpProvider(config.providers.hibp)] : []),
    ...(config.providers.kyc ? kycProviders(config.providers.kyc) : []),
  ];
  const replaced = new Set(real.map((provider) => provider.source));
  return [...sandbox.filter((provider) => !replaced.has(provider.source)), ...real];
}

/** Describes the configured providers for the start-up banner. */
export const describeProviders = (providers: Provider[]): string => {
  const real = providers.filter((p) => !p.sandbox).map((p) => p.id);
  return real.length === 0
    ? 'sandbox (synthetic data) for every source'
    : `real: ${real.join(', ')}; sandbox for the rest`;
};
