import { messages, type PlatformPresence } from '@footprint/domain';
import { useId } from 'react';
import { CaptureButton } from './CaptureButton.tsx';
import { ExternalLink } from './ExternalLink.tsx';
import { PlatformIcon } from './PlatformIcon.tsx';
import { SourceChip } from './SourceChip.tsx';

interface PlatformGroup {
  platform: string;
  active: boolean;
  url?: string;
  sources: PlatformPresence['source'][];
}

/**
 * One tile per platform: several sources reporting the same platform ('Instagram' from the social scan,
 * 'instagram' from the registered-sites check) corroborate each other rather than repeat. A platform is
 * Active when any source found an account there.
 */
export function groupPlatforms(platforms: PlatformPresence[]): PlatformGroup[] {
  const groups = new Map<string, PlatformGroup>();
  for (const item of platforms) {
    const key = item.platform.toLowerCase().replace(/[^a-z0-9]/g, '') || item.platform;
    const group = groups.get(key);
    if (!group) {
      groups.set(key, {
        platform: item.platform,
        active: item.active,
        url: item.url,
        sources: [item.source],
      });
      continue;
    }
    group.active ||= item.active;
    group.url ??= item.url;
    if (!group.sources.includes(item.source)) group.sources.push(item.source);
    // Prefer the spelling with capitals ('GitHub' over 'github').
    if (group.platform === group.platform.toLowerCase() && item.platform !== item.platform.toLowerCase())
      group.platform = item.platform;
  }
  // Accounts that exist first: they are the leads; inactive platforms are negative findings.
  return [...groups.values()].sort((a, b) => Number(b.active) - Number(a.active));
}

export function InternetPresence({ platforms }: { platforms: PlatformPresence[] }) {
  const id = useId();
  const groups = groupPlatforms(platforms);
  const active = groups.filter((group) => group.active).length;
  return (
    <section aria-labelledby={id} className="card p-4 sm:p-5">
      <h3 id={id} className="section-title">
        {messages.results.internetPresence}
        <span className="section-count">
          <span className="sr-only">{messages.results.activeOn}</span>
          {active}/{groups.length}
        </span>
      </h3>
      <ul className="mt-3 grid gap-2 sm:grid-cols-2 xl:grid-cols-3">
        {groups.map((item) => (
          <li
            key={item.platform}
            className={`flex items-center gap-3 rounded-xl border px-3 py-2 ${
              item.active ? 'border-line bg-night/60' : 'border-line/50 bg-transparent'
            }`}
          >
            <PlatformIcon platform={item.platform} dimmed={!item.active} />
            <div className="min-w-0 flex-1">
              <p className={`truncate text-sm font-medium ${item.active ? 'text-text' : 'text-muted'}`}>
                <ExternalLink href={item.url}>{item.platform}</ExternalLink>
              </p>
              <p className="mt-0.5 flex flex-wrap items-center gap-1">
                <span className={item.active ? 'status-badge status-on' : 'status-badge status-off'}>
                  {item.active ? messages.results.active : messages.results.inactive}
                </span>
                {item.sources.map((source) => (
                  <SourceChip key={source} source={source} />
                ))}
              </p>
            </div>
            {item.active && <CaptureButton url={item.url} />}
          </li>
        ))}
      </ul>
    </section>
  );
}
