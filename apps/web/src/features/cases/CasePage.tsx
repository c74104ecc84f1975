import {
  type CaseDetail,
  type CaseEntity,
  ENTITY_LABELS,
  ENTITY_TYPES,
  type EntityType,
  isLive,
  legalBasisLine,
  messages,
  type Pivot,
  pivotOf,
} from '@footprint/domain';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, lazy, Suspense, useId, useMemo, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { toast } from 'react-toastify';
import { LoadingBlock } from '../../components/LoadError.tsx';
import { Modal } from '../../components/Modal.tsx';
import { Spinner } from '../../components/Spinner.tsx';
import { TableScroller } from '../../components/TableScroller.tsx';
import { paths } from '../../config/paths.ts';
import { isApiError, request, saveBlob } from '../../lib/api.ts';
import { useAuth } from '../../lib/auth-context.ts';
import { formatDate, formatDateTime } from '../../lib/datetime.ts';
import { failureMessage, fieldErrorsOf, isSessionEnd } from '../../lib/field-errors.ts';
import { searchPrice, useSources } from '../../lib/sources.ts';
import { kindLabel, resultsStateOf, shownQuery, statusTone, useOpenHistoryEntry } from '../history/index.ts';
import { useAddMember, useAddNote, useCase, useRemoveMember, useUpdateCase } from './api.ts';

/**
 * /cases/{id} (beyond the spec): one investigation. Its searches (the user's own reopen their stored
 * result without a charge), the entities their results hold (corroborated ones marked, with the other
 * cases that found them), the notes, and the members. The owner closes and reopens it.
 */

const t = messages.cases;
/** The graph library loads only when the graph is asked for. */
const CaseGraph = lazy(() => import('./CaseGraph.tsx'));

export default function CasePage() {
  const { id = '' } = useParams();
  const query = useCase(id);
  if (query.isPending) return <LoadingBlock />;
  if (!query.data) {
    const missing = isApiError(query.error) && query.error.status === 404;
    return (
      <div className="mx-auto w-full max-w-3xl px-4 py-10 sm:px-6">
        <p role="alert" className="text-text">
          {missing ? t.notFound : messages.history.loadFailed}
        </p>
        <Link to={paths.cases} className="link-accent mt-3 inline-block">
          {t.back}
        </Link>
      </div>
    );
  }
  return <CaseView detail={query.data} />;
}

function CaseView({ detail }: { detail: CaseDetail }) {
  const update = useUpdateCase(detail.id);
  const manage = detail.role === 'owner' || detail.role === 'admin';
  const toggle = async () => {
    try {
      await update.mutateAsync({ status: detail.status === 'open' ? 'closed' : 'open' });
    } catch (error) {
      if (!isSessionEnd(error)) toast.error(failureMessage(error, t.saveFailed));
    }
  };

  return (
    <div className="mx-auto flex w-full max-w-7xl flex-1 flex-col px-4 py-8 sm:px-6 lg:py-10">
      <Link to={paths.cases} className="link-accent text-sm">
        ← {t.back}
      </Link>
      <header className="mt-3 flex flex-wrap items-start justify-between gap-4">
        <div className="min-w-0">
          <p className="eyebrow">{detail.reference}</p>
          <h1 className="mt-2 text-3xl font-bold tracking-tight text-text">{detail.title}</h1>
          <p className="mt-2 text-sm text-muted">
            <span className={`status-badge ${detail.status === 'open' ? 'status-on' : 'chip-slate'}`}>
              {detail.status === 'open' ? t.open : t.closed}
            </span>{' '}
            {t.owner}: {detail.owner.name} · {t.role[detail.role]}
          </p>
          <p className="mt-1 text-sm text-muted">
            {t.legalBasisLegend}:{' '}
            <span className="text-text">
              {detail.legal_basis ? legalBasisLine(detail.legal_basis) : t.legalBasisNone}
            </span>
          </p>
        </div>
        <div className="flex flex-wrap gap-2">
          <BundleButton detail={detail} />
          {manage && (
            <button
              type="button"
              className="btn-ghost"
              disabled={update.isPending}
              onClick={() => void toggle()}
            >
              {update.isPending && <Spinner size="sm" decorative className="mr-1.5" />}
              {detail.status === 'open' ? t.closeCase : t.reopenCase}
            </button>
          )}
        </div>
      </header>
      {detail.status === 'closed' && (
        <p className="mt-4 rounded-md border border-line bg-surface px-3 py-2 text-sm text-muted">
          {t.closedNote}
        </p>
      )}

      <div className="mt-6 grid gap-6 lg:grid-cols-[minmax(0,1fr)_22rem]">
        <div className="flex min-w-0 flex-col gap-6">
          <Searches detail={detail} />
          <Entities detail={detail} />
          <Timeline detail={detail} />
        </div>
        <div className="flex min-w-0 flex-col gap-6">
          <Notes detail={detail} />
          <Members detail={detail} manage={manage} />
        </div>
      </div>
    </div>
  );
}

