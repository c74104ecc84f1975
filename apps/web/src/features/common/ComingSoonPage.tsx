import { messages } from '@footprint/domain';
import { Link, useLocation } from 'react-router';
import { paths } from '../../config/paths.ts';

/** Names of the modules that still show this page. */
const moduleNames: Record<string, string> = {
  [paths.subscription]: messages.comingSoon.subscription,
};

/** A temporary stand-in for signed-in modules that are still being built. */
export default function ComingSoonPage() {
  const { pathname } = useLocation();
  const name = moduleNames[pathname] ?? messages.comingSoon.module;

  return (
    <div className="flex flex-1 items-center justify-center px-4 py-16 sm:px-6">
      <section className="card w-full max-w-lg p-8 text-center sm:p-10">
        <span className="mx-auto flex size-14 items-center justify-center rounded-full bg-accent-soft text-accent">
          <svg
            viewBox="0 0 24 24"
            fill="none"
            stroke="currentColor"
            strokeWidth="1.75"
            strokeLinecap="round"
            strokeLinejoin="round"
            aria-hidden="true"
            focusable="false"
            className="size-7"
          >
            <path d="M14.7 6.3a4 4 0 0 0-5.2 5.2L3.5 17.5a1.8 1.8 0 0 0 2.5 2.5l6-6a4 4 0 0 0 5.2-5.2l-2.4 2.4-2.3-.6-.6-2.3z" />
          </svg>
        </span>
        <h1 className="mt-5 text-2xl font-bold tracking-tight text-text">{name}</h1>
        <p className="mt-3 text-muted">{messages.comingSoon.body}</p>
        <Link to={paths.dashboard} className="btn-primary mt-8">
          {messages.upgrade.goToDashboard}
        </Link>
      </section>
    </div>
  );
}
