import { messages } from '@footprint/domain';
import { useAuth } from '../../lib/auth-context.ts';
import { useSearchType } from '../../lib/search-type.ts';

/**
 * /dashboard, for now an empty signed-in shell: the search screen of spec §2.3 replaces it in the next
 * release. It already reflects the search type chosen in the sidebar.
 */
export default function DashboardPage() {
  const { user } = useAuth();
  const { searchType } = useSearchType();

  return (
    <div className="mx-auto flex w-full max-w-4xl flex-1 flex-col items-center justify-center px-4 py-12 text-center sm:px-6 lg:py-20">
      <p className="text-xs font-semibold tracking-[0.28em] text-accent">{messages.taglines.footprint}</p>
      <h1 className="mt-4 text-4xl font-bold tracking-tight text-text sm:text-5xl">{messages.brand}</h1>
      <p className="mt-4 max-w-2xl text-base text-balance text-muted sm:text-lg">
        {messages.taglines.proactive}
      </p>

      <section aria-labelledby="dashboard-next" className="card mt-10 w-full max-w-xl p-6 text-left sm:p-8">
        <h2 id="dashboard-next" className="text-lg font-semibold text-text">
          {user ? `Welcome, ${user.name}.` : 'Welcome.'}
        </h2>
        <p className="mt-2 text-sm leading-relaxed text-muted">
          Phone and e-mail lookups arrive in the next release. Until then you can check your credit balance in
          the header and manage your session from the profile menu.
        </p>
        <p className="mt-4 inline-flex items-center gap-2 rounded-full border border-line bg-night px-3 py-1 text-xs text-muted">
          Selected search:{' '}
          <span className="font-semibold text-accent">
            {searchType === 'email' ? messages.mainNav.emailSearch : messages.mainNav.phoneSearch}
          </span>
        </p>
      </section>
    </div>
  );
}
