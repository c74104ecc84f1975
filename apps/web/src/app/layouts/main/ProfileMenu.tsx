import { isLive, messages, type User } from '@footprint/domain';
import { useId, useMemo, useRef, useState } from 'react';
import { Link } from 'react-router';
import { Spinner } from '../../../components/Spinner.tsx';
import { useDisclosure } from '../../../components/useDisclosure.ts';
import { paths } from '../../../config/paths.ts';
import { icons } from './icons.tsx';

const initials = (name: string) =>
  name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((part) => part[0]?.toUpperCase() ?? '')
    .join('') || '?';

const menuItemClass =
  'flex w-full items-center gap-3 rounded-lg px-3 py-2.5 text-left text-sm font-medium text-text transition-colors hover:bg-surface-2 hover:text-accent';

/**
 * The profile button and its dropdown: name, e-mail and Logout (spec §2.4), with the account's own pages
 * above Logout (Search history, Security, API keys for live accounts, Admin for admins; beyond the
 * spec's menu). The sidebar and the phone drawer list the same pages too (navigation.tsx).
 */
export function ProfileMenu({
  user,
  loggingOut,
  onLogout,
}: {
  user: User;
  loggingOut: boolean;
  onLogout: () => void;
}) {
  const [open, setOpen] = useState(false);
  const id = useId();
  const wrapper = useRef<HTMLDivElement>(null);
  const toggle = useRef<HTMLButtonElement>(null);
  const firstLink = useRef<HTMLAnchorElement>(null);

  useDisclosure(
    open,
    setOpen,
    useMemo(() => ({ wrapper, toggle, firstItem: firstLink }), []),
  );

  return (
    <div ref={wrapper} className="relative">
      <button
        ref={toggle}
        type="button"
        aria-expanded={open}
        aria-controls={id}
        aria-label={messages.layout.profileMenu(user.name)}
        onClick={() => setOpen((value) => !value)}
        className="inline-flex items-center gap-2 rounded-full border border-line bg-surface-2/60 py-1 pr-2 pl-1 text-sm text-text transition-colors hover:border-accent"
      >
        <span
          aria-hidden="true"
          data-glyph={initials(user.name)}
          className="glyph inline-flex size-8 items-center justify-center rounded-full bg-accent-soft text-xs font-bold text-accent"
        />
        <span className="hidden max-w-40 truncate font-medium sm:inline">{user.name}</span>
        <span className={`text-muted transition-transform ${open ? 'rotate-180' : ''}`}>{icons.chevron}</span>
      </button>

      {open && (
        <div
          id={id}
          className="dropdown-enter absolute right-0 z-50 mt-2 w-72 max-w-[calc(100vw-2rem)] overflow-hidden rounded-xl border border-line bg-surface shadow-2xl shadow-black/50"
        >
          <div className="flex items-center gap-3 border-b border-line px-4 py-4">
            <span
              aria-hidden="true"
              className="inline-flex size-10 shrink-0 items-center justify-center rounded-full bg-accent-soft text-sm font-bold text-accent"
            >
              {initials(user.name)}
            </span>
            <div className="min-w-0">
              <p className="truncate text-sm font-semibold text-text">{user.name}</p>
              <p className="truncate text-xs text-muted" title={user.email}>
                {user.email}
              </p>
            </div>
          </div>
          <div className="p-2">
            <Link ref={firstLink} to={paths.history} className={menuItemClass} onClick={() => setOpen(false)}>
              {icons.history}
              {messages.history.menuLink}
            </Link>
            <Link to={paths.security} className={menuItemClass} onClick={() => setOpen(false)}>
              {icons.security}
              {messages.security.navLabel}
            </Link>
            {isLive(user) && (
              <Link to={paths.apiKeys} className={menuItemClass} onClick={() => setOpen(false)}>
                {icons.apiKey}
                {messages.apiKeys.navLabel}
              </Link>
            )}
            {user.role === 'admin' && (
              <Link to={paths.admin} className={menuItemClass} onClick={() => setOpen(false)}>
                {icons.admin}
                {messages.admin.menuLink}
              </Link>
            )}
            <div className="my-1.5 border-t border-line" />
            <button
              type="button"
              onClick={onLogout}
              disabled={loggingOut}
              className="flex w-full items-center gap-3 rounded-lg px-3 py-2.5 text-left text-sm font-medium text-text transition-colors hover:bg-danger/10 hover:text-danger disabled:cursor-wait disabled:opacity-80"
            >
              {loggingOut ? (
                <span className="flex size-5 items-center justify-center">
                  <Spinner size="sm" decorative />
                </span>
              ) : (
                icons.logout
              )}
              {loggingOut ? messages.logout.inProgress : messages.mainNav.logout}
            </button>
          </div>
        </div>
      )}
    </div>
  );
}
