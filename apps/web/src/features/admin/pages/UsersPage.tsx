import { type AdminUser, messages } from '@footprint/domain';
import { useEffect, useId, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { QueryView } from '../../../components/LoadError.tsx';
import { Pagination } from '../../../components/Pagination.tsx';
import { TableScroller } from '../../../components/TableScroller.tsx';
import { paths } from '../../../config/paths.ts';
import { formatDateTime } from '../../../lib/datetime.ts';
import { USERS_PAGE_SIZE, useAdminUsers } from '../api/listUsers.ts';
import { ModeBadge, RoleBadge, StatusBadge } from '../components/Badges.tsx';
import { CreateUserModal } from '../components/CreateUserModal.tsx';
import { DecisionDialog } from '../components/DecisionDialog.tsx';
import { ScreenHeader } from '../components/ScreenHeader.tsx';

const t = messages.admin;

const pageOf = (value: string | null) => {
  const n = Number(value);
  return Number.isInteger(n) && n >= 1 ? n : 1;
};

/** The filter tabs: everyone, or the accounts waiting for approval (with how many there are). */
function StatusFilter({
  pendingOnly,
  pending,
  onChange,
}: {
  pendingOnly: boolean;
  pending: number | undefined;
  onChange: (pendingOnly: boolean) => void;
}) {
  const tab = (active: boolean) =>
    `inline-flex min-h-9 items-center gap-2 rounded-lg px-4 text-sm font-semibold ${
      active ? 'bg-accent-soft text-accent shadow-inner shadow-black/20' : 'text-muted hover:text-text'
    }`;
  return (
    <nav aria-label={t.users.filter} className="flex gap-1 rounded-xl border border-line bg-night p-1">
      <button
        type="button"
        className={tab(!pendingOnly)}
        aria-pressed={!pendingOnly}
        onClick={() => onChange(false)}
      >
        {t.users.filterAll}
      </button>
      <button
        type="button"
        className={tab(pendingOnly)}
        aria-pressed={pendingOnly}
        onClick={() => onChange(true)}
      >
        {t.users.filterPending}
        {pending !== undefined && pending > 0 && (
          <span className="status-badge chip-amber tabular-nums" title={t.users.pendingCount(pending)}>
            <span aria-hidden="true">{pending.toLocaleString('en-US')}</span>
            <span className="sr-only">{t.users.pendingCount(pending)}</span>
          </span>
        )}
      </button>
    </nav>
  );
}

type Deciding = { user: AdminUser; kind: 'approve' | 'reject' } | null;

/** Approve (pending or rejected) and Reject (pending) for an account waiting for a decision. */
function DecisionButtons({ user, onDecide }: { user: AdminUser; onDecide: (deciding: Deciding) => void }) {
  if (user.status !== 'pending' && user.status !== 'rejected') return null;
  return (
    <div className="flex gap-2 md:justify-end">
      <button
        type="button"
        className="btn-primary min-h-9 px-3 py-1 text-sm"
        aria-label={`${t.user.approve} ${user.email}`}
        onClick={() => onDecide({ user, kind: 'approve' })}
      >
        {t.user.approve}
      </button>
      {user.status === 'pending' && (
        <button
          type="button"
          className="btn-ghost min-h-9 px-3 py-1 text-sm hover:border-danger hover:text-danger"
          aria-label={`${t.user.reject} ${user.email}`}
          onClick={() => onDecide({ user, kind: 'reject' })}
        >
          {t.user.reject}
        </button>
      )}
    </div>
  );
}

/**
 * /admin/users: find, list and create accounts; each row leads to the account's own screen. The
 * Pending filter lists self-registered accounts waiting for approval, with Approve and Reject.
 */
export default function UsersPage() {
  const id = useId();
  const [params, setParams] = useSearchParams();
  const q = params.get('q') ?? '';
  const page = pageOf(params.get('page'));
  const pendingOnly = params.get('status') === 'pending';
  const [typed, setTyped] = useState(q);
  const [creating, setCreating] = useState(false);
  const [deciding, setDeciding] = useState<Deciding>(null);
  const users = useAdminUsers({ page, q, status: pendingOnly ? 'pending' : undefined });
  const pendingTotal = useAdminUsers({ page: 1, status: 'pending' }).data?.total;

  // The search follows the typing after a short pause (and the address keeps it for Back and reload).
  useEffect(() => {
    const trimmed = typed.trim();
    if (trimmed === q) return;
    const timer = window.setTimeout(() => {
      const next = new URLSearchParams();
      if (trimmed) next.set('q', trimmed);
      if (pendingOnly) next.set('status', 'pending');
      setParams(next, { replace: true });
    }, 300);
    return () => window.clearTimeout(timer);
  }, [typed, q, pendingOnly, setParams]);

  const setPendingOnly = (next: boolean) => {
    const search = new URLSearchParams();
    if (q) search.set('q', q);
    if (next) search.set('status', 'pending');
    setParams(search);
  };

  const setPage = (next: number) => {
    const search = new URLSearchParams(params);
    if (next > 1) search.set('page', String(next));
    else search.delete('page');
    setParams(search);
  };

  const data = users.data;
  const totalPages = data ? Math.max(1, Math.ceil(data.total / (data.per_page || USERS_PAGE_SIZE))) : 1;

  return (
    <div className="space-y-5">
      <ScreenHeader
        title={t.nav.users}
        lead={t.users.lead}
        actions={
          <button type="button" className="btn-primary" onClick={() => setCreating(true)}>
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
              <path d="M12 5v14M5 12h14" />
            </svg>
            {t.users.newUser}
          </button>
        }
      />

      <div className="flex flex-wrap items-end justify-between gap-3">
        <StatusFilter pendingOnly={pendingOnly} pending={pendingTotal} onChange={setPendingOnly} />
        <div className="w-full sm:w-80">
          <label htmlFor={`${id}-q`} className="label">
            {t.users.search}
          </label>
          <input
            id={`${id}-q`}
            type="search"
            className="input min-h-10"
            placeholder={t.users.searchPlaceholder}
            autoComplete="off"
            spellCheck={false}
            value={typed}
            onChange={(event) => setTyped(event.target.value)}
          />
        </div>
        <p className="text-sm text-muted tabular-nums" aria-live="polite">
          {data ? t.users.count(data.total) : ''}
        </p>
      </div>

      <QueryView
        query={users}
        failed={t.loadFailed}
        retryLabel={t.retry}
        empty={pendingOnly && !q ? t.users.emptyPending : t.users.empty}
        isEmpty={(answer) => answer.data.length === 0}
      >
        {() => (
          <TableScroller label={t.nav.users} busy={users.isPlaceholderData}>
            <table className="data-table">
              <thead>
                <tr>
                  <th scope="col">{t.users.name}</th>
                  <th scope="col">{t.users.role}</th>
                  <th scope="col">{t.users.mode}</th>
                  <th scope="col">{t.users.status}</th>
                  <th scope="col" className="text-right">
                    {t.users.credits}
                  </th>
                  <th scope="col">{t.users.lastLogin}</th>
                  <th scope="col">{t.users.created}</th>
                  <th scope="col" className="hidden md:table-cell">
                    <span className="sr-only">{t.users.actions}</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {data?.data.map((user) => (
                  <tr key={user.id}>
                    <td>
                      <Link
                        to={paths.adminUser(user.id)}
                        className="block font-medium text-text hover:text-accent"
                      >
                        <span className="cell-clip">{user.name}</span>
                        <span className="cell-clip text-xs font-normal text-muted">{user.email}</span>
                      </Link>
                      {/* What the sign-up gave, for the approver to judge. */}
                      {(user.organisation || user.designation) && (
                        <span className="cell-clip mt-1 text-xs text-text">
                          {[user.designation, user.organisation].filter(Boolean).join(' · ')}
                        </span>
                      )}
                      {user.identity_reference && (
                        <span className="cell-clip text-xs text-muted">
                          {t.users.idReference(user.identity_reference)}
                        </span>
                      )}
                      {/* On a phone the actions column is off to the right: the buttons sit under the name. */}
                      <div className="mt-2 md:hidden">
                        <DecisionButtons user={user} onDecide={setDeciding} />
                      </div>
                    </td>
                    <td>
                      <RoleBadge role={user.role} />
                    </td>
                    <td>
                      <ModeBadge mode={user.app_mode} />
                    </td>
                    <td>
                      <StatusBadge status={user.status} />
                    </td>
                    <td className="text-right font-semibold tabular-nums">
                      {user.credits.toLocaleString('en-US')}
                    </td>
                    <td className="whitespace-nowrap text-muted">
                      {user.last_login_at ? (
                        <time dateTime={user.last_login_at}>{formatDateTime(user.last_login_at)}</time>
                      ) : (
                        t.never
                      )}
                    </td>
                    <td className="whitespace-nowrap text-muted">
                      <time dateTime={user.created_at}>{formatDateTime(user.created_at)}</time>
                    </td>
                    <td className="hidden md:table-cell">
                      <DecisionButtons user={user} onDecide={setDeciding} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroller>
        )}
      </QueryView>

      <Pagination
        page={page}
        totalPages={totalPages}
        onPageChange={setPage}
        label={messages.history.pagesOf(t.nav.users)}
        disabled={users.isFetching}
      />

      {creating && <CreateUserModal onClose={() => setCreating(false)} />}
      {deciding && (
        <DecisionDialog user={deciding.user} kind={deciding.kind} onClose={() => setDeciding(null)} />
      )}
    </div>
  );
}
