import { type CaseDetail, messages } from '@footprint/domain';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { toast } from 'react-toastify';
import { TableScroller } from '../../../components/TableScroller.tsx';
import { paths } from '../../../config/paths.ts';
import { useAuth } from '../../../lib/auth-context.ts';
import { formatDateTime } from '../../../lib/datetime.ts';
import { failureMessage, isSessionEnd } from '../../../lib/field-errors.ts';
import {
  kindLabel,
  resultsStateOf,
  shownQuery,
  statusTone,
  useOpenHistoryEntry,
} from '../../history/index.ts';

const t = messages.cases;

export function Searches({ detail }: { detail: CaseDetail }) {
  const { user } = useAuth();
  const navigate = useNavigate();
  const open = useOpenHistoryEntry();
  const [opening, setOpening] = useState<string | null>(null);
  const reopen = async (lookupId: string) => {
    if (opening) return;
    setOpening(lookupId);
    try {
      const found = await open.mutateAsync(lookupId);
      const state = resultsStateOf(found);
      if (state) await navigate(paths.results, { state });
      else await navigate(`${paths.history}`);
    } catch (error) {
      if (!isSessionEnd(error)) toast.error(failureMessage(error, messages.history.openFailed));
    } finally {
      setOpening(null);
    }
  };

  return (
    <section aria-labelledby="case-searches" className="card px-4 py-4">
      <h2 id="case-searches" className="text-lg font-semibold text-text">
        {t.searchesTitle} <span className="section-count">{detail.items.length}</span>
      </h2>
      {detail.items.length === 0 ? (
        <p className="mt-2 text-sm text-muted">{t.searchesEmpty}</p>
      ) : (
        <div className="mt-3">
          <TableScroller label={t.searchesTitle}>
            <table className="data-table">
              <thead>
                <tr>
                  <th scope="col">{t.when}</th>
                  <th scope="col">{t.kind}</th>
                  <th scope="col">{t.query}</th>
                  <th scope="col">{t.by}</th>
                  <th scope="col">{t.cost}</th>
                  <th scope="col">{t.status}</th>
                  <th scope="col">
                    <span className="sr-only">{messages.history.result}</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {detail.items.map((item) => {
                  const query = shownQuery(item.kind, item.query, item.query_typed);
                  const mine = item.user.id === user?.id;
                  return (
                    <tr key={item.lookup_id}>
                      <td className="whitespace-nowrap">{formatDateTime(item.created_at)}</td>
                      <td>{kindLabel(item.kind)}</td>
                      <td>
                        <span className="cell-clip max-w-[13rem]" title={query.typed}>
                          {query.typed}
                        </span>
                      </td>
                      <td>
                        <span className="cell-clip max-w-[8rem]" title={item.user.name}>
                          {item.user.name}
                        </span>
                      </td>
                      <td className="tabular-nums">{item.cost}</td>
                      <td>
                        <span className={`status-badge ${statusTone(item.status)}`}>
                          {messages.history.statuses[item.status as keyof typeof messages.history.statuses] ??
                            item.status}
                        </span>
                      </td>
                      <td>
                        {mine && item.result_available ? (
                          <button
                            type="button"
                            className="btn-chip"
                            aria-label={messages.history.openLabel(query.typed)}
                            disabled={opening !== null}
                            onClick={() => void reopen(item.lookup_id)}
                          >
                            {opening === item.lookup_id ? messages.history.opening : messages.history.open}
                          </button>
                        ) : null}
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </TableScroller>
        </div>
      )}
    </section>
  );
}
