import { messages, sourceName } from '@footprint/domain';
import { QueryView } from '../../../components/LoadError.tsx';
import { Spinner } from '../../../components/Spinner.tsx';
import { TableScroller } from '../../../components/TableScroller.tsx';
import { formatDateTime } from '../../../lib/datetime.ts';
import { type ProviderHealth, useProviders } from '../api/getProviders.ts';
import { ScreenHeader } from '../components/ScreenHeader.tsx';
import {
  countModes,
  formatMoney,
  formatRate,
  modeTone,
  monthTotals,
  orderRows,
  successTone,
} from '../format.ts';

const t = messages.admin;
const p = t.providers;

/** An empty cell: a muted dash, the same in every column. */
const Dash = () => <span className="font-normal text-muted">{t.none}</span>;

const latency = (value: number | null) => (value === null ? <Dash /> : p.ms(value));

function BreakerBadge({ state }: { state: string }) {
  const tone =
    state === 'closed'
      ? 'status-on'
      : state === 'half-open'
        ? 'chip-amber'
        : state === 'open'
          ? 'chip-rose'
          : 'status-off';
  return <span className={`status-badge ${tone}`}>{p.breakers[state] ?? state}</span>;
}

function WarningIcon() {
  return (
    <svg
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
      className="mt-px size-3.5 shrink-0"
    >
      <path d="M12 9v4M12 17h.01M10.3 3.9 1.8 18a2 2 0 0 0 1.7 3h17a2 2 0 0 0 1.7-3L13.7 3.9a2 2 0 0 0-3.4 0Z" />
    </svg>
  );
}

/** Who answers the source, under its name: the vendor, the sandbox, or nobody. */
const answeredBy = (row: ProviderHealth) =>
  row.mode === 'live' ? (row.vendor ?? row.id) : row.mode === 'sandbox' ? p.synthetic : p.noProvider;

function SourceCell({ row }: { row: ProviderHealth }) {
  return (
    <>
      {/* The source's name for people; its key (what the logs and the API say) in small type below. */}
      <span className="block font-medium text-text">{sourceName(row.source)}</span>
      <code className="block text-[0.7rem] break-all text-muted">{row.source}</code>
      <span className="mt-0.5 flex flex-wrap items-center gap-x-2 gap-y-0.5">
        <span className={`status-badge ${modeTone(row.mode)}`}>{p.modes[row.mode] ?? row.mode}</span>
        <span className="text-xs text-muted">{answeredBy(row)}</span>
      </span>
      {row.misconfigured && (
        <span className="mt-1 flex items-start gap-1 text-xs font-semibold text-rose-300">
          <WarningIcon />
          {p.misconfigured(row.env_prefix ?? row.vendor ?? row.id)}
        </span>
      )}
    </>
  );
}

function LastErrorCell({ error }: { error: ProviderHealth['last_error'] }) {
  if (!error) return <Dash />;
  return (
    <>
      <span className="cell-clip max-w-[12rem] text-xs" title={error.message}>
        {error.message}
      </span>
      <time dateTime={error.at} title={error.at} className="block text-xs whitespace-nowrap text-muted">
        {formatDateTime(error.at, true)}
      </time>
    </>
  );
}

const spendOf = (row: ProviderHealth, period: 'today' | 'month') =>
  row.spend ? formatMoney(row.spend[period], row.spend.currency) : <Dash />;

