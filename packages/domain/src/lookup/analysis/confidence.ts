/**
 * Confidence of a value (a cluster of equivalent values):
 *
 *     confidence = min(0.97, 1 − Π over distinct sources s of (1 − reliability(s) × match(s)))
 *
 * rounded to 2 decimals: a noisy-OR, treating each distinct source label as one independent witness.
 * reliability (the source catalogue's): Gov, ISP Response 0.8; LinkedIn, GetUser, Account Provider
 * 0.65; Caller ID, Caller Apps, Social Media, WhatsApp, Telegram, Avatar Service, Social Scan,
 * Registered Sites 0.5; OSINT, Breach Data and anything unknown 0.3. match is 1, except for a name that
 * agrees with the cluster on a single word only ('Rohan' beside 'Rohan Suresh Deshmukh'), which counts
 * half. Several records from one source count once, with their best match. So Gov alone gives 0.8, Gov
 * and OSINT 0.86, two caller apps 0.75, OSINT alone 0.3; nothing reaches certainty.
 */
import { PROFILE_LABELS, type SourceLabel } from '../../catalogue/sources.ts';

/** How far one source label is trusted on its own (see the formula above). */
export const SOURCE_RELIABILITY = Object.fromEntries(
  Object.values(PROFILE_LABELS).map(({ text, reliability }) => [text, reliability]),
) as Readonly<Record<SourceLabel, number>>;

export const MAX_CONFIDENCE = 0.97;
/** A rival value at or above this share of the top value's confidence keeps an attribute from being corroborated. */
export const COMPARABLE_SHARE = 0.8;
/** A value is corroborated when at least this many independent sources (source labels) gave it. */
export const CORROBORATING_SOURCES = 2;

const DEFAULT_RELIABILITY = 0.3;

export function sourceReliability(source: string): number {
  return Object.hasOwn(SOURCE_RELIABILITY, source)
    ? SOURCE_RELIABILITY[source as SourceLabel]
    : DEFAULT_RELIABILITY;
}

/**
 * The confidence of a value given by these sources, each with an optional match weight in (0, 1]
 * (default 1). Repeated sources count once, at their best weight.
 */
export function confidenceFor(sources: ReadonlyArray<string | { source: string; weight?: number }>): number {
  const best = new Map<string, number>();
  for (const item of sources) {
    const source = typeof item === 'string' ? item : item.source;
    const weight = typeof item === 'string' ? 1 : Math.min(1, Math.max(0, item.weight ?? 1));
    const support = sourceReliability(source) * weight;
    best.set(source, Math.max(best.get(source) ?? 0, support));
  }
  if (best.size === 0) return 0;
  let doubt = 1;
  for (const support of best.values()) doubt *= 1 - support;
  return Math.round(Math.min(MAX_CONFIDENCE, 1 - doubt) * 100) / 100;
}
