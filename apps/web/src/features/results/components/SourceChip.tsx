import { messages, type SourceLabel } from '@footprint/domain';

/** One hue per source family, so corroborating sources are easy to tell apart at a glance. */
const tones: Record<SourceLabel, string> = {
  Gov: 'chip-emerald',
  'ISP Response': 'chip-sky',
  WhatsApp: 'chip-green',
  'Social Media': 'chip-blue',
  'Caller ID': 'chip-violet',
  'Caller Apps': 'chip-violet',
  OSINT: 'chip-amber',
  Telegram: 'chip-sky',
  'Account Provider': 'chip-rose',
  GetUser: 'chip-indigo',
  LinkedIn: 'chip-blue',
  'Avatar Service': 'chip-pink',
  'Social Scan': 'chip-teal',
  'Breach Data': 'chip-red',
  'Registered Sites': 'chip-slate',
};

/** The small label naming where a value came from (spec §3 source labels). */
export function SourceChip({ source }: { source: SourceLabel }) {
  return (
    <span className={`source-chip ${tones[source] ?? 'chip-slate'}`}>
      <span className="sr-only">{messages.profile.sourcePrefix}</span>
      {source}
    </span>
  );
}
