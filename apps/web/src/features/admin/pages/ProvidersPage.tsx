import { messages } from '@footprint/domain';
import { QueryView } from '../../../components/LoadError.tsx';
import { Spinner } from '../../../components/Spinner.tsx';
import { TableScroller } from '../../../components/TableScroller.tsx';
import { type ProviderHealth, useProviders } from '../api/getProviders.ts';
import { ScreenHeader } from '../components/ScreenHeader.tsx';

const t = messages.admin;
const p = t.providers;

/** Failures (timeouts included) and calls refused by an open breaker, over all calls. */
const errorsOf = (row: ProviderHealth) => row.failures + row.rejectedOpen;
const rateOf = (row: ProviderHealth) => (row.calls > 0 ? errorsOf(row) / row.calls : 0);

const percent = (value: number) =>
  value.toLocaleString('en-US', { style: 'percent', minimumFractionDigits: 1, maximumFractionDigits: 1 });

const latency = (value: number | null | undefined) =>
  value === null || value === undefined ? t.none : p.ms(value);

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

/** /admin/providers: calls, error rate, p50/p95 latency and breaker state per source. */
export default function ProvidersPage() {
  const providers = useProviders();
  const rows = providers.data ?? [];

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
        {() => (
          <TableScroller label={t.nav.providers}>
            <table className="data-table">
              <thead>
                <tr>
                  <th scope="col">{p.source}</th>
                  <th scope="col">{p.kinds}</th>
                  <th scope="col" className="text-right">
                    {p.calls}
                  </th>
                  <th scope="col" className="text-right">
                    {p.errors}
                  </th>
                  <th scope="col" className="text-right">
                    {p.errorRate}
                  </th>
                  <th scope="col" className="text-right">
                    {p.timeouts}
                  </th>
                  <th scope="col" className="text-right">
                    {p.p50}
                  </th>
                  <th scope="col" className="text-right">
                    {p.p95}
                  </th>
                  <th scope="col">{p.breaker}</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((row) => {
                  const rate = rateOf(row);
                  return (
                    <tr key={row.id}>
                      <td>
                        <span className="flex items-center gap-2 whitespace-nowrap">
                          <span className="font-medium text-text">{row.source}</span>
                          {row.sandbox && <span className="source-chip chip-slate">{p.sandbox}</span>}
                        </span>
                        <span className="block font-mono text-xs text-muted">{row.id}</span>
                      </td>
                      <td className="text-xs text-muted">
                        <span className="cell-clip" title={row.kinds.join(', ')}>
                          {row.kinds.join(', ')}
                        </span>
                      </td>
                      <td className="text-right tabular-nums">{row.calls.toLocaleString('en-US')}</td>
                      <td className="text-right tabular-nums">{errorsOf(row).toLocaleString('en-US')}</td>
                      <td
                        className={`text-right font-semibold tabular-nums ${rate >= 0.25 ? 'text-rose-300' : rate > 0 ? 'text-amber-300' : 'text-muted'}`}
                      >
                        {row.calls > 0 ? percent(rate) : t.none}
                      </td>
                      <td className="text-right tabular-nums">{row.timeouts.toLocaleString('en-US')}</td>
                      <td className="text-right whitespace-nowrap tabular-nums">
                        {latency(row.latency.p50)}
                      </td>
                      <td className="text-right whitespace-nowrap tabular-nums">
                        {latency(row.latency.p95)}
                      </td>
                      <td>
                        <BreakerBadge state={row.breaker} />
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </TableScroller>
        )}
      </QueryView>
    </div>
  );
}
