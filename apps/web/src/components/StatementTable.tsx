import { messages, type StatementEntry } from '@footprint/domain';
import { formatDateTime } from '../lib/datetime.ts';
import { TableScroller } from './TableScroller.tsx';

const t = messages.history;
const poolTexts = messages.pools;

const signed = (n: number) => (n > 0 ? `+${n.toLocaleString('en-US')}` : n.toLocaleString('en-US'));

/**
 * Ledger entries, newest first: time, kind, change, balance after, reason. On a user's own statement
 * (`ofPool` false) a row a unit's pool paid says so under its kind, and its balance is marked as the
 * pool's (it is not the user's); on a pool's own statement every row is the pool's, so neither is said,
 * and a column names whose search each row charged or refunded (`user`; a top-up names nobody).
 */
export function StatementTable({
  entries,
  label,
  busy,
  ofPool = false,
}: {
  entries: StatementEntry[];
  label: string;
  busy?: boolean;
  ofPool?: boolean;
}) {
  return (
    <TableScroller label={label} busy={busy}>
      <table className="data-table">
        <thead>
          <tr>
            <th scope="col">{t.time}</th>
            <th scope="col">{t.entry}</th>
            {ofPool && <th scope="col">{poolTexts.whoColumn}</th>}
            <th scope="col" className="text-right">
              {t.change}
            </th>
            <th scope="col" className="text-right">
              {t.balanceAfter}
            </th>
            <th scope="col">{t.reason}</th>
          </tr>
        </thead>
        <tbody>
          {entries.map((entry) => (
            <StatementRow
              key={entry.id}
              entry={entry}
              pool={ofPool ? null : entry.unit_name}
              showsWho={ofPool}
            />
          ))}
        </tbody>
      </table>
    </TableScroller>
  );
}

/** Whose search a pool's row charged or refunded: the name, the e-mail beneath it (and on hover). */
function WhoCell({ who }: { who: StatementEntry['user'] }) {
  if (!who) return <td className="text-muted">{poolTexts.whoNobody}</td>;
  return (
    <td className="max-w-56">
      <span className="block truncate font-medium text-text" title={`${who.name} (${who.email})`}>
        {who.name}
      </span>
      <span className="block truncate text-xs text-muted" title={who.email}>
        {who.email}
      </span>
    </td>
  );
}

/**
 * One entry; `pool` names the unit whose pool paid it, when that is to be said; `showsWho`, on a pool's
 * statement, adds whose search it was.
 */
function StatementRow({
  entry,
  pool,
  showsWho,
}: {
  entry: StatementEntry;
  pool: string | null;
  showsWho: boolean;
}) {
  const tone = entry.delta > 0 ? 'text-emerald-300' : entry.delta < 0 ? 'text-rose-300' : 'text-muted';
  return (
    <tr>
      <td className="whitespace-nowrap text-muted">
        <time dateTime={entry.at} title={entry.at}>
          {formatDateTime(entry.at)}
        </time>
      </td>
      <td className="whitespace-nowrap">
        {t.entryKinds[entry.kind] ?? entry.kind}
        {pool && (
          <span className="block text-xs text-muted">
            {entry.kind === 'charge' ? poolTexts.paidByPool(pool) : poolTexts.poolEntry(pool)}
          </span>
        )}
      </td>
      {showsWho && <WhoCell who={entry.user} />}
      <td className={`text-right font-semibold whitespace-nowrap tabular-nums ${tone}`}>
        {signed(entry.delta)}
      </td>
      <td className="text-right whitespace-nowrap tabular-nums">
        {pool ? (
          <span title={poolTexts.poolBalanceTitle(pool)}>
            {entry.balance_after.toLocaleString('en-US')}{' '}
            <span className="text-xs font-normal text-muted">{poolTexts.poolBalance}</span>
          </span>
        ) : (
          entry.balance_after.toLocaleString('en-US')
        )}
      </td>
      <td>
        <span className="cell-clip cell-clip-wide" title={entry.reason}>
          {entry.reason || '—'}
        </span>
      </td>
    </tr>
  );
}
