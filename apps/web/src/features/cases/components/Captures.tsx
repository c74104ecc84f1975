import {
  CAPTURE_ARTEFACTS,
  CAPTURE_REASON_MAX_LENGTH,
  CAPTURE_URL_MAX_LENGTH,
  type CaseCapture,
  type CaseDetail,
  captureMessages,
  captureUrl,
  messages,
  removeCaptureBody,
} from '@footprint/domain';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useRef, useState } from 'react';
import { Link } from 'react-router';
import { toast } from 'react-toastify';
import { BreakableUrl } from '../../../components/BreakableUrl.tsx';
import { Icon } from '../../../components/Icon.tsx';
import { ReasonDialog } from '../../../components/ReasonDialog.tsx';
import { Spinner } from '../../../components/Spinner.tsx';
import { useFileSave } from '../../../components/useFileSave.ts';
import { paths } from '../../../config/paths.ts';
import { useAuth } from '../../../lib/auth-context.ts';
import { formatDateTime } from '../../../lib/datetime.ts';
import { fieldErrorsOf, hasStatus, isSessionEnd, serverMessage } from '../../../lib/field-errors.ts';
import {
  inProgress,
  saveCaptureZip,
  useCaptures,
  useCreateCapture,
  useRemoveCapture,
} from '../api/captures.ts';
import { caseKey } from '../api/listCases.ts';
import { hasZip, mayRemoveCapture, sameAddress, titleOf } from '../captures.ts';
import { CaptureRemoval } from './CaptureRemoval.tsx';
import { useCaptureShot, useNearScreen } from './CaptureShot.tsx';

const t = messages.captures;
/** A page with a corner folded: a capture without a screenshot. */
const pageIcon = 'M14 3H7a2 2 0 0 0-2 2v14a2 2 0 0 0 2 2h10a2 2 0 0 0 2-2V8zM14 3v5h5';

const tones: Record<CaseCapture['status'], string> = {
  queued: 'chip-sky',
  running: 'chip-sky',
  done: 'status-on',
  failed: 'chip-red',
  removed: 'chip-slate',
};

/**
 * 'Captured pages' on a case: where the server captures pages, an address field and 'Capture page'
 * (an open case only); otherwise one sentence. Each capture with its screenshot's top (which opens the
 * preview), its title, addresses, status and times, and Preview, Download ZIP and Remove. The list is
 * asked again every two seconds while a capture is queued or running.
 */
export function Captures({ detail }: { detail: CaseDetail }) {
  const id = useId();
  const query = useCaptures(detail.id);
  const { user } = useAuth();
  const [removing, setRemoving] = useState<CaseCapture | null>(null);
  const list = query.data?.data ?? [];
  const closed = detail.status === 'closed';

  return (
    <section aria-labelledby={`${id}-title`} className="card px-4 py-4">
      <h2 id={`${id}-title`} className="text-lg font-semibold text-text">
        {t.title} {query.data && <span className="section-count">{list.length}</span>}
      </h2>
      <p className="mt-1 text-xs leading-relaxed text-muted">{t.lead}</p>

      {query.isPending ? (
        <div className="mt-3 flex justify-center py-4">
          <Spinner size="md" />
        </div>
      ) : !query.data ? (
        <p role="alert" className="mt-3 text-sm text-text">
          {t.loadFailed}{' '}
          <button type="button" className="link-accent" onClick={() => void query.refetch()}>
            {messages.history.retry}
          </button>
        </p>
      ) : (
        <>
          {!query.data.available ? (
            <p className="mt-3 text-sm text-text">{captureMessages.unavailable}</p>
          ) : closed ? (
            <p className="mt-3 text-sm text-muted">{captureMessages.closed}</p>
          ) : (
            <CaptureForm caseId={detail.id} />
          )}
          {list.length === 0 ? (
            query.data.available && <p className="mt-3 text-sm text-muted">{t.empty}</p>
          ) : (
            <ol aria-label={t.listLabel(list.length)} className="mt-3 divide-y divide-line/70">
              {list.map((capture) => (
                <CaptureRow
                  key={capture.id}
                  detail={detail}
                  capture={capture}
                  onRemove={
                    mayRemoveCapture(detail, capture, user?.id) ? () => setRemoving(capture) : undefined
                  }
                />
              ))}
            </ol>
          )}
        </>
      )}
      {removing && (
        <RemoveCaptureDialog caseId={detail.id} capture={removing} onClose={() => setRemoving(null)} />
      )}
    </section>
  );
}

