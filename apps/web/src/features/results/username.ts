import {
  type AnsweredSite,
  isSiteCheckAnswer,
  SITE_STATES,
  type SiteCheckAnswer,
  type SiteState,
  type UsernameLookupResponse,
} from '@footprint/domain';
import type { AnswerParts } from './sourcePanel.ts';

/** The parts of a username answer, for the source panel and the sandbox banner. */
export const usernameParts = (results: UsernameLookupResponse): AnswerParts => ({
  payloads: results as unknown as Record<string, unknown>,
  errors: results.errors,
  status: results.source_status,
  sandbox: results.sandbox,
});

/** The site check of an answer, when it holds a readable one (an older or foreign payload does not). */
export const siteCheckOf = (results: UsernameLookupResponse): SiteCheckAnswer | null =>
  isSiteCheckAnswer(results.sitesData) ? results.sitesData : null;

/** The name as typed people read it on a page: '@rohand90'. */
export const atName = (username: string): string => `@${username.replace(/^@/, '')}`;

/** The states of the sites that gave no answer either way, in the page's order. */
export const UNASKED_STATES = ['blocked', 'error', 'not_checked'] as const satisfies readonly SiteState[];
export type UnaskedState = (typeof UNASKED_STATES)[number];

/** The counts of an answer, every state present (an answer that lacks one counts it 0). */
export function countsOf(check: SiteCheckAnswer): Record<SiteState, number> {
  return Object.fromEntries(
    SITE_STATES.map((state) => {
      const n = check.counts[state];
      return [state, typeof n === 'number' && Number.isFinite(n) ? n : 0];
    }),
  ) as Record<SiteState, number>;
}

/** The sites of one state, as the answer lists them. */
export const sitesIn = (check: SiteCheckAnswer, state: SiteState): AnsweredSite[] =>
  check.sites.filter((site) => site.state === state);

/** One reason and the sites that gave it, for the lists of sites that could not say. */
export interface ReasonGroup {
  reason: string;
  sites: AnsweredSite[];
}

/** Sites grouped by their reason, the most common first; a site without one under `fallback`. */
export function byReason(sites: readonly AnsweredSite[], fallback: string): ReasonGroup[] {
  const groups = new Map<string, AnsweredSite[]>();
  for (const site of sites) {
    const reason = site.reason?.trim() || fallback;
    const list = groups.get(reason);
    if (list) list.push(site);
    else groups.set(reason, [site]);
  }
  return [...groups.entries()]
    .map(([reason, list]) => ({ reason, sites: list }))
    .sort((a, b) => b.sites.length - a.sites.length || a.reason.localeCompare(b.reason));
}

/** Whether a site line matches the filter's words (already folded by `filterKey`). */
export function siteMatches(site: AnsweredSite, key: string): boolean {
  if (!key) return true;
  const text = [site.name, site.site, site.category, site.url, site.reason ?? '', site.india ? 'india' : '']
    .join(' ')
    .toLowerCase();
  return key.split(/\s+/).every((word) => text.includes(word));
}

const clock = new Intl.DateTimeFormat('en-GB', { timeStyle: 'medium' });

/** '10:32:04' in local time, for a site's check (all of one answer's checks fall within a minute or so). */
export function clockTime(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : clock.format(date);
}
