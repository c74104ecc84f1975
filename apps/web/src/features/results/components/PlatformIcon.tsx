/**
 * The icon beside a platform in Internet Presence (spec §2.5). The spec's client tried several public
 * icon services before a default help icon; this one keeps everything inside the app (no request leaves
 * the browser for an icon, so no third party learns what the investigator is looking at) and falls back
 * through several local sources instead: the exact platform name, then each label of a domain-like name
 * ('accounts.spotify.com' → 'spotify'), then the first word ('Amazon Prime' → 'amazon'), then the help icon.
 */

interface BrandMark {
  /** One to three characters drawn on the brand colour. */
  glyph: string;
  /** Background and text colours, as Tailwind classes: the glyph keeps a 4.5:1 contrast (WCAG AA). */
  tone: string;
}

const marks: Record<string, BrandMark> = {
  whatsapp: { glyph: 'WA', tone: 'bg-[#25d366] text-[#04230f]' },
  telegram: { glyph: 'TG', tone: 'bg-[#229ed9] text-ink' },
  facebook: { glyph: 'f', tone: 'bg-[#1877f2] text-ink' },
  instagram: { glyph: 'IG', tone: 'bg-gradient-to-br from-[#f58529] via-[#dd2a7b] to-[#8134af] text-white' },
  linkedin: { glyph: 'in', tone: 'bg-[#0a66c2] text-white' },
  twitter: { glyph: 'X', tone: 'bg-black text-white ring-1 ring-white/20' },
  x: { glyph: 'X', tone: 'bg-black text-white ring-1 ring-white/20' },
  github: { glyph: 'GH', tone: 'bg-[#24292f] text-white ring-1 ring-white/20' },
  gitlab: { glyph: 'GL', tone: 'bg-[#fc6d26] text-ink' },
  google: { glyph: 'G', tone: 'bg-white text-[#1967d2]' },
  gmail: { glyph: 'M', tone: 'bg-white text-[#c5221f]' },
  youtube: { glyph: '▶', tone: 'bg-[#ff0000] text-ink' },
  gravatar: { glyph: 'G', tone: 'bg-[#1e8cbe] text-ink' },
  snapchat: { glyph: 'SC', tone: 'bg-[#fffc00] text-black' },
  pinterest: { glyph: 'P', tone: 'bg-[#e60023] text-white' },
  reddit: { glyph: 'R', tone: 'bg-[#ff4500] text-ink' },
  tiktok: { glyph: 'TT', tone: 'bg-black text-white ring-1 ring-white/20' },
  discord: { glyph: 'D', tone: 'bg-[#5865f2] text-white' },
  spotify: { glyph: 'S', tone: 'bg-[#1db954] text-black' },
  amazon: { glyph: 'a', tone: 'bg-[#ff9900] text-black' },
  microsoft: { glyph: 'MS', tone: 'bg-[#00a4ef] text-ink' },
  skype: { glyph: 'S', tone: 'bg-[#00aff0] text-ink' },
  apple: { glyph: 'A', tone: 'bg-white text-black' },
  adobe: { glyph: 'A', tone: 'bg-[#fa0f00] text-ink' },
  dropbox: { glyph: 'DB', tone: 'bg-[#0061ff] text-white' },
  flickr: { glyph: '••', tone: 'bg-white text-[#d6006f]' },
  tumblr: { glyph: 't', tone: 'bg-[#36465d] text-white' },
  quora: { glyph: 'Q', tone: 'bg-[#b92b27] text-white' },
  medium: { glyph: 'M', tone: 'bg-black text-white ring-1 ring-white/20' },
  wordpress: { glyph: 'W', tone: 'bg-[#21759b] text-white' },
  yahoo: { glyph: 'Y!', tone: 'bg-[#6001d2] text-white' },
  paypal: { glyph: 'PP', tone: 'bg-[#003087] text-white' },
  netflix: { glyph: 'N', tone: 'bg-black text-[#ff2a35] ring-1 ring-white/20' },
  twitch: { glyph: 'T', tone: 'bg-[#9146ff] text-white' },
  steam: { glyph: 'St', tone: 'bg-[#171a21] text-white ring-1 ring-white/20' },
  vk: { glyph: 'VK', tone: 'bg-[#0077ff] text-ink' },
  signal: { glyph: 'Si', tone: 'bg-[#3a76f0] text-ink' },
  viber: { glyph: 'V', tone: 'bg-[#5f4bd8] text-white' },
  truecaller: { glyph: 'TC', tone: 'bg-[#0087ff] text-ink' },
  flipkart: { glyph: 'F', tone: 'bg-[#2874f0] text-ink' },
  paytm: { glyph: 'P', tone: 'bg-[#00baf2] text-ink' },
  phonepe: { glyph: 'Pe', tone: 'bg-[#5f259f] text-white' },
  zomato: { glyph: 'Z', tone: 'bg-[#e23744] text-ink' },
  swiggy: { glyph: 'S', tone: 'bg-[#fc8019] text-ink' },
  duolingo: { glyph: 'D', tone: 'bg-[#58cc02] text-ink' },
  imgur: { glyph: 'i', tone: 'bg-[#1bb76e] text-ink' },
  patreon: { glyph: 'P', tone: 'bg-[#ff424d] text-ink' },
  ebay: { glyph: 'e', tone: 'bg-white text-[#c4161c]' },
  airbnb: { glyph: 'A', tone: 'bg-[#ff5a5f] text-ink' },
  strava: { glyph: 'S', tone: 'bg-[#fc4c02] text-ink' },
  lastfm: { glyph: 'fm', tone: 'bg-[#d51007] text-white' },
  office365: { glyph: 'O', tone: 'bg-[#d83b01] text-white' },
  outlook: { glyph: 'O', tone: 'bg-[#0078d4] text-white' },
  samsung: { glyph: 'S', tone: 'bg-[#1428a0] text-white' },
};

