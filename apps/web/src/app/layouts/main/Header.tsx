import { messages, type User } from '@footprint/domain';
import type { RefObject } from 'react';
import { Logo } from '../../../components/Logo.tsx';
import { PoolChip } from '../../../components/PoolChip.tsx';
import { paths } from '../../../config/paths.ts';
import { icons } from './icons.tsx';
import { ProfileMenu } from './ProfileMenu.tsx';

/**
 * The header of the signed-in pages (spec §2.4): the menu button on the small screens of the search
 * pages, the brand where the sidebar does not show it, the credits (and the unit pool the user draws
 * on, if any) and the profile menu.
 */
export function Header({
  user,
  sidebarHidden,
  menuButton,
  loggingOut,
  onLogout,
}: {
  user: User;
  sidebarHidden: boolean;
  /** Present on the pages whose small-screen header carries the menu button. */
  menuButton?: {
    ref: RefObject<HTMLButtonElement | null>;
    expanded: boolean;
    onClick: () => void;
  };
  loggingOut: boolean;
  onLogout: () => void;
}) {
  return (
    <header className="sticky top-0 z-20 flex h-16 shrink-0 items-center gap-3 border-b border-line bg-ink/85 px-4 backdrop-blur-md sm:px-6">
      {menuButton && (
        <button
          ref={menuButton.ref}
          type="button"
          aria-label={messages.layout.openMenu}
          aria-expanded={menuButton.expanded}
          aria-controls="main-nav-drawer"
          aria-haspopup="dialog"
          onClick={menuButton.onClick}
          className="inline-flex size-10 shrink-0 items-center justify-center rounded-lg border border-line text-text transition-colors hover:border-accent hover:text-accent lg:hidden"
        >
          {icons.menu}
        </button>
      )}
      {/* The sidebar carries the brand on wide screens; narrow phones get the mark alone. */}
      <span className={`shrink-0 sm:hidden ${sidebarHidden ? '' : 'lg:hidden'}`}>
        <Logo to={paths.dashboard} size="sm" hideTitle />
      </span>
      <span className={`hidden shrink-0 sm:inline-flex ${sidebarHidden ? '' : 'lg:hidden'}`}>
        <Logo to={paths.dashboard} size="sm" />
      </span>

      <div className="ml-auto flex items-center gap-1.5 sm:gap-3">
        <p className="inline-flex items-center gap-1.5 rounded-full border border-accent/30 bg-accent-soft/40 px-2.5 py-1.5 sm:px-3 text-xs font-semibold whitespace-nowrap text-accent sm:text-sm">
          {/* Beside the pool, a phone's header keeps its room for the numbers. */}
          {user.pool ? <span className="hidden sm:inline-flex">{icons.coins}</span> : icons.coins}
          {messages.credits.label(user.credits)}
        </p>
        {user.pool && <PoolChip pool={user.pool} />}
        <ProfileMenu user={user} loggingOut={loggingOut} onLogout={onLogout} />
      </div>
    </header>
  );
}
