import { PROVIDER_KINDS, type SourceMode, sourcesOfKind } from '@footprint/domain';
import type { Provider, ProviderKind } from './types.ts';

/** Per search kind, each of its sources and who answers it: a live vendor, the sandbox, or nobody. */
export type SourceModes = Record<ProviderKind, Record<string, SourceMode>>;

/**
 * Who answers each source of each kind among `providers` (live before sandbox: the registry never
 * runs both for one source). The start-up banner, GET /api/sources and the Providers screen read it.
 */
export function sourceModes(
  providers: readonly Provider[],
  sourcesOf: (kind: ProviderKind) => readonly string[] = sourcesOfKind,
): SourceModes {
  const out = {} as SourceModes;
  for (const kind of PROVIDER_KINDS) {
    const modes: Record<string, SourceMode> = {};
    for (const source of sourcesOf(kind)) {
      const provider = providers.find((p) => p.source === source && p.kinds.includes(kind));
      modes[source] = provider ? (provider.sandbox ? 'sandbox' : 'live') : 'not_configured';
    }
    out[kind] = modes;
  }
  return out;
}

/** A kind can be searched when at least one of its sources is answered by someone. */
export const kindAvailable = (modes: Record<string, SourceMode>): boolean =>
  Object.values(modes).some((mode) => mode !== 'not_configured');
