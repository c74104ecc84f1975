import { type AuditEvent, messages } from '@footprint/domain';
import { type FormEvent, useId, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { toast } from 'react-toastify';
import { QueryView } from '../../../components/LoadError.tsx';
import { Pagination } from '../../../components/Pagination.tsx';
import { Spinner } from '../../../components/Spinner.tsx';
import { TableScroller } from '../../../components/TableScroller.tsx';
import { saveBlob } from '../../../lib/api.ts';
import { formatDateTime, localDay } from '../../../lib/datetime.ts';
import { failureMessage, isSessionEnd } from '../../../lib/field-errors.ts';
import { useExportAudit } from '../api/exportAudit.ts';
import { AUDIT_PAGE_SIZE, type AuditFilterValues, auditFilterNames, useAudit } from '../api/listAudit.ts';
import { AuditChainPanel } from '../components/AuditChainPanel.tsx';
import { AuditDetailsModal } from '../components/AuditDetailsModal.tsx';
import { AuditOutcomeBadge } from '../components/AuditOutcomeBadge.tsx';
import { AuditTargetCell } from '../components/AuditTargetCell.tsx';
import { ScreenHeader } from '../components/ScreenHeader.tsx';

const t = messages.admin;
const a = t.audit;

/** Action names the server writes, offered as suggestions in the action filter. */
const knownActions = [
  'auth.login',
  'auth.logout',
  'auth.register',
  'auth.otp.required',
  'auth.otp.verify',
  'auth.otp.resend',
  'auth.password.forgot',
  'auth.password.reset',
  'lookup.tel',
  'lookup.email',
  'lookup.leak',
  'lookup.rc',
  'lookup.upi',
  'lookup.challan',
  'lookup.corporate',
  'lookup.verification',
  'report.lookup',
  'report.ai',
  'report.rc',
  'report.upi',
  'report.challan',
  'history.view',
  'lookup.export',
  'history.export',
  'admin.user.create',
  'admin.user.update',
  'admin.user.sessions.revoke',
  'admin.credits.grant',
  'admin.credits.deduct',
  'admin.settings.update',
  'admin.audit.export',
];

const pageOf = (value: string | null) => {
  const n = Number(value);
  return Number.isInteger(n) && n >= 1 ? n : 1;
};

function filtersOf(params: URLSearchParams): AuditFilterValues {
  const filters: AuditFilterValues = {};
  for (const name of auditFilterNames) {
    const value = params.get(name)?.trim();
    if (value) filters[name] = value;
  }
  return filters;
}

/**
 * /admin/audit: the audit trail with filters (user, action, date range, query text, case reference),
 * paging and CSV export. The filters live in the address; the form edits a draft applied on submit.
 */
export default function AuditPage() {
  const id = useId();
  const [params, setParams] = useSearchParams();
  const applied = useMemo(() => filtersOf(params), [params]);
  const page = pageOf(params.get('page'));
  const [draft, setDraft] = useState<AuditFilterValues>(applied);
  const [dateError, setDateError] = useState<string | null>(null);
  const [shown, setShown] = useState<AuditEvent | null>(null);
  const audit = useAudit(applied, page);
  const exporter = useExportAudit();

  const [seen, setSeen] = useState(applied);
  // The address changed from outside the form (Back, a link from a user's screen): show it in the form.
  if (seen !== applied) {
    setSeen(applied);
    setDraft(applied);
  }

  const go = (filters: AuditFilterValues, nextPage = 1) => {
    const search = new URLSearchParams();
    for (const name of auditFilterNames) {
      const value = filters[name]?.trim();
      if (value) search.set(name, value);
    }
    if (nextPage > 1) search.set('page', String(nextPage));
    setParams(search);
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (draft.from && draft.to && draft.to < draft.from) {
      setDateError(a.dateOrder);
      document.getElementById(`${id}-to`)?.focus();
      return;
    }
    setDateError(null);
    go(draft);
  };

  const onReset = () => {
    setDateError(null);
    setDraft({});
    go({});
  };

  const onExport = async () => {
    try {
      const blob = await exporter.mutateAsync(applied);
      saveBlob(blob, `audit-${localDay()}.csv`);
    } catch (error) {
      if (!isSessionEnd(error)) toast.error(failureMessage(error, a.exportFailed));
    }
  };

  const set = (name: keyof AuditFilterValues, value: string) =>
    setDraft((current) => ({ ...current, [name]: value }));

  const input = (name: keyof AuditFilterValues, label: string, extra: Record<string, unknown> = {}) => (
    <div>
      <label htmlFor={`${id}-${name}`} className="label">
        {label}
      </label>
      <input
        id={`${id}-${name}`}
        className="input min-h-10"
        autoComplete="off"
        spellCheck={false}
        value={draft[name] ?? ''}
        onChange={(event) => set(name, event.target.value)}
        {...extra}
      />
    </div>
  );

  const data = audit.data;
  const totalPages = data ? Math.max(1, Math.ceil(data.total / (data.per_page || AUDIT_PAGE_SIZE))) : 1;
  const serverRefusal = audit.isError && !data ? failureMessage(audit.error, t.loadFailed) : null;

  return (
    <div className="space-y-5">
      <ScreenHeader
        title={t.nav.audit}
        lead={a.lead}
        actions={
          <button
            type="button"
            className="btn-ghost"
            onClick={() => void onExport()}
            disabled={exporter.isPending}
          >
            {exporter.isPending ? (
              <Spinner size="sm" decorative />
            ) : (
              <svg
                viewBox="0 0 24 24"
                fill="none"
                stroke="currentColor"
                strokeWidth="1.75"
                strokeLinecap="round"
                strokeLinejoin="round"
                aria-hidden="true"
                focusable="false"
                className="size-4"
              >
                <path d="M12 4v11M7.5 10.5 12 15l4.5-4.5M5 19h14" />
              </svg>
            )}
            {exporter.isPending ? a.exporting : a.export}
          </button>
        }
      />

      <AuditChainPanel />

      <form noValidate onSubmit={onSubmit} aria-label={a.filters} className="card p-4 sm:p-5">
        <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {input('user', a.user, { placeholder: a.userPlaceholder })}
          {input('action', a.action, { placeholder: a.actionPlaceholder, list: `${id}-actions` })}
          <datalist id={`${id}-actions`}>
            {knownActions.map((action) => (
              <option key={action} value={action} />
            ))}
          </datalist>
          {input('case_reference', a.caseReference, { maxLength: 100 })}
          {input('q', a.q, { placeholder: a.qPlaceholder })}
          <div className="grid grid-cols-2 gap-3 sm:col-span-2 lg:col-span-2">
            {input('from', a.from, { type: 'date' })}
            <div>
              <label htmlFor={`${id}-to`} className="label">
                {a.to}
              </label>
              <input
                id={`${id}-to`}
                type="date"
                className="input min-h-10"
                value={draft.to ?? ''}
                min={draft.from || undefined}
                aria-invalid={dateError ? true : undefined}
                aria-describedby={dateError ? `${id}-to-error` : undefined}
                onChange={(event) => {
                  set('to', event.target.value);
                  setDateError(null);
                }}
              />
              {dateError && (
                <p id={`${id}-to-error`} className="field-error">
                  {dateError}
                </p>
              )}
            </div>
          </div>
        </div>
        <div className="mt-4 flex flex-wrap justify-end gap-2">
          <button type="button" className="btn-ghost" onClick={onReset}>
            {a.reset}
          </button>
          <button type="submit" className="btn-primary">
            {a.apply}
          </button>
        </div>
      </form>

      <p className="text-sm text-muted tabular-nums" aria-live="polite">
        {data ? a.count(data.total) : ''}
      </p>

      <QueryView
        query={audit}
        failed={serverRefusal ?? t.loadFailed}
        retryLabel={t.retry}
        empty={a.empty}
        isEmpty={(answer) => answer.data.length === 0}
      >
        {() => (
          <TableScroller label={t.nav.audit} busy={audit.isPlaceholderData} stickyEnds>
            <table className="data-table">
              <thead>
                <tr>
                  <th scope="col">{a.time}</th>
                  <th scope="col">{a.actor}</th>
                  <th scope="col">{a.action}</th>
                  <th scope="col">{a.outcome}</th>
                  <th scope="col">{a.target}</th>
                  <th scope="col">{a.caseReference}</th>
                  <th scope="col" className="text-right">
                    {a.cost}
                  </th>
                  <th scope="col">
                    <span className="sr-only">{a.details}</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {data?.data.map((event) => (
                  <tr key={event.id}>
                    <td className="whitespace-nowrap text-muted">
                      <time dateTime={event.at} title={event.at}>
                        {formatDateTime(event.at, true)}
                      </time>
                    </td>
                    <td>
                      <span className="cell-clip" title={event.actor_email ?? event.user_id ?? ''}>
                        {event.actor_email ?? event.user_id ?? t.none}
                      </span>
                    </td>
                    <td className="font-mono text-xs whitespace-nowrap">{event.action}</td>
                    <td>
                      <AuditOutcomeBadge outcome={event.outcome} />
                    </td>
                    <td>
                      <AuditTargetCell event={event} />
                    </td>
                    <td>
                      {event.case_reference ? (
                        <span className="cell-clip" title={event.case_reference}>
                          {event.case_reference}
                        </span>
                      ) : (
                        <span className="text-muted">{t.none}</span>
                      )}
                    </td>
                    <td className="text-right tabular-nums">{event.cost ?? t.none}</td>
                    <td className="text-right">
                      <button
                        type="button"
                        className="btn-chip"
                        aria-label={a.showDetails(event.id)}
                        onClick={() => setShown(event)}
                      >
                        {a.details}
                      </button>
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
        onPageChange={(next) => go(applied, next)}
        label={messages.history.pagesOf(t.nav.audit)}
        disabled={audit.isFetching}
      />

      {shown && <AuditDetailsModal event={shown} onClose={() => setShown(null)} />}
    </div>
  );
}
