import { type BulkRow, messages } from '@footprint/domain';
import { type AccountLink, accountsView } from '../list.ts';

const t = messages.bulkPage;

/** One found account: its site's name, linked to the profile (a new tab, no opener), its address in the title. */
function Account({ account }: { account: AccountLink }) {
  if (!account.href) return <span title={account.url}>{account.site}</span>;
  return (
    <a
      href={account.href}
      target="_blank"
      rel="noopener noreferrer"
      className="link-accent break-words"
      title={account.url}
    >
      {account.site}
      <span className="sr-only">{messages.layout.opensInNewTab}</span>
    </a>
  );
}

/**
 * A username row's found accounts in the rows table: the first few as links, the rest behind a
 * disclosure ('and N more'), so a name found on a hundred sites keeps its row short.
 */
export function AccountLinks({ accounts }: { accounts: BulkRow['accounts'] }) {
  if (accounts.length === 0) return <span className="text-muted">—</span>;
  const { shown, folded } = accountsView(accounts);
  const list = (links: AccountLink[]) => (
    <ul className="flex flex-wrap gap-x-3 gap-y-1">
      {links.map((account) => (
        <li key={`${account.site} ${account.url}`}>
          <Account account={account} />
        </li>
      ))}
    </ul>
  );
  return (
    <div className="w-56 max-w-[60vw] whitespace-normal">
      {list(shown)}
      {folded.length > 0 && (
        <details className="mt-1">
          <summary className="cursor-pointer text-xs text-muted hover:text-text">
            {t.accountsMore(folded.length)}
          </summary>
          {/* The rest scrolls within a few lines, so an open fold does not stretch the table. */}
          <div className="mt-1 max-h-40 overflow-y-auto overscroll-contain pr-1">{list(folded)}</div>
        </details>
      )}
    </div>
  );
}
