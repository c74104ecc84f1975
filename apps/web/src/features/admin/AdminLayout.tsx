import { messages } from '@footprint/domain';
import { useEffect, useRef } from 'react';
import { NavLink, Outlet, useLocation } from 'react-router';
import { paths } from '../../config/paths.ts';

/** The frame of every /admin screen: the section links above the screen itself. */

const sections = [
  { to: paths.adminUsers, label: messages.admin.nav.users },
  { to: paths.adminUnits, label: messages.units.admin.navLink },
  { to: paths.adminAudit, label: messages.admin.nav.audit },
  { to: paths.adminProviders, label: messages.admin.nav.providers },
  { to: paths.adminLeakSources, label: messages.admin.nav.leakSources },
  { to: paths.adminSiteHealth, label: messages.admin.nav.siteHealth },
  { to: paths.adminSettings, label: messages.admin.nav.settings },
] as const;

export default function AdminLayout() {
  const { pathname } = useLocation();
  const nav = useRef<HTMLElement>(null);

  // On a phone the section links scroll sideways: keep the current one in view.
  useEffect(() => {
    const current = nav.current?.querySelector<HTMLElement>('[aria-current="page"]');
    const list = nav.current;
    if (!current || !list || !pathname) return;
    const left = current.getBoundingClientRect().left - list.getBoundingClientRect().left + list.scrollLeft;
    if (left < list.scrollLeft || left + current.offsetWidth > list.scrollLeft + list.clientWidth) {
      list.scrollLeft = Math.max(0, left - 16);
    }
  }, [pathname]);

  return (
    <div className="mx-auto flex w-full max-w-7xl flex-1 flex-col px-4 py-6 sm:px-6 lg:py-8">
      <p className="eyebrow">{messages.admin.eyebrow}</p>
      <nav ref={nav} aria-label={messages.admin.navLabel} className="admin-nav mt-3">
        <ul>
          {sections.map((section) => (
            <li key={section.to}>
              <NavLink to={section.to} className="admin-nav-link">
                {section.label}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
      <div className="mt-6 flex flex-1 flex-col">
        <Outlet />
      </div>
    </div>
  );
}