/** Aliases the data uses for the same platform. */
const aliases: Record<string, string> = {
  fb: 'facebook',
  ig: 'instagram',
  wa: 'whatsapp',
  tg: 'telegram',
  tweeter: 'twitter',
  live: 'microsoft',
  hotmail: 'outlook',
  msn: 'microsoft',
  icloud: 'apple',
  googleplus: 'google',
  youtu: 'youtube',
  lastfmcom: 'lastfm',
};

const slug = (value: string) => value.toLowerCase().replace(/[^a-z0-9]/g, '');

/** Second-level labels that are not the brand ('co' of amazon.co.uk, 'www', ...). */
const noise = new Set([
  'www',
  'm',
  'accounts',
  'account',
  'login',
  'app',
  'api',
  'co',
  'com',
  'net',
  'org',
  'in',
  'io',
]);

/** The chain of candidate keys, most specific first. */
export function iconCandidates(platform: string): string[] {
  const candidates: string[] = [slug(platform)];
  const lower = platform.toLowerCase().trim();
  if (/^[a-z0-9-]+(\.[a-z0-9-]+)+$/.test(lower)) {
    const labels = lower.split('.');
    // Drop the top-level domain, keep the rest from most to least specific brand label.
    for (const label of labels.slice(0, -1)) if (!noise.has(label)) candidates.push(slug(label));
  }
  const firstWord = lower.split(/[\s_/]+/)[0];
  if (firstWord) candidates.push(slug(firstWord));
  return [...new Set(candidates.filter(Boolean))];
}

export function resolveMark(platform: string): BrandMark | undefined {
  for (const candidate of iconCandidates(platform)) {
    const key = aliases[candidate] ?? candidate;
    const mark = marks[key];
    if (mark) return mark;
  }
  return undefined;
}

/** The default when no local mark fits: a help icon. */
function HelpIcon() {
  return (
    <svg
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.75"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
      className="size-4"
    >
      <circle cx="12" cy="12" r="9" />
      <path d="M9.5 9.3a2.6 2.6 0 0 1 5 .9c0 1.7-2.5 2.3-2.5 3.8M12 17.2v.1" />
    </svg>
  );
}

export function PlatformIcon({ platform, dimmed = false }: { platform: string; dimmed?: boolean }) {
  const mark = resolveMark(platform);
  return (
    <span
      aria-hidden="true"
      // A dimmed mark loses its brand colours rather than fading: its glyph stays readable.
      className={`inline-flex size-8 shrink-0 items-center justify-center rounded-lg text-[0.7rem] leading-none font-bold tracking-tight ${
        mark && !dimmed ? mark.tone : 'bg-surface-2 text-muted ring-1 ring-line'
      }`}
    >
      {mark ? mark.glyph : <HelpIcon />}
    </span>
  );
}
