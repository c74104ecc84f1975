import {
  CAPTURE_ARTEFACTS,
  type CaptureArtefactName,
  type CaseCapture,
  type CaseDetail,
  captureMessages,
  messages,
} from '@footprint/domain';
import { type ReactNode, useId, useState } from 'react';
import { Link, useParams } from 'react-router';
import { toast } from 'react-toastify';
import { BreakableUrl } from '../../components/BreakableUrl.tsx';
import { CopyButton } from '../../components/CopyButton.tsx';
import { LoadingBlock } from '../../components/LoadError.tsx';
import { Spinner } from '../../components/Spinner.tsx';
import { useFileSave } from '../../components/useFileSave.ts';
import { paths } from '../../config/paths.ts';
import { formatDateTime } from '../../lib/datetime.ts';
import { failureMessage, hasStatus, isSessionEnd } from '../../lib/field-errors.ts';
import { captureText, inProgress, saveCaptureFile, saveCaptureZip, useCapture } from './api/captures.ts';
import { useCase } from './api/getCase.ts';
import { fileSize, hasZip, titleOf } from './captures.ts';
import { CaptureRemoval } from './components/CaptureRemoval.tsx';
import { useCaptureShot } from './components/CaptureShot.tsx';

const t = messages.captures;

/**
 * /cases/{id}/captures/{captureId}: one captured web page. Its full screenshot in a frame of its own
 * that scrolls, the facts of the capture (addresses, times, who, HTTP status, the signed manifest's
 * SHA-256), each file with its size, SHA-256 and download, the page's text on demand, and the ZIP.
 */
export default function CapturePage() {
  const { id = '', captureId = '' } = useParams();
  const detail = useCase(id);
  const capture = useCapture(id, captureId);
  if (detail.isPending || capture.isPending) return <LoadingBlock />;
  if (!detail.data || !capture.data) {
    const missing = hasStatus(detail.error, 404) || hasStatus(capture.error, 404);
    return (
      <div className="mx-auto w-full max-w-3xl px-4 py-10 sm:px-6">
        <p role="alert" className="text-text">
          {missing ? t.notFound : t.loadFailed}
        </p>
        <Link to={detail.data ? paths.case(id) : paths.cases} className="link-accent mt-3 inline-block">
          {detail.data ? t.backToCase : messages.cases.back}
        </Link>
      </div>
    );
  }
  return <CaptureView detail={detail.data} capture={capture.data} />;
}

function CaptureView({ detail, capture }: { detail: CaseDetail; capture: CaseCapture }) {
  const title = titleOf(capture);
  const done = capture.status === 'done';
  return (
    <div className="mx-auto flex w-full max-w-7xl flex-1 flex-col px-4 py-8 sm:px-6 lg:py-10">
      <title>{`${title} — ${messages.brand}`}</title>
      <Link to={paths.case(detail.id)} className="link-accent self-start text-sm">
        ← {t.backToCase}
      </Link>
      <header className="mt-3 flex flex-wrap items-start justify-between gap-4">
        <div className="min-w-0 flex-1 basis-80">
          <p className="eyebrow">
            {detail.reference} · {t.previewEyebrow}
          </p>
          <h1 className="mt-2 text-2xl font-bold tracking-tight break-words text-text sm:text-3xl">
            {title}
          </h1>
          <p className="mt-2 text-sm text-muted">
            <span className={`status-badge ${done ? 'status-on' : 'chip-slate'}`}>
              {t.status[capture.status]}
            </span>
          </p>
        </div>
        {hasZip(capture) && <ZipButton detail={detail} capture={capture} />}
      </header>

      {inProgress(capture) && <p className="mt-4 text-sm text-muted">{t.inProgress}</p>}
      {capture.status === 'failed' && (
        <p className="mt-4 text-sm text-danger">{capture.error ?? captureMessages.notDone}</p>
      )}
      {capture.removal && <CaptureRemoval removal={capture.removal} />}

      <div className="mt-6 grid gap-6 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
        {done && <Screenshot capture={capture} title={title} />}
        <div className="flex min-w-0 flex-col gap-6">
          <Facts capture={capture} />
          {done && <Files capture={capture} />}
        </div>
      </div>
      {done && capture.files.some((file) => file.name === 'page.txt') && <PageText capture={capture} />}
    </div>
  );
}

