import {
  type AnsweredSite,
  SITE_STATES,
  type SiteCheck,
  type SiteCheckAnswer,
  type SiteState,
  siteStateOrder,
} from '@footprint/domain';
import type { SiteCatalogue } from './catalogue.ts';

/**
 * A site check's answer from its lines, one per site of its scope (the live check's and the sandbox's
 * alike): the counts per state, the sites that said no by id, the rest with the catalogue's name,
 * category and India mark. Its lines come found first, then blocked, error, not checked; by name
 * within a state.
 */
export function answerOf(
  username: string,
  catalogue: SiteCatalogue,
  lines: readonly SiteCheck[],
  started: Date,
  finished: Date,
): SiteCheckAnswer {
  const counts = Object.fromEntries(SITE_STATES.map((state) => [state, 0])) as Record<SiteState, number>;
  const sites: AnsweredSite[] = [];
  const notFound: string[] = [];
  for (const line of lines) {
    counts[line.state] += 1;
    if (line.state === 'not_found') {
      notFound.push(line.site);
      continue;
    }
    const site = catalogue.byId.get(line.site);
    sites.push({
      ...line,
      name: site?.name ?? line.site,
      category: site?.category ?? 'other',
      india: site?.india ?? false,
    });
  }
  sites.sort((a, b) => siteStateOrder(a.state) - siteStateOrder(b.state) || a.name.localeCompare(b.name));
  return {
    username,
    catalogue: { sites: catalogue.sites.length, scope: lines.length },
    counts,
    sites,
    not_found: notFound,
    started_at: started.toISOString(),
    finished_at: finished.toISOString(),
  };
}
