import {
  type AccountProfileData,
  type AvatarServiceData,
  type Breach,
  isSafeImageUrl,
  messages,
} from '@footprint/domain';
import { type ReactNode, useId, useMemo } from 'react';
import { CopyButton } from '../../../components/CopyButton.tsx';
import { formatCount, formatDate, safeHref } from '../format.ts';
import { CaptureButton } from './CaptureButton.tsx';
import { PlatformIcon } from './PlatformIcon.tsx';
import { RemoteImage } from './ProfileImages.tsx';

function CardShell({ title, aside, children }: { title: string; aside?: ReactNode; children: ReactNode }) {
  const id = useId();
  return (
    <section aria-labelledby={id} className="card p-4 sm:p-5">
      <div className="flex items-center justify-between gap-2">
        <h2 id={id} className="section-title">
          {title}
        </h2>
        {aside}
      </div>
      <div className="mt-3">{children}</div>
    </section>
  );
}

const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value.trim() ? value.trim() : undefined;

/**
 * The web-account-provider profile (spec §2.5): shown only when the provider returned a person id.
 * Name, addresses, picture, person id and when the account was last updated.
 */
export function AccountProviderCard({ emailData }: { emailData: AccountProfileData | null | undefined }) {
  const profile = emailData?.PROFILE_CONTAINER?.profile;
  const personId = text(profile?.personId);
  if (!profile || !personId) return null;
  const names = (profile.names ?? [])
    .map(
      (n) =>
        text(n?.fullname) ?? ([text(n?.firstName), text(n?.lastName)].filter(Boolean).join(' ') || undefined),
    )
    .filter((n): n is string => Boolean(n));
  const emails = (profile.emails ?? []).map((e) => text(e?.value)).filter((e): e is string => Boolean(e));
  const photo =
    (profile.profilePhotos ?? []).find((p) => text(p?.url) && isSafeImageUrl(p?.url))?.url ?? undefined;
  const lastUpdated = text(profile.sourceIds?.lastUpdated);
  const reviews = emailData?.maps_result?.reviews?.length ?? 0;

  return (
    <CardShell title={messages.results.accountProviderTitle}>
      <div className="flex items-start gap-4">
        <RemoteImage
          src={photo}
          alt={messages.results.accountPicture(names[0])}
          className="size-16 shrink-0 rounded-full border border-line object-cover"
        />
        <dl className="min-w-0 flex-1 space-y-2 text-sm">
          {names.length > 0 && (
            <div>
              <dt className="entry-key">{messages.results.name}</dt>
              <dd className="font-semibold text-text">{names.join(' · ')}</dd>
            </div>
          )}
          {emails.length > 0 && (
            <div>
              <dt className="entry-key">{messages.results.email}</dt>
              <dd className="break-all text-text/90">{emails.join(', ')}</dd>
            </div>
          )}
          <div>
            <dt className="entry-key">{messages.results.personId}</dt>
            <dd className="flex items-center gap-2">
              <span className="font-mono text-[0.8rem] break-all text-text/90">{personId}</span>
              <CopyButton text={personId} label={messages.results.copyPersonId} />
            </dd>
          </div>
          {lastUpdated && (
            <div>
              <dt className="entry-key">{messages.results.lastUpdated}</dt>
              <dd className="text-text/90">{formatDate(lastUpdated, true)}</dd>
            </div>
          )}
          {reviews > 0 && (
            <div>
              <dt className="entry-key">{messages.results.mapsReviews}</dt>
              <dd className="text-text/90">{reviews}</dd>
            </div>
          )}
        </dl>
      </div>
    </CardShell>
  );
}

/** The avatar service (spec §2.5): where a public avatar or profile exists for the address. */
export function AvatarServiceCard({ zehefData }: { zehefData: AvatarServiceData | null | undefined }) {
  const items = (zehefData?.data ?? []).filter((item) => item && text(item.source));
  if (items.length === 0) return null;
  const found = items.filter((item) => text(item?.status)?.toLowerCase() === 'found');
  return (
    <CardShell
      title={messages.results.avatarServiceTitle}
      aside={
        <span className="text-xs text-muted tabular-nums">
          {messages.results.avatarFound(found.length, items.length)}
        </span>
      }
    >
      <ul className="space-y-2">
        {items.map((item, index) => {
          const isFound = text(item?.status)?.toLowerCase() === 'found';
          const source = text(item?.source) ?? messages.results.unknownSource;
          const link = safeHref(item?.profile_url);
          return (
            // biome-ignore lint/suspicious/noArrayIndexKey: entries have no id
            <li key={index} className="flex items-center gap-3">
              <RemoteImage
                src={isFound ? (item?.avatar_url ?? undefined) : undefined}
                alt={isFound ? messages.results.avatarAlt(source) : ''}
                className="size-9 shrink-0 rounded-lg border border-line object-cover"
                fallback={<PlatformIcon platform={source} dimmed={!isFound} />}
              />
              <div className="min-w-0 flex-1">
                <p className={`truncate text-sm font-medium ${isFound ? 'text-text' : 'text-muted'}`}>
                  {link ? (
                    <a href={link} target="_blank" rel="noopener noreferrer" className="link-accent">
                      {source}
                      <span className="sr-only">{messages.layout.opensInNewTab}</span>
                    </a>
                  ) : (
                    source
                  )}
                </p>
                {text(item?.username) && (
                  <p className="truncate text-xs text-muted">@{text(item?.username)}</p>
                )}
              </div>
              {isFound && <CaptureButton url={link} />}
              <span className={isFound ? 'status-badge status-on' : 'status-badge status-off'}>
                {isFound ? messages.results.found : messages.results.notFound}
              </span>
            </li>
          );
        })}
      </ul>
    </CardShell>
  );
}