function ProviderRow({ row }: { row: ProviderHealth }) {
  const idle = row.mode === 'not_configured';
  return (
    <tr className={row.misconfigured ? 'provider-refused' : undefined}>
      <td className="provider-source">
        <SourceCell row={row} />
      </td>
      <td className="text-right tabular-nums">
        {idle ? (
          <Dash />
        ) : (
          <>
            {row.calls.toLocaleString('en-US')}
            {(row.calls > 0 || row.calls_today > 0) && (
              <span className="block text-xs whitespace-nowrap text-muted">{p.today(row.calls_today)}</span>
            )}
            {row.notFound > 0 && (
              <span className="mt-0.5 block">
                <span className="status-badge chip-slate" title={p.noRecordTitle(row.notFound)}>
                  {p.noRecord} · {row.notFound.toLocaleString('en-US')}
                </span>
              </span>
            )}
          </>
        )}
      </td>
      <td className={`text-right font-semibold tabular-nums ${successTone(row.success_rate)}`}>
        {row.success_rate === null ? <Dash /> : formatRate(row.success_rate)}
      </td>
      <td className="text-right whitespace-nowrap tabular-nums">{latency(row.latency.p50)}</td>
      <td className="text-right whitespace-nowrap tabular-nums">{latency(row.latency.p95)}</td>
      <td>
        {idle ? (
          <Dash />
        ) : (
          <>
            <BreakerBadge state={row.breaker} />
            {row.paused_until && (
              <span className="block text-xs whitespace-nowrap text-amber-300">
                {p.pausedUntil(formatDateTime(row.paused_until, true))}
              </span>
            )}
          </>
        )}
      </td>
      <td>
        <LastErrorCell error={row.last_error} />
      </td>
      <td className="text-right whitespace-nowrap tabular-nums">{spendOf(row, 'today')}</td>
      <td className="text-right whitespace-nowrap tabular-nums">{spendOf(row, 'month')}</td>
    </tr>
  );
}

/** What the table holds, in one line, and the vendors refusing our credentials, if any. */
function Summary({ rows }: { rows: readonly ProviderHealth[] }) {
  const counts = countModes(rows);
  const totals = monthTotals(rows);
  return (
    <div className="space-y-2">
      {counts.misconfigured > 0 && (
        <p className="flex items-center gap-2 rounded-lg border border-rose-400/40 bg-rose-500/10 px-3 py-2 text-sm font-semibold text-rose-200">
          <WarningIcon />
          {p.refused(counts.misconfigured)}
        </p>
      )}
      <p className="flex flex-wrap gap-x-4 gap-y-1 text-sm text-muted tabular-nums">
        <span>{p.summary(counts.live, counts.sandbox, counts.notConfigured)}</span>
        {totals && <span>{p.monthTotal(totals)}</span>}
      </p>
    </div>
  );
}

/**
 * /admin/providers: per source, who answers it (live vendor, sandbox or nobody), calls, success rate,
 * p50/p95 latency, breaker, last error and vendor spend today and this month. A vendor refusing our
 * credentials is flagged in words on its row, first in the table.
 */
export default function ProvidersPage() {
  const providers = useProviders();

  return (
    <div className="space-y-5">
      <ScreenHeader
        title={t.nav.providers}
        lead={p.lead}
        actions={
          <button
            type="button"
            className="btn-ghost"
            onClick={() => void providers.refetch()}
            disabled={providers.isFetching}
          >
            {providers.isFetching && <Spinner size="sm" decorative />}
            {p.refresh}
          </button>
        }
      />

      <QueryView
        query={providers}
        failed={t.loadFailed}
        retryLabel={t.retry}
        empty={p.empty}
        isEmpty={(data) => data.length === 0}
      >
        {(data) => (
          <>
            <Summary rows={data} />
            <TableScroller label={t.nav.providers}>
              <table className="data-table providers-table">
                <thead>
                  <tr>
                    <th scope="col" className="provider-source">
                      {p.source}
                    </th>
                    <th scope="col" className="text-right">
                      {p.calls}
                    </th>
                    <th scope="col" className="text-right">
                      {p.success}
                    </th>
                    <th scope="col" className="text-right">
                      {p.p50}
                    </th>
                    <th scope="col" className="text-right">
                      {p.p95}
                    </th>
                    <th scope="col">{p.breaker}</th>
                    <th scope="col">{p.lastError}</th>
                    <th scope="col" className="text-right whitespace-normal">
                      {p.spendToday}
                    </th>
                    <th scope="col" className="text-right whitespace-normal">
                      {p.spendMonth}
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {orderRows(data).map((row) => (
                    <ProviderRow key={row.id} row={row} />
                  ))}
                </tbody>
              </table>
            </TableScroller>
          </>
        )}
      </QueryView>
    </div>
  );
}
