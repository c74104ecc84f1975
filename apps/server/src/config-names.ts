import { distance } from 'fastest-levenshtein';

/**
 * Environment variables that look like one of ours but are not: a misspelling of a known name
 * (`DATABSE_URL`), a known name in the wrong case (`database_url`), or an unknown name in one of our
 * families (`REPORT_THREAD`, `COST_WHATSAPP`). A family is a first word that two or more known names
 * share (COST_, MEDIA_, REPORT_, LOOKUP_, …): a single name's first word (NODE_ of NODE_ENV, REDIS_
 * of REDIS_URL) is too common in the world to claim. Names under a vendor's prefix are the vendor's
 * (their adapters read them), and Kubernetes' and Docker's service links (`SMTP_PORT=tcp://…`,
 * `REDIS_SERVICE_HOST`) are the platform's: both are left alone.
 */
export interface StrayVariable {
  name: string;
  /** The known name it probably means, when one is close enough. */
  suggestion?: string;
  /** The family it claims to belong to, when no name is close. */
  family?: string;
}

const SERVICE_LINK =
  /_(SERVICE_HOST|SERVICE_PORT(_[A-Z0-9_]+)?|PORT(_\d+_(TCP|UDP|SCTP)(_(ADDR|PORT|PROTO))?)?)$/;

/** The edits a name of this length may be away from a known one and still count as its misspelling. */
export const toleranceOf = (length: number) => (length <= 5 ? 1 : length <= 12 ? 2 : 3);

const firstWord = (name: string) => (name.includes('_') ? name.slice(0, name.indexOf('_') + 1) : undefined);

/** The first words (with their underscore) that two or more known names share. */
export function familiesOf(known: readonly string[]): Set<string> {
  const counts = new Map<string, number>();
  for (const name of known) {
    const word = firstWord(name);
    if (word) counts.set(word, (counts.get(word) ?? 0) + 1);
  }
  return new Set([...counts].filter(([, count]) => count >= 2).map(([word]) => word));
}

export function strayVariables(
  names: Iterable<string>,
  known: readonly string[],
  vendorPrefixes: readonly string[],
): StrayVariable[] {
  const knownSet = new Set(known);
  const families = familiesOf(known);
  const out: StrayVariable[] = [];
  for (const name of names) {
    if (knownSet.has(name)) continue;
    if (vendorPrefixes.some((prefix) => name.startsWith(`${prefix}_`))) continue;
    if (name !== name.toUpperCase()) {
      // npm_config_*, and the like: only a known name in the wrong case is ours.
      const upper = name.toUpperCase();
      if (knownSet.has(upper)) out.push({ name, suggestion: upper });
      continue;
    }
    if (SERVICE_LINK.test(name)) continue;
    let best: { name: string; distance: number } | undefined;
    for (const candidate of known) {
      const d = distance(name, candidate);
      if (d <= toleranceOf(candidate.length) && (!best || d < best.distance))
        best = { name: candidate, distance: d };
    }
    if (best) {
      out.push({ name, suggestion: best.name });
      continue;
    }
    const family = firstWord(name);
    if (family && families.has(family)) out.push({ name, family });
  }
  return out;
}

/** One line for a stray variable. */
export function describeStray(stray: StrayVariable, known: readonly string[]): string {
  const head = `${stray.name} is not a Footprint setting`;
  if (stray.suggestion) return `${head}; did you mean ${stray.suggestion}?`;
  const members = known.filter((name) => stray.family && name.startsWith(stray.family));
  return `${head} (the ${stray.family} settings are ${members.join(', ')}).`;
}