/**
 * HIBP descriptions are HTML. They are never rendered as HTML: an inert parse (no scripts run, no
 * images load) yields their text.
 */
function plainText(html: string): string {
  try {
    return new DOMParser().parseFromString(html, 'text/html').body.textContent?.trim() ?? '';
  } catch {
    return '';
  }
}

function BreachCard({ breach }: { breach: Breach }) {
  const title = text(breach.Title) ?? text(breach.Name) ?? messages.results.unnamedBreach;
  const description = useMemo(
    () => (breach.Description ? plainText(breach.Description) : ''),
    [breach.Description],
  );
  const classes = (breach.DataClasses ?? []).filter(
    (c): c is string => typeof c === 'string' && c.trim() !== '',
  );
  return (
    <li className="card flex flex-col p-4">
      <div className="flex items-start gap-3">
        <RemoteImage
          src={breach.LogoPath ?? undefined}
          alt=""
          className="size-10 shrink-0 rounded-lg bg-white/90 object-contain p-1"
          fallback={
            <span
              aria-hidden="true"
              className="flex size-10 shrink-0 items-center justify-center rounded-lg bg-danger/15 text-sm font-bold text-danger"
            >
              {title.slice(0, 2).toUpperCase()}
            </span>
          }
        />
        <div className="min-w-0 flex-1">
          <h3 className="text-sm font-semibold break-words text-text">{title}</h3>
          {text(breach.Name) && text(breach.Name) !== title && (
            <p className="text-xs text-muted">{breach.Name}</p>
          )}
          {text(breach.Domain) && <p className="truncate text-xs text-muted">{breach.Domain}</p>}
        </div>
      </div>
      <dl className="mt-3 grid grid-cols-2 gap-2">
        <div className="tile">
          <dt className="tile-label">{messages.results.breachDate}</dt>
          <dd className="tile-value tabular-nums">
            {text(breach.BreachDate) ? formatDate(breach.BreachDate!) : '—'}
          </dd>
        </div>
        <div className="tile">
          <dt className="tile-label">{messages.results.accounts}</dt>
          <dd className="tile-value tabular-nums">
            {typeof breach.PwnCount === 'number' ? formatCount(breach.PwnCount) : '—'}
          </dd>
        </div>
      </dl>
      {description && <p className="mt-3 line-clamp-3 text-xs leading-relaxed text-muted">{description}</p>}
      {classes.length > 0 && (
        <div className="mt-3">
          <p className="sr-only">{messages.results.dataExposed}</p>
          <ul className="flex flex-wrap gap-1">
            {classes.map((item) => (
              <li
                key={item}
                className="rounded-md border border-danger/25 bg-danger/10 px-1.5 py-0.5 text-[0.7rem] text-rose-200"
              >
                {item}
              </li>
            ))}
          </ul>
        </div>
      )}
    </li>
  );
}

/** 'Found breaches' (spec §2.5): a grid of three columns on large screens, newest breach first. */
export function BreachesGrid({ breaches }: { breaches: Breach[] | null | undefined }) {
  const id = useId();
  const list = (breaches ?? []).filter((b): b is Breach => typeof b === 'object' && b !== null);
  if (list.length === 0) return null;
  const sorted = [...list].sort((a, b) => (text(b.BreachDate) ?? '').localeCompare(text(a.BreachDate) ?? ''));
  return (
    <section aria-labelledby={id} className="space-y-3">
      <h2 id={id} className="results-heading">
        {messages.results.foundBreaches}
        <span className="section-count">{list.length}</span>
      </h2>
      <ul className="grid gap-3 md:grid-cols-2 lg:grid-cols-3">
        {sorted.map((breach, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: breach names may repeat across sources
          <BreachCard key={`${breach.Name ?? ''}-${index}`} breach={breach} />
        ))}
      </ul>
    </section>
  );
}