/** The whole screenshot, at the frame's width, in a frame that scrolls (with the keyboard too). */
function Screenshot({ capture, title }: { capture: CaseCapture; title: string }) {
  const id = useId();
  const shot = useCaptureShot(capture);
  return (
    <div className="card min-w-0 self-start p-3 sm:p-4">
      <h2 id={id} className="section-title">
        {t.screenshot}
      </h2>
      <section
        aria-labelledby={id}
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a frame that scrolls must take the focus to scroll by keyboard.
        tabIndex={0}
        className="mt-3 max-h-[60dvh] overflow-auto lg:max-h-[75dvh] rounded-lg border border-line bg-white focus-visible:outline-2 focus-visible:outline-accent"
      >
        {shot.status === 'ready' ? (
          <img src={shot.url} alt={t.screenshotLabel(title)} className="block h-auto w-full" />
        ) : shot.status === 'failed' ? (
          <p className="bg-surface px-3 py-10 text-center text-sm text-muted">{t.screenshotFailed}</p>
        ) : (
          <div className="grid min-h-60 place-items-center bg-surface">
            <Spinner size="md" label={t.screenshotLoading} />
          </div>
        )}
      </section>
    </div>
  );
}

function Fact({ term, children }: { term: string; children: ReactNode }) {
  return (
    <>
      <dt className="text-muted">{term}</dt>
      <dd className="min-w-0 text-text">{children}</dd>
    </>
  );
}

function Facts({ capture }: { capture: CaseCapture }) {
  const id = useId();
  return (
    <section aria-labelledby={id} className="card px-4 py-4">
      <h2 id={id} className="section-title">
        {t.facts}
      </h2>
      <dl className="mt-3 grid gap-x-4 gap-y-1.5 text-sm sm:grid-cols-[auto_minmax(0,1fr)] [&_dd]:mb-1.5 sm:[&_dd]:mb-0">
        <Fact term={t.requestedUrl}>
          <span className="font-mono text-xs wrap-anywhere">
            <BreakableUrl url={capture.url} />
          </span>
        </Fact>
        {capture.final_url && (
          <Fact term={t.finalUrl}>
            <span className="font-mono text-xs wrap-anywhere">
              <BreakableUrl url={capture.final_url} />
            </span>
          </Fact>
        )}
        {capture.captured_at && (
          <Fact term={t.capturedAt}>
            <time dateTime={capture.captured_at} title={capture.captured_at}>
              {formatDateTime(capture.captured_at, true)}
            </time>
          </Fact>
        )}
        <Fact term={t.capturedBy}>
          {capture.requested_by.name}{' '}
          <span className="text-xs break-all text-muted">({capture.requested_by.email})</span>
        </Fact>
        {capture.status === 'done' && (
          <Fact term={t.httpStatus}>
            <span className="tabular-nums">{capture.http_status ?? t.noStatus}</span>
          </Fact>
        )}
        {capture.manifest_sha256 && (
          <Fact term={t.manifestSha256}>
            <span className="flex items-start gap-1">
              <span className="min-w-0 font-mono text-xs break-all">{capture.manifest_sha256}</span>
              <CopyButton text={capture.manifest_sha256} label={t.copyManifestSha256} />
            </span>
          </Fact>
        )}
      </dl>
    </section>
  );
}

