/**
 * One username against a list of sites: every site lands in a state, in catalogue order.
 * - a site whose `regex` the username does not match, or that is quarantined (its check has been
 *   failing), is `not_checked` without a request;
 * - the others go through the fetcher (its politeness decides when) and `classify`;
 * - a site held after a 429 is `blocked` without a request, saying until when; a fetch that got no
 *   answer is `error` with its reason; an unexpected exception is `error` too. checkUsername throws
 *   only when its signal aborts.
 */
import type { CatalogueSite, SiteCheck, SiteEvidence } from '@footprint/domain';
import { profileUrl, siteAllows, sitePatternBroken } from './catalogue.ts';
import { classify } from './classify.ts';
import type { SiteAnswer, SiteFetcher } from './types.ts';

export interface CheckOptions {
  fetcher: SiteFetcher;
  /** When a site's check has been failing since (ISO date), if it is quarantined. */
  quarantined?: (siteId: string) => string | undefined;
  signal?: AbortSignal;
  /** The clock of the lines' `checked_at` (tests). */
  now?: () => Date;
}

const evidenceOf = (answer: SiteAnswer): SiteEvidence => ({
  final_url: answer.finalUrl,
  status: answer.status,
  title: answer.title,
  sha256: answer.sha256,
  bytes: answer.bytes,
  checked_at: answer.receivedAt,
});

const shortMessage = (failure: unknown): string => {
  const text = failure instanceof Error ? failure.message : String(failure);
  return text.length > 120 ? `${text.slice(0, 119)}…` : text;
};

async function checkSite(
  site: CatalogueSite,
  username: string,
  options: CheckOptions,
  now: () => Date,
): Promise<SiteCheck> {
  const url = profileUrl(site, username);
  const line = (rest: Omit<SiteCheck, 'site' | 'url' | 'checked_at'>): SiteCheck => ({
    site: site.id,
    url,
    checked_at: now().toISOString(),
    ...rest,
  });
  try {
    if (sitePatternBroken(site))
      return line({ state: 'error', reason: "the catalogue's username pattern is broken" });
    if (!siteAllows(site, username))
      return line({ state: 'not_checked', reason: 'the username is not one this site allows' });
    const since = options.quarantined?.(site.id);
    if (since) {
      return line({
        state: 'not_checked',
        reason: `not checked — site check failing since ${since.slice(0, 10)}`,
      });
    }
    const fetched = await options.fetcher.fetch(site, url, options.signal);
    if (fetched.kind === 'held') {
      return line({
        state: 'blocked',
        reason: `rate limited: not asked again before ${new Date(fetched.until).toISOString()} (Retry-After)`,
      });
    }
    if (fetched.kind === 'failed') return line({ state: 'error', reason: fetched.reason });
    const verdict = classify(site, fetched.answer);
    return line({
      state: verdict.state,
      evidence: evidenceOf(fetched.answer),
      ...(verdict.reason ? { reason: verdict.reason } : {}),
    });
  } catch (failure) {
    if (options.signal?.aborted) throw failure;
    return line({ state: 'error', reason: `unexpected failure: ${shortMessage(failure)}` });
  }
}

/** Every site's line for `username`, in the order of `sites`. Rejects only when `options.signal` aborts. */
export async function checkUsername(
  username: string,
  sites: readonly CatalogueSite[],
  options: CheckOptions,
): Promise<SiteCheck[]> {
  options.signal?.throwIfAborted();
  const now = options.now ?? (() => new Date());
  const lines = await Promise.all(sites.map((site) => checkSite(site, username, options, now)));
  options.signal?.throwIfAborted();
  return lines;
}
