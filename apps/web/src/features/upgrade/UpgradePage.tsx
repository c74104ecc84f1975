import { messages } from '@footprint/domain';
import { Link } from 'react-router';
import { paths } from '../../config/paths.ts';

/** /upgrade (spec §2.3): where trial users land when they open a live-only feature. */
export default function UpgradePage() {
  return (
    <div className="flex flex-1 items-center justify-center px-4 py-16 sm:px-6">
      <section className="card w-full max-w-lg p-8 text-center sm:p-10">
        <span className="mx-auto flex size-14 items-center justify-center rounded-full bg-warning/15 text-warning">
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
            <rect x="4.5" y="10.5" width="15" height="10" rx="2" />
            <path d="M8 10.5V7.5a4 4 0 0 1 8 0v3M12 14.5v2" />
          </svg>
        </span>
        <h1 className="mt-5 text-2xl font-bold tracking-tight text-text sm:text-3xl">
          {messages.upgrade.title}
        </h1>
        <p className="mt-3 text-muted">{messages.upgrade.body}</p>
        <Link to={paths.dashboard} className="btn-primary mt-8">
          {messages.upgrade.goToDashboard}
        </Link>
      </section>
    </div>
  );
}