/** Each artefact the signed manifest lists: its label, name, size, SHA-256 and download. */
function Files({ capture }: { capture: CaseCapture }) {
  const id = useId();
  const [busy, setBusy] = useState<CaptureArtefactName | null>(null);
  const save = async (name: CaptureArtefactName) => {
    if (busy) return;
    setBusy(name);
    try {
      await saveCaptureFile(capture, name);
      toast.success(t.fileSaved(name));
    } catch (error) {
      if (!isSessionEnd(error)) toast.error(failureMessage(error, t.downloadFailed));
    } finally {
      setBusy(null);
    }
  };
  return (
    <section aria-labelledby={id} className="card px-4 py-4">
      <h2 id={id} className="section-title">
        {t.files} <span className="section-count">{capture.files.length}</span>
      </h2>
      {capture.files.length === 0 ? (
        <p className="mt-2 text-sm text-muted">{t.noFiles}</p>
      ) : (
        <ul className="mt-2 divide-y divide-line/70">
          {capture.files.map((file) => {
            const label = CAPTURE_ARTEFACTS[file.name]?.label ?? file.name;
            return (
              <li key={file.name} className="py-2.5">
                <div className="flex items-start justify-between gap-3">
                  <p className="flex min-w-0 flex-col">
                    <span className="font-medium text-text">{label}</span>
                    <span className="font-mono text-xs text-muted">{file.name}</span>
                  </p>
                  <button
                    type="button"
                    className="unit-action shrink-0"
                    aria-label={t.fileDownload(file.name)}
                    aria-disabled={busy === file.name || undefined}
                    onClick={() => void save(file.name)}
                  >
                    {busy === file.name && <Spinner size="sm" decorative className="mr-1 size-3" />}
                    {t.fileDownloadShort}
                  </button>
                </div>
                <dl className="mt-1 grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 text-xs">
                  <dt className="text-muted">{t.fileSize}</dt>
                  <dd className="text-text/90 tabular-nums">
                    {fileSize(file.bytes)}
                    {capture.truncated.includes(file.name) ? ` · ${t.truncated(label)}` : ''}
                  </dd>
                  <dt className="text-muted">{t.fileHash}</dt>
                  <dd className="font-mono break-all text-text/90">{file.sha256}</dd>
                </dl>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}

type TextState = { step: 'idle' | 'loading' | 'failed' } | { step: 'ready'; text: string };

/** The page's text (page.txt), fetched the first time the block is opened. */
function PageText({ capture }: { capture: CaseCapture }) {
  const [state, setState] = useState<TextState>({ step: 'idle' });
  const load = async () => {
    if (state.step !== 'idle' && state.step !== 'failed') return;
    setState({ step: 'loading' });
    try {
      setState({ step: 'ready', text: await captureText(capture) });
    } catch (error) {
      if (!isSessionEnd(error)) setState({ step: 'failed' });
    }
  };
  return (
    <details
      className="card mt-6 px-4 py-3"
      onToggle={(event) => {
        if (event.currentTarget.open) void load();
      }}
    >
      <summary className="cursor-pointer text-base font-semibold text-text">{t.pageText}</summary>
      <div className="mt-3">
        {state.step === 'loading' && <Spinner size="sm" label={t.pageTextLoading} />}
        {state.step === 'failed' && <p className="text-sm text-warning">{t.pageTextFailed}</p>}
        {state.step === 'ready' &&
          (state.text.trim() === '' ? (
            <p className="text-sm text-muted">{t.pageTextEmpty}</p>
          ) : (
            <pre
              // biome-ignore lint/a11y/noNoninteractiveTabindex: a block that scrolls must take the focus to scroll by keyboard.
              tabIndex={0}
              className="max-h-96 overflow-auto rounded-lg border border-line bg-night/60 p-3 font-mono text-xs whitespace-pre-wrap break-words text-text/90"
            >
              {state.text}
            </pre>
          ))}
      </div>
    </details>
  );
}

function ZipButton({ detail, capture }: { detail: CaseDetail; capture: CaseCapture }) {
  const { busy, start } = useFileSave(() => saveCaptureZip(detail, capture), {
    saved: t.downloaded,
    failed: t.downloadFailed,
  });
  return (
    <div className="flex flex-wrap gap-2">
      <button type="button" className="btn-primary" aria-disabled={busy || undefined} onClick={start}>
        {busy && <Spinner size="sm" decorative />}
        {busy ? t.downloading : t.download}
      </button>
      <Link to={paths.case(detail.id)} className="btn-ghost">
        {t.backToCase}
      </Link>
    </div>
  );
}
