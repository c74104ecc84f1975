import {
  messages,
  type SiteHealthResponse,
  type SiteHealthSite,
  type SiteHealthState,
} from '@footprint/domain';
import { useId, useMemo, useState } from 'react';
import { toast } from 'react-toastify';
import { ActionDialog } from '../../../components/ActionDialog.tsx';
import { QueryView } from '../../../components/LoadError.tsx';
import { TableScroller } from '../../../components/TableScroller.tsx';
import { formatDate, formatDateTime } from '../../../lib/datetime.ts';
import { failureMessage, isSessionEnd } from '../../../lib/field-errors.ts';
import { useRunSiteHealth, useSiteHealth } from '../api/siteHealth.ts';
import { ScreenHeader } from '../components/ScreenHeader.tsx';

const t = messages.admin;
const s = t.siteHealth;
const STATES: readonly SiteHealthState[] = ['ok', 'quarantined', 'blocked', 'unchecked'];

const tones: Record<SiteHealthState, string> = {
  ok: 'status-on',
  quarantined: 'chip-rose',
  blocked: 'chip-amber',
  unchecked: 'status-off',
};

function StateCell({ site }: { site: SiteHealthSite }) {
  return (
    <span className="flex flex-col items-start gap-0.5">
      <span className={`status-badge ${tones[site.state]}`}>{s.states[site.state] ?? site.state}</span>
      {site.failing_since && (
        <span className="text-xs whitespace-nowrap text-muted">
          {s.failingSince(formatDate(site.failing_since))}
        </span>
      )}
    </span>
  );
}

const precisionOf = (site: SiteHealthSite) =>
  site.precision_30d === null ? (
    <span className="text-muted">{t.none}</span>
  ) : (
    <span
      title={s.precisionTitle(site.passed_30d, site.runs_30d)}
    >{`${Math.round(site.precision_30d * 100)} %`}</span>
  );

function Totals({ data }: { data: SiteHealthResponse }) {
  return (
    <dl className="grid grid-cols-2 gap-3 sm:grid-cols-5">
      {(['sites', ...STATES] as const).map((key) => (
        <div key={key} className="card px-4 py-3">
          <dt className="text-xs font-semibold tracking-wide text-muted uppercase">{s.totals[key]}</dt>
          <dd className="mt-1 text-2xl font-bold text-text tabular-nums">
            {data.totals[key].toLocaleString('en-US')}
          </dd>
        </div>
      ))}
    </dl>
  );
}

function SitesTable({ sites }: { sites: readonly SiteHealthSite[] }) {
  return (
    <TableScroller label={t.nav.siteHealth}>
      <table className="data-table">
        <thead>
          <tr>
            <th scope="col">{s.name}</th>
            <th scope="col">{s.category}</th>
            <th scope="col">{s.india}</th>
            <th scope="col">{s.state}</th>
            <th scope="col" className="text-right">
              {s.precision}
            </th>
            <th scope="col">{s.lastChecked}</th>
            <th scope="col">{s.lastReason}</th>
          </tr>
        </thead>
        <tbody>
          {sites.map((site) => (
            <tr key={site.id}>
              <td className="font-medium whitespace-nowrap text-text">{site.name}</td>
              <td className="whitespace-nowrap text-muted">{site.category}</td>
              <td className="text-muted">{site.india ? s.yes : t.none}</td>
              <td>
                <StateCell site={site} />
              </td>
              <td className="text-right tabular-nums">{precisionOf(site)}</td>
              <td className="whitespace-nowrap text-muted">
                {formatDateTime(site.last_checked_at) || t.none}
              </td>
              <td>
                <span className="block max-w-[32rem] min-w-[14rem] break-words whitespace-normal text-muted">
                  {site.last_reason || t.none}
                </span>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroller>
  );
}

function RunButton({ data }: { data: SiteHealthResponse | undefined }) {
  const run = useRunSiteHealth();
  const [asking, setAsking] = useState(false);
  const busy = run.isPending || data?.running === true;
  const confirm = async () => {
    if (run.isPending) return;
    try {
      const answer = await run.mutateAsync();
      toast.success(answer.queued ? s.queued : s.joined);
      setAsking(false);
    } catch (error) {
      if (!isSessionEnd(error)) toast.error(failureMessage(error, s.runFailed));
    }
  };
  if (!data?.enabled) return null;
  return (
    <>
      <button type="button" className="btn-primary" disabled={busy} onClick={() => setAsking(true)}>
        {data.running ? s.running : s.run}
      </button>
      {asking && (
        <ActionDialog
          title={s.run}
          onClose={() => setAsking(false)}
          cancel={s.cancel}
          label={s.run}
          busy={run.isPending}
          onConfirm={() => void confirm()}
        >
          <p className="text-sm text-text">{s.confirm}</p>
        </ActionDialog>
      )}
    </>
  );
}

/** /admin/site-health: the username catalogue's self-check, each site's state and precision over 30 days. */
export default function SiteHealthPage() {
  const id = useId();
  const health = useSiteHealth();
  const [typed, setTyped] = useState('');
  const [state, setState] = useState<SiteHealthState | ''>('');
  const sites = health.data?.sites;
  const shown = useMemo(() => {
    const q = typed.trim().toLowerCase();
    return (sites ?? []).filter(
      (site) =>
        (!state || site.state === state) &&
        (!q || [site.name, site.id, site.category].some((text) => text.toLowerCase().includes(q))),
    );
  }, [sites, typed, state]);

  return (
    <div className="space-y-5">
      <ScreenHeader title={t.nav.siteHealth} lead={s.lead} actions={<RunButton data={health.data} />} />
      <QueryView query={health} failed={t.loadFailed} retryLabel={t.retry}>
        {(data) =>
          !data.enabled ? (
            <p className="card px-4 py-10 text-center text-sm text-muted">{s.off}</p>
          ) : (
            <>
              <p className="text-sm text-muted">
                {s.schedule(data.schedule_hours)}{' '}
                {data.last_run
                  ? s.lastRun(
                      formatDateTime(data.last_run.started_at),
                      data.last_run.passed,
                      data.last_run.failed,
                      data.last_run.blocked,
                    )
                  : s.never}
              </p>
              <Totals data={data} />
              <div className="flex flex-wrap items-end gap-3">
                <div className="w-full sm:w-80">
                  <label htmlFor={`${id}-q`} className="label">
                    {s.filter}
                  </label>
                  <input
                    id={`${id}-q`}
                    type="search"
                    className="input min-h-10"
                    placeholder={s.filterPlaceholder}
                    autoComplete="off"
                    spellCheck={false}
                    value={typed}
                    onChange={(event) => setTyped(event.target.value)}
                  />
                </div>
                <div className="w-full sm:w-48">
                  <label htmlFor={`${id}-state`} className="label">
                    {s.stateFilter}
                  </label>
                  <select
                    id={`${id}-state`}
                    className="input min-h-10"
                    value={state}
                    onChange={(event) => setState(event.target.value as SiteHealthState | '')}
                  >
                    <option value="">{s.allStates}</option>
                    {STATES.map((option) => (
                      <option key={option} value={option}>
                        {s.states[option]}
                      </option>
                    ))}
                  </select>
                </div>
                <p className="text-sm text-muted tabular-nums" aria-live="polite">
                  {s.count(shown.length, data.sites.length)}
                </p>
              </div>
              {shown.length === 0 ? (
                <p className="card px-4 py-10 text-center text-sm text-muted">{s.empty}</p>
              ) : (
                <SitesTable sites={shown} />
              )}
            </>
          )
        }
      </QueryView>
    </div>
  );
}
