import { messages } from '@footprint/domain';
import { Link } from 'react-router';
import { paths } from '../../../config/paths.ts';

const t = messages.admin;

export function BackLink() {
  return (
    <Link to={paths.adminUsers} className="link-accent inline-flex items-center gap-1 text-sm">
      <svg
        viewBox="0 0 24 24"
        fill="none"
        stroke="currentColor"
        strokeWidth="2"
        strokeLinecap="round"
        aria-hidden="true"
        focusable="false"
        className="size-4"
      >
        <path d="M15 6l-6 6 6 6" />
      </svg>
      {t.user.back}
    </Link>
  );
}