/** The address field and 'Capture page': checked here with the API's own rule, then by the server. */
function CaptureForm({ caseId }: { caseId: string }) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const create = useCreateCapture(caseId);
  const queryClient = useQueryClient();
  const [url, setUrl] = useState('');
  const [error, setError] = useState<string | null>(null);

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (create.isPending) return;
    const checked = captureUrl.safeParse(url);
    if (!checked.success) {
      setError(checked.error.issues[0]?.message ?? captureMessages.url);
      input.current?.focus();
      return;
    }
    try {
      await create.mutateAsync({ url: checked.data });
      setUrl('');
      setError(null);
      toast.success(t.queued);
    } catch (failure) {
      if (isSessionEnd(failure)) return;
      // Turned off (or the case closed) since the page loaded: the list says so in place of the form.
      if (hasStatus(failure, 409, 503)) void queryClient.invalidateQueries({ queryKey: caseKey(caseId) });
      setError(fieldErrorsOf(failure).url ?? serverMessage(failure, t.saveFailed));
      input.current?.focus();
    }
  };

  return (
    <form noValidate onSubmit={(event) => void onSubmit(event)} className="mt-3 flex flex-col gap-1.5">
      <label htmlFor={`${id}-url`} className="label">
        {t.urlLabel}
      </label>
      <div className="flex flex-col gap-2 sm:flex-row sm:items-start">
        <input
          ref={input}
          id={`${id}-url`}
          type="url"
          inputMode="url"
          autoComplete="off"
          spellCheck={false}
          placeholder="https://"
          className="input min-w-0 flex-1"
          value={url}
          maxLength={CAPTURE_URL_MAX_LENGTH + 64}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-url-error ${id}-url-hint` : `${id}-url-hint`}
          onChange={(event) => {
            setUrl(event.target.value);
            setError(null);
          }}
        />
        <button type="submit" className="btn-primary shrink-0" aria-disabled={create.isPending || undefined}>
          {create.isPending && <Spinner size="sm" decorative />}
          {create.isPending ? t.capturing : t.capture}
        </button>
      </div>
      {error && (
        <p id={`${id}-url-error`} className="field-error">
          {error}
        </p>
      )}
      <p id={`${id}-url-hint`} className="text-xs text-muted">
        {t.urlHint}
      </p>
    </form>
  );
}

function CaptureRow({
  detail,
  capture,
  onRemove,
}: {
  detail: CaseDetail;
  capture: CaseCapture;
  onRemove: (() => void) | undefined;
}) {
  const title = titleOf(capture);
  const done = capture.status === 'done';
  const preview = paths.capture(detail.id, capture.id);
  const truncated = capture.truncated.map((name) => CAPTURE_ARTEFACTS[name]?.label ?? name);
  return (
    <li className="grid gap-3 py-3 sm:grid-cols-[9rem_minmax(0,1fr)] xl:grid-cols-[11rem_minmax(0,1fr)_auto]">
      <Thumbnail capture={capture} title={title} preview={done ? preview : null} />
      <div className="min-w-0">
        <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
          <h3 className="min-w-0 font-semibold break-words text-text">{title}</h3>
          <span className={`status-badge ${tones[capture.status]}`}>
            {inProgress(capture) && <Spinner size="sm" decorative className="mr-1 size-3" />}
            {t.status[capture.status]}
          </span>
        </div>
        <dl className="mt-1.5 grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-0.5 text-xs">
          <dt className="text-muted">{t.requestedUrl}</dt>
          <dd className="font-mono wrap-anywhere text-text/90">
            <BreakableUrl url={capture.url} />
          </dd>
          {capture.final_url && !sameAddress(capture.final_url, capture.url) && (
            <>
              <dt className="text-muted">{t.finalUrl}</dt>
              <dd className="font-mono wrap-anywhere text-text/90">
                <BreakableUrl url={capture.final_url} />
              </dd>
            </>
          )}
          {capture.captured_at && (
            <>
              <dt className="text-muted">{t.capturedAt}</dt>
              <dd className="text-text/90">
                <time dateTime={capture.captured_at} title={capture.captured_at}>
                  {formatDateTime(capture.captured_at, true)}
                </time>
              </dd>
            </>
          )}
          {capture.http_status !== null && (
            <>
              <dt className="text-muted">{t.httpStatus}</dt>
              <dd className="text-text/90 tabular-nums">{capture.http_status}</dd>
            </>
          )}
        </dl>
        <p className="mt-1 text-xs text-muted">
          {t.requestedBy(capture.requested_by.name, formatDateTime(capture.requested_at))}
        </p>
        {inProgress(capture) && <p className="mt-1 text-xs text-muted">{t.inProgress}</p>}
        {capture.status === 'failed' && (
          <p className="mt-1.5 text-sm text-danger">{capture.error ?? t.status.failed}</p>
        )}
        {truncated.length > 0 && done && (
          <p className="mt-1 text-xs text-warning">{t.truncated(truncated.join(', '))}</p>
        )}
        {capture.removal && <CaptureRemoval removal={capture.removal} compact />}
      </div>
      {(done || hasZip(capture) || onRemove) && (
        <div className="flex flex-wrap items-start gap-2 sm:col-start-2 xl:col-start-3 xl:flex-col xl:items-stretch">
          {done && (
            <Link to={preview} className="unit-action" aria-label={t.openPreview(title)}>
              {t.preview}
            </Link>
          )}
          {hasZip(capture) && <DownloadButton detail={detail} capture={capture} title={title} />}
          {onRemove && (
            <button
              type="button"
              className="unit-action unit-action-danger"
              aria-label={t.removeLabel(title)}
              onClick={onRemove}
            >
              {t.remove}
            </button>
          )}
        </div>
      )}
    </li>
  );
}

/** The capture's thumbnail (the top of the page), loaded once it nears the screen; a link to the preview. */
function Thumbnail({
  capture,
  title,
  preview,
}: {
  capture: CaseCapture;
  title: string;
  preview: string | null;
}) {
  const { ref, near } = useNearScreen<HTMLDivElement>();
  const shot = useCaptureShot(capture, near, 'thumbnail');
  const frame = 'block h-28 w-full overflow-hidden rounded-lg border border-line bg-night sm:h-24 xl:h-28';
  const picture =
    shot.status === 'ready' ? (
      <img src={shot.url} alt="" className="size-full object-cover object-top" decoding="async" />
    ) : (
      <span className="grid size-full place-items-center text-muted">
        {shot.status === 'loading' || inProgress(capture) ? (
          <Spinner size="sm" decorative />
        ) : (
          <Icon d={pageIcon} className="size-6" />
        )}
      </span>
    );
  return (
    <div ref={ref}>
      {preview ? (
        <Link
          to={preview}
          className={`${frame} transition-colors hover:border-accent`}
          aria-label={t.openPreview(title)}
          // The Preview button says the same: one stop for the keyboard is enough.
          tabIndex={-1}
        >
          {picture}
        </Link>
      ) : (
        <span className={frame} aria-hidden="true">
          {picture}
        </span>
      )}
    </div>
  );
}

function DownloadButton({
  detail,
  capture,
  title,
}: {
  detail: CaseDetail;
  capture: CaseCapture;
  title: string;
}) {
  const { busy, start } = useFileSave(() => saveCaptureZip(detail, capture), {
    saved: t.downloaded,
    failed: t.downloadFailed,
  });
  return (
    <button
      type="button"
      className="unit-action"
      aria-label={t.downloadLabel(title)}
      aria-disabled={busy || undefined}
      onClick={start}
    >
      {busy && <Spinner size="sm" decorative className="mr-1 size-3" />}
      {busy ? t.downloading : t.download}
    </button>
  );
}

/** 'Remove this capture?': the reason is required and said under its field when missing. */
function RemoveCaptureDialog({
  caseId,
  capture,
  onClose,
}: {
  caseId: string;
  capture: CaseCapture;
  onClose: () => void;
}) {
  const remove = useRemoveCapture(caseId);
  return (
    <ReasonDialog
      title={t.removeTitle}
      lead={
        <>
          <p className="text-sm font-medium break-words text-text">{titleOf(capture)}</p>
          <p className="mt-0.5 font-mono text-xs wrap-anywhere text-muted">
            <BreakableUrl url={capture.url} />
          </p>
          <p className="mt-3 mb-3 text-sm text-muted">{t.removeLead}</p>
        </>
      }
      label={t.removeReason}
      hint={t.removeReasonHint}
      cancel={messages.cases.cancel}
      submitLabel={t.removeSubmit}
      busyLabel={t.removing}
      tone="danger"
      maxLength={CAPTURE_REASON_MAX_LENGTH}
      schema={removeCaptureBody}
      invalid={captureMessages.reason}
      saveFailed={t.saveFailed}
      success={t.removed}
      busy={remove.isPending}
      submit={(reason) => remove.mutateAsync({ captureId: capture.id, reason })}
      onClose={onClose}
    />
  );
}
