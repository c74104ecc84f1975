import { messages, PROFILE_LABELS, type SourceLabel } from '@footprint/domain';

/** One hue per source family (the source catalogue's), so corroborating sources are easy to tell apart. */
const hues: ReadonlyMap<string, string> = new Map(
  Object.values(PROFILE_LABELS).map(({ text, hue }) => [text, `chip-${hue}`]),
);

/** The small label naming where a value came from (spec §3 source labels). */
export function SourceChip({ source }: { source: SourceLabel }) {
  return (
    <span className={`source-chip ${hues.get(source) ?? 'chip-slate'}`}>
      <span className="sr-only">{messages.profile.sourcePrefix}</span>
      {source}
    </span>
  );
}
