/**
 * Provenance of a merged value: for each place in the answer that gave it, the record set's real name
 * (a breach's own name, else the catalogue's 'Gov identity records'), the vendor that served it when it
 * answered live, when it answered and whether it was live or sandbox, read from the answer's `source_status` and
 * `answered_at` (untrusted: anything malformed is left out, never guessed).
 */
import { SOURCE_LONG_LABELS } from '../../catalogue/sources.ts';
import type { ProfileOrigin } from '../profile-types.ts';
import { at, dict, text } from './read.ts';
import type { AnswerMeta, Provenance } from './types.ts';

const isoTime = (value: unknown): string | undefined => {
  if (typeof value !== 'string' || value.length > 40) return undefined;
  const time = new Date(value);
  return Number.isNaN(time.getTime()) ? undefined : time.toISOString();
};

/** The provenance of one origin of a value that `source` (a profile label) gave. */
export function provenanceOf(
  source: string,
  origin: ProfileOrigin | undefined,
  meta: AnswerMeta,
): Provenance {
  const key = origin?.key;
  const status = key ? dict(at(meta.sourceStatus, key)) : undefined;
  const mode = status?.mode === 'live' || status?.mode === 'sandbox' ? status.mode : undefined;
  const vendor = mode === 'live' ? text(status?.vendor) : undefined;
  const catalogue = key && Object.hasOwn(SOURCE_LONG_LABELS, key) ? SOURCE_LONG_LABELS[key] : undefined;
  const answeredAt = isoTime(status?.answered_at) ?? isoTime(meta.answeredAt);
  const own = origin?.name ? text(origin.name) : undefined;
  // The record set, never the vendor: one vendor serves several record sets, and naming it alone
  // made three different sources read 'KYC vendor KYC vendor KYC vendor'.
  const name = own ?? catalogue ?? source;
  return {
    source,
    name,
    ...(key && { key }),
    ...(own && { via: catalogue ?? source }),
    ...(vendor && { vendor }),
    ...(answeredAt && { answeredAt }),
    ...(mode && { mode }),
  };
}

/** Who gave a value, in words: 'KYC vendor · Gov identity records', 'Orbitly 2019 (via OSINT)'. */
export function provenanceName(item: Provenance): string {
  const set = item.via ? `${item.name} (via ${item.via})` : item.name;
  return item.vendor && item.vendor !== item.name ? `${item.vendor} · ${set}` : set;
}

/** One line of provenance: 'Orbitly 2019 (via OSINT) · sandbox · answered 2026-11-24 22:40 UTC'. */
export function provenanceText(item: Provenance): string {
  const parts = [provenanceName(item)];
  if (item.mode) parts.push(item.mode);
  if (item.answeredAt) parts.push(`answered ${item.answeredAt.slice(0, 16).replace('T', ' ')} UTC`);
  return parts.join(' · ');
}

/**
 * A value's provenance said compactly for print: the sources that answered alike (same mode, same time)
 * on one line each, 'Gov identity records, Orbitly 2019 (via OSINT) — sandbox · answered 2026-11-24 22:40 UTC'.
 */
export function provenanceLines(items: readonly Provenance[]): string[] {
  const groups = new Map<string, { names: string[]; tail: string }>();
  for (const item of items) {
    const tail = [
      item.mode,
      item.answeredAt && `answered ${item.answeredAt.slice(0, 16).replace('T', ' ')} UTC`,
    ]
      .filter(Boolean)
      .join(' · ');
    const name = provenanceName(item);
    const group = groups.get(tail) ?? { names: [], tail };
    if (!group.names.includes(name)) group.names.push(name);
    groups.set(tail, group);
  }
  return [...groups.values()].map(({ names, tail }) =>
    tail ? `${names.join(', ')} — ${tail}` : names.join(', '),
  );
}
