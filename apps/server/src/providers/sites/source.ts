/**
 * The site check as a source of the username lookup (`sitesData`): one username against every site of
 * the catalogue, through the process's one polite fetcher, within the lookup's deadline. What it
 * answers is the domain's `SiteCheckAnswer`: every site in a state, found ones with their evidence.
 *
 * The operator turns it on (SITE_CHECK_ENABLED, with SITE_CHECK_USER_AGENT); runtime.ts builds it
 * once, so the lookups and the catalogue's self-check share its politeness.
 */
import type { CatalogueSite, SiteCheck, SiteCheckAnswer } from '@footprint/domain';
import type { Provider } from '../types.ts';
import { answerOf } from './answer.ts';
import { loadCatalogue, profileUrl, type SiteCatalogue } from './catalogue.ts';
import { createSiteFetcher } from './fetcher.ts';
import { checkUsername } from './run.ts';
import type { SiteFetcher, SiteRequestEvent } from './types.ts';

/** What the operator set (config.ts `siteCheck`). */
export interface SiteCheckSettings {
  userAgent: string;
  concurrency: number;
  intervalMs: number;
  timeoutMs: number;
  deadlineMs: number;
  maxBytes: number;
  cataloguePath: string | undefined;
  allowAddresses: readonly string[];
}

export interface SiteCheckSource {
  /** The `sitesData` provider of the username lookup. */
  provider: Provider;
  /** The process's one fetcher: the self-check goes through it too. */
  fetcher: SiteFetcher;
  catalogue: SiteCatalogue;
}

/** Time the runner gives the source past the lookup's own deadline, to build and hand back the answer. */
const HAND_BACK_MS = 5_000;

/** A site the lookup's deadline passed before it answered. */
const outOfTime = (site: CatalogueSite, username: string, deadlineMs: number, at: Date): SiteCheck => ({
  site: site.id,
  state: 'not_checked',
  url: profileUrl(site, username),
  checked_at: at.toISOString(),
  reason: `the lookup's ${Math.round(deadlineMs / 1000)} s ran out before this site answered`,
});

/**
 * One username against every site: each site on its own, so that the deadline cuts only the sites still
 * waiting (they are `not_checked`), never the answers already in.
 */
async function checkAll(
  username: string,
  catalogue: SiteCatalogue,
  fetcher: SiteFetcher,
  settings: SiteCheckSettings,
  signal: AbortSignal,
  quarantined?: (siteId: string) => string | undefined,
): Promise<SiteCheckAnswer> {
  const started = new Date();
  const deadline = AbortSignal.any([signal, AbortSignal.timeout(settings.deadlineMs)]);
  const lines = await Promise.all(
    catalogue.sites.map(async (site) => {
      try {
        const [line] = await checkUsername(username, [site], {
          fetcher,
          signal: deadline,
          ...(quarantined ? { quarantined } : {}),
        });
        return line ?? outOfTime(site, username, settings.deadlineMs, new Date());
      } catch (failure) {
        if (signal.aborted) throw failure;
        return outOfTime(site, username, settings.deadlineMs, new Date());
      }
    }),
  );
  signal.throwIfAborted();
  return answerOf(username, catalogue, lines, started, new Date());
}

/** The site check of this process, or undefined when the operator left it off. */
export function createSiteCheck(
  settings: SiteCheckSettings,
  hooks: {
    onRequest?: (event: SiteRequestEvent) => void;
    /** When a site's check has been failing since, if it is quarantined (the self-check). */
    quarantined?: (siteId: string) => string | undefined;
  } = {},
): SiteCheckSource {
  const catalogue = loadCatalogue(settings.cataloguePath);
  const fetcher = createSiteFetcher({
    userAgent: settings.userAgent,
    allowAddresses: settings.allowAddresses,
    timeoutMs: settings.timeoutMs,
    maxBytes: settings.maxBytes,
    minIntervalMs: settings.intervalMs,
    maxInFlight: settings.concurrency,
    ...(hooks.onRequest ? { onRequest: hooks.onRequest } : {}),
  });
  const provider: Provider = {
    id: 'site-check:sitesData',
    source: 'sitesData',
    kinds: ['username'],
    sandbox: false,
    timeoutMs: settings.deadlineMs + HAND_BACK_MS,
    vendor: { id: 'site-check', name: 'Site check', costPerCall: 0, currency: 'USD' },
    fetch: (query, signal) => checkAll(query.value, catalogue, fetcher, settings, signal, hooks.quarantined),
  };
  return { provider, fetcher, catalogue };
}
