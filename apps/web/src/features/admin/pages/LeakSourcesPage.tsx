import { messages } from '@footprint/domain';
import { QueryView } from '../../../components/LoadError.tsx';
import { TableScroller } from '../../../components/TableScroller.tsx';
import { formatDate, formatDateTime } from '../../../lib/datetime.ts';
import { useLeakSources } from '../api/listLeakSources.ts';
import { ScreenHeader } from '../components/ScreenHeader.tsx';

const t = messages.admin;
const l = t.leakSources;

/** /admin/leak-sources: the breach sources in the leak index with their record counts. */
export default function LeakSourcesPage() {
  const sources = useLeakSources();
  const rows = sources.data ?? [];
  const records = rows.reduce((sum, row) => sum + row.record_count, 0);

  return (
    <div className="space-y-5">
      <ScreenHeader title={t.nav.leakSources} lead={l.lead} />

      <QueryView
        query={sources}
        failed={t.loadFailed}
        retryLabel={t.retry}
        empty={l.empty}
        isEmpty={(data) => data.length === 0}
      >
        {() => (
          <>
            <p className="text-sm text-muted tabular-nums">{l.total(rows.length, records)}</p>
            <TableScroller label={t.nav.leakSources}>
              <table className="data-table">
                <thead>
                  <tr>
                    <th scope="col">{l.name}</th>
                    <th scope="col">{l.breachDate}</th>
                    <th scope="col" className="text-right">
                      {l.records}
                    </th>
                    <th scope="col">{l.imported}</th>
                    <th scope="col">{l.description}</th>
                  </tr>
                </thead>
                <tbody>
                  {rows.map((row) => (
                    <tr key={row.id}>
                      <td className="font-medium whitespace-nowrap text-text">{row.name}</td>
                      <td className="whitespace-nowrap text-muted">
                        {formatDate(row.breach_date) || t.none}
                      </td>
                      <td className="text-right font-semibold tabular-nums">
                        {row.record_count.toLocaleString('en-US')}
                      </td>
                      <td className="whitespace-nowrap text-muted">
                        {formatDateTime(row.imported_at) || t.none}
                      </td>
                      <td>
                        <span className="block max-w-[36rem] min-w-[16rem] whitespace-normal text-muted">
                          {row.description || t.none}
                        </span>
                      </td>
                    </tr>
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