/** Downloads the case's evidence bundle (a ZIP the server streams and registers for /verify). */
function BundleButton({ detail }: { detail: CaseDetail }) {
  const [busy, setBusy] = useState(false);
  const download = async () => {
    if (busy) return;
    setBusy(true);
    try {
      const { blob, headers } = await request(`/api/cases/${encodeURIComponent(detail.id)}/bundle`, {
        responseType: 'file',
      });
      const named = /filename="([^"]+)"/.exec(headers.get('content-disposition') ?? '')?.[1];
      saveBlob(blob, named ?? `case-${detail.reference}.zip`);
      toast.success(t.bundleSaved);
    } catch (error) {
      if (!isSessionEnd(error)) toast.error(failureMessage(error, t.bundleFailed));
    } finally {
      setBusy(false);
    }
  };
  return (
    <button type="button" className="btn-primary" disabled={busy} onClick={() => void download()}>
      {busy && <Spinner size="sm" decorative className="mr-1.5" />}
      {busy ? t.downloadingBundle : t.downloadBundle}
    </button>
  );
}

/** The dated facts of the case, oldest first. */
function Timeline({ detail }: { detail: CaseDetail }) {
  const id = useId();
  const entries = detail.timeline ?? [];
  const when = (at: string) => (at.length === 10 ? formatDate(at) : formatDateTime(at));
  return (
    <section aria-labelledby={`${id}-title`} className="card px-4 py-4">
      <h2 id={`${id}-title`} className="text-lg font-semibold text-text">
        {t.timelineTitle} <span className="section-count">{entries.length}</span>
      </h2>
      <p className="mt-1 text-sm text-muted">{t.timelineLead}</p>
      {entries.length === 0 ? (
        <p className="mt-2 text-sm text-muted">{t.timelineEmpty}</p>
      ) : (
        <ol className="timeline mt-3" aria-label={t.timelineTitle}>
          {entries.map((entry) => (
            // The server drops duplicate entries: the four fields together are unique.
            <li
              key={`${entry.lookup_id}|${entry.at}|${entry.source}|${entry.label}`}
              className="timeline-item"
            >
              <p className="timeline-date">{when(entry.at)}</p>
              <p className="text-sm text-text">{entry.label}</p>
              <p className="timeline-source text-xs text-muted">
                {entry.source === 'Footprint' ? t.timelineSearch : entry.source}
              </p>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

function Searches({ detail }: { detail: CaseDetail }) {
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
                      <td className="cell-clip-wide">{query.typed}</td>
                      <td>{item.user.name}</td>
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

function Entities({ detail }: { detail: CaseDetail }) {
  const entities = detail.entities;
  const id = useId();
  const { user } = useAuth();
  const [pivoting, setPivoting] = useState<{ entity: CaseEntity; pivot: Pivot } | null>(null);
  const [graph, setGraph] = useState(false);
  const pivotFor = (entity: CaseEntity): Pivot | null => {
    if (detail.status !== 'open') return null;
    const pivot = pivotOf(entity.type, entity.value, detail.reference);
    return pivot && (!pivot.liveOnly || isLive(user)) ? pivot : null;
  };
  const [type, setType] = useState<EntityType | ''>('');
  const present = useMemo(() => ENTITY_TYPES.filter((ty) => entities.some((e) => e.type === ty)), [entities]);
  const shown = type ? entities.filter((e) => e.type === type) : entities;
  const groups = ENTITY_TYPES.map((ty) => ({ type: ty, list: shown.filter((e) => e.type === ty) })).filter(
    (g) => g.list.length > 0,
  );

  return (
    <section aria-labelledby={`${id}-title`} className="card px-4 py-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id={`${id}-title`} className="text-lg font-semibold text-text">
          {t.entitiesTitle} <span className="section-count">{entities.length}</span>
        </h2>
        {entities.length > 0 && (
          <div className="flex items-center gap-2">
            <button
              type="button"
              className="btn-chip"
              aria-pressed={graph}
              onClick={() => setGraph((on) => !on)}
            >
              {t.showGraph}
            </button>
            <label htmlFor={`${id}-type`} className="text-sm text-muted">
              {t.entityType}
            </label>
            <select
              id={`${id}-type`}
              className="input min-h-9 w-auto py-1"
              value={type}
              onChange={(event) => setType(event.target.value as EntityType | '')}
            >
              <option value="">{t.allTypes}</option>
              {present.map((ty) => (
                <option key={ty} value={ty}>
                  {ENTITY_LABELS[ty]}
                </option>
              ))}
            </select>
          </div>
        )}
      </div>
      <p className="mt-1 text-sm text-muted">{t.entitiesLead}</p>
      {graph && entities.length > 0 && (
        <Suspense fallback={<p className="mt-3 text-sm text-muted">{t.graphLoading}</p>}>
          <CaseGraph detail={detail} type={type} />
        </Suspense>
      )}
      {entities.length === 0 ? (
        <p className="mt-2 text-sm text-muted">{t.entitiesEmpty}</p>
      ) : (
        <div className="mt-3 flex flex-col gap-4">
          {groups.map((group) => (
            <div key={group.type}>
              <h3 className="text-sm font-semibold text-text">
                {ENTITY_LABELS[group.type]} <span className="section-count">{group.list.length}</span>
              </h3>
              <ul className="mt-1 divide-y divide-line/70" aria-label={ENTITY_LABELS[group.type]}>
                {group.list.map((entity) => (
                  <li key={`${entity.type}:${entity.value}`} className="py-2">
                    <div className="flex flex-wrap items-baseline gap-2">
                      <span className="break-all font-medium text-text">{entity.value}</span>
                      {entity.corroborated && (
                        <span className="status-badge chip-emerald">{t.corroborated}</span>
                      )}
                      <PivotButton
                        pivot={pivotFor(entity)}
                        value={entity.value}
                        onPick={(pivot) => setPivoting({ entity, pivot })}
                      />
                    </div>
                    <p className="text-xs text-muted">
                      {t.foundBy(entity.sources.length, entity.items.length)}: {entity.sources.join(', ')}
                    </p>
                    {entity.other_cases.length > 0 && (
                      <p className="text-xs text-muted">
                        {t.seenIn}{' '}
                        {entity.other_cases.map((other, index) => (
                          <span key={other.id}>
                            {index > 0 && ', '}
                            <Link to={paths.case(other.id)} className="link-accent">
                              {other.title}
                            </Link>
                          </span>
                        ))}
                      </p>
                    )}
                  </li>
                ))}
              </ul>
            </div>
          ))}
        </div>
      )}
      {pivoting && (
        <PivotDialog
          reference={detail.reference}
          value={pivoting.entity.value}
          pivot={pivoting.pivot}
          onClose={() => setPivoting(null)}
        />
      )}
    </section>
  );
}

function PivotButton({
  pivot,
  value,
  onPick,
}: {
  pivot: Pivot | null;
  value: string;
  onPick: (pivot: Pivot) => void;
}) {
  if (!pivot) return null;
  return (
    <button
      type="button"
      className="btn-chip ml-auto"
      aria-label={t.pivotLabel(pivot.action, value)}
      onClick={() => onPick(pivot)}
    >
      {t.pivot}
    </button>
  );
}

/** Confirms a pivot with its price, runs it under the case's reference, and refreshes the case. */
function PivotDialog({
  reference,
  value,
  pivot,
  onClose,
}: {
  reference: string;
  value: string;
  pivot: Pivot;
  onClose: () => void;
}) {
  const { data: sources } = useSources();
  const { mergeUser } = useAuth();
  const queryClient = useQueryClient();
  const price = searchPrice(sources, pivot.kind);
  const [running, setRunning] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const run = async () => {
    if (running) return;
    setRunning(true);
    setError(null);
    try {
      const answer = await request<{ credits?: unknown }>(pivot.path, {
        method: pivot.method,
        ...(pivot.query ? { query: pivot.query } : {}),
        ...(pivot.body ? { body: pivot.body } : {}),
      });
      if (typeof answer?.credits === 'number') mergeUser({ credits: answer.credits });
      toast.success(t.pivotDone);
      await queryClient.invalidateQueries({ queryKey: ['cases'] });
      onClose();
    } catch (err) {
      if (isSessionEnd(err)) return;
      // A refusal says the balance after it (a refund after a failed source).
      if (isApiError(err) && typeof err.body.credits === 'number') mergeUser({ credits: err.body.credits });
      setError(failureMessage(err, t.saveFailed));
      void queryClient.invalidateQueries({ queryKey: ['cases'] });
    } finally {
      setRunning(false);
    }
  };
  return (
    <Modal
      title={t.pivotTitle(pivot.action)}
      description={value}
      onClose={onClose}
      actions={
        <button type="button" className="btn-primary" disabled={running} onClick={() => void run()}>
          {running && <Spinner size="sm" decorative className="mr-1.5" />}
          {running ? t.pivotRunning : t.pivotRun(price)}
        </button>
      }
    >
      <p className="text-sm text-text">
        {t.pivotCost(price)} {t.pivotFiled(reference)}
      </p>
      {error && (
        <p role="alert" className="field-error mt-3">
          {error}
        </p>
      )}
    </Modal>
  );
}

function Notes({ detail }: { detail: CaseDetail }) {
  const id = useId();
  const add = useAddNote(detail.id);
  const [body, setBody] = useState('');
  const [error, setError] = useState<string | null>(null);
  const closed = detail.status === 'closed';
  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (add.isPending) return;
    if (!body.trim()) {
      setError(messages.cases.noteLabel);
      return;
    }
    try {
      await add.mutateAsync(body);
      setBody('');
      setError(null);
      toast.success(t.noteAdded);
    } catch (err) {
      if (isSessionEnd(err)) return;
      setError(fieldErrorsOf(err).body ?? failureMessage(err, t.saveFailed));
    }
  };
  return (
    <section aria-labelledby={`${id}-title`} className="card px-4 py-4">
      <h2 id={`${id}-title`} className="text-lg font-semibold text-text">
        {t.notesTitle} <span className="section-count">{detail.notes.length}</span>
      </h2>
      {detail.notes.length === 0 ? (
        <p className="mt-2 text-sm text-muted">{t.notesEmpty}</p>
      ) : (
        <ol className="mt-2 flex flex-col gap-3">
          {detail.notes.map((note) => (
            <li key={note.id} className="border-l-2 border-line pl-3">
              <p className="whitespace-pre-wrap break-words text-sm text-text">{note.body}</p>
              <p className="mt-0.5 text-xs text-muted">
                {note.author.name} · {formatDateTime(note.created_at)}
              </p>
            </li>
          ))}
        </ol>
      )}
      {!closed && (
        <form noValidate onSubmit={(event) => void onSubmit(event)} className="mt-4 flex flex-col gap-2">
          <label htmlFor={`${id}-note`} className="label">
            {t.noteLabel}
          </label>
          <textarea
            id={`${id}-note`}
            className="input min-h-24"
            value={body}
            maxLength={5000}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${id}-note-error ${id}-note-hint` : `${id}-note-hint`}
            onChange={(event) => setBody(event.target.value)}
          />
          <p id={`${id}-note-hint`} className="text-xs text-muted">
            {t.noteHint}
          </p>
          {error && (
            <p id={`${id}-note-error`} className="field-error">
              {error}
            </p>
          )}
          <button type="submit" className="btn-primary self-start" disabled={add.isPending}>
            {add.isPending ? t.adding : t.addNote}
          </button>
        </form>
      )}
    </section>
  );
}

function Members({ detail, manage }: { detail: CaseDetail; manage: boolean }) {
  const id = useId();
  const { user } = useAuth();
  const navigate = useNavigate();
  const add = useAddMember(detail.id);
  const remove = useRemoveMember(detail.id);
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string | null>(null);
  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (add.isPending) return;
    try {
      await add.mutateAsync(email);
      setEmail('');
      setError(null);
      toast.success(t.memberAdded);
    } catch (err) {
      if (isSessionEnd(err)) return;
      setError(fieldErrorsOf(err).email ?? failureMessage(err, t.saveFailed));
    }
  };
  const onRemove = async (memberId: string) => {
    try {
      await remove.mutateAsync(memberId);
      if (memberId === user?.id && !manage) await navigate(paths.cases);
      else toast.success(t.memberRemoved);
    } catch (err) {
      if (!isSessionEnd(err)) toast.error(failureMessage(err, t.saveFailed));
    }
  };
  return (
    <section aria-labelledby={`${id}-title`} className="card px-4 py-4">
      <h2 id={`${id}-title`} className="text-lg font-semibold text-text">
        {t.membersTitle}
      </h2>
      <p className="mt-1 text-sm text-muted">{t.membersLead}</p>
      <ul className="mt-2 divide-y divide-line/70">
        <li className="flex items-center justify-between gap-2 py-2 text-sm">
          <span className="min-w-0 break-words text-text">
            {detail.owner.name} <span className="text-muted">({detail.owner.email})</span>
          </span>
          <span className="status-badge chip-indigo">{t.ownerBadge}</span>
        </li>
        {detail.members.map((member) => (
          <li key={member.id} className="flex items-center justify-between gap-2 py-2 text-sm">
            <span className="min-w-0 break-words text-text">
              {member.name} <span className="text-muted">({member.email})</span>
            </span>
            {(manage || member.id === user?.id) && (
              <button
                type="button"
                className="btn-chip"
                aria-label={member.id === user?.id ? t.leave : t.removeLabel(member.name)}
                disabled={remove.isPending}
                onClick={() => void onRemove(member.id)}
              >
                {member.id === user?.id ? t.leave : t.remove}
              </button>
            )}
          </li>
        ))}
      </ul>
      {manage && (
        <form noValidate onSubmit={(event) => void onSubmit(event)} className="mt-3 flex flex-col gap-2">
          <label htmlFor={`${id}-email`} className="label">
            {t.memberEmail}
          </label>
          <input
            id={`${id}-email`}
            type="email"
            autoComplete="off"
            className="input"
            value={email}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${id}-email-error` : undefined}
            onChange={(event) => setEmail(event.target.value)}
          />
          {error && (
            <p id={`${id}-email-error`} className="field-error">
              {error}
            </p>
          )}
          <button type="submit" className="btn-primary self-start" disabled={add.isPending}>
            {t.addMember}
          </button>
        </form>
      )}
    </section>
  );
}
