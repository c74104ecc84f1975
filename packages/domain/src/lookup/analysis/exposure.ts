/** The exposure summary: breaches, registered sites and public profiles. */
import type { MergedProfile } from '../profile-types.ts';
import { isoDay } from './normalize.ts';
import { at, list, text } from './read.ts';
import type { ExposureSummary } from './types.ts';

function publicProfiles(profile: MergedProfile): ExposureSummary['publicProfiles'] {
  const seen = new Set<string>();
  const out: ExposureSummary['publicProfiles'] = [];
  for (const presence of profile.internetPresence) {
    // Registration checks say an account exists, not that a profile is public: they count as sites.
    if (!presence.active || presence.source === 'Registered Sites' || presence.source === 'Social Scan')
      continue;
    const key = presence.platform.toLowerCase();
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(
      presence.url ? { platform: presence.platform, url: presence.url } : { platform: presence.platform },
    );
  }
  return out;
}

export interface BreachFacts {
  name: string;
  date?: string;
  sensitive: boolean;
  dataClasses: string[];
}

export function breachesOf(hibp: unknown): BreachFacts[] {
  const seen = new Set<string>();
  const out: BreachFacts[] = [];
  for (const item of list(hibp)) {
    const name = text(at(item, 'Name')) ?? text(at(item, 'Title'));
    if (!name || seen.has(name.toLowerCase())) continue;
    seen.add(name.toLowerCase());
    const date = isoDay(at(item, 'BreachDate'));
    out.push({
      name,
      ...(date && { date }),
      sensitive: at(item, 'IsSensitive') === true,
      dataClasses: list(at(item, 'DataClasses')).flatMap((c) => text(c) ?? []),
    });
  }
  return out;
}

export function registeredSites(holehe: unknown): number {
  const sites = new Set<string>();
  for (const site of list(at(holehe, 'used'))) {
    const name = text(site);
    if (name) sites.add(name.toLowerCase());
  }
  for (const check of list(at(holehe, 'checked'))) {
    const name = text(at(check, 'site'));
    if (name && at(check, 'exists') === true) sites.add(name.toLowerCase());
  }
  return sites.size;
}

export function exposureOf(profile: MergedProfile, breaches: BreachFacts[], sites: number): ExposureSummary {
  const classes = new Map<string, string>();
  for (const breach of breaches)
    for (const c of breach.dataClasses) if (!classes.has(c.toLowerCase())) classes.set(c.toLowerCase(), c);
  return {
    breaches: breaches.length,
    breachNames: breaches.map((b) => b.name),
    sensitiveBreaches: breaches.filter((b) => b.sensitive).length,
    registeredSites: sites,
    publicProfiles: publicProfiles(profile),
    dataClasses: [...classes.values()].sort((a, b) => a.localeCompare(b, 'en')),
  };
}
