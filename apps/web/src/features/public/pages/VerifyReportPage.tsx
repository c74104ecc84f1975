import { messages, type PublicVerifyResponse } from '@footprint/domain';
import { type DragEvent, useEffect, useId, useRef, useState } from 'react';
import { formatDateTime } from '../../../lib/datetime.ts';
import { serverMessage } from '../../../lib/field-errors.ts';
import { verifyCapture, verifyHash } from '../api/verifyReport.ts';
import {
  areLooseCaptureFiles,
  CaptureReadError,
  captureOfFiles,
  capturesInZip,
  isZipFile,
  megabytes,
  UNPACKED_MAX_BYTES,
  ZIP_MAX_BYTES,
  zipEntries,
} from '../capture-files.ts';
import { type CaptureCheck, CaptureChecks, type CapturesStep } from '../components/CaptureChecks.tsx';

const t = messages.public.verify;
const c = messages.captures.verify;

/** Far above any report this server writes; a larger file is not read into memory at all. */
const MAX_BYTES = 100 * 1024 * 1024;

type Check =
  | { step: 'idle' }
  | { step: 'hashing'; file: File }
  | { step: 'checking'; file: File; sha256: string }
  | { step: 'done'; file: File; sha256: string; answer: PublicVerifyResponse }
  | { step: 'failed'; file: File; sha256?: string; message: string };

/** The file's SHA-256 as 64 lower-case hex digits, computed in the browser. */
async function sha256Of(file: File | Uint8Array): Promise<string> {
  const bytes = file instanceof Uint8Array ? file : await file.arrayBuffer();
  const digest = await crypto.subtle.digest('SHA-256', bytes as BufferSource);
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** Asks the server about each capture in turn, showing each answer as it comes. */
async function checkCaptures(
  found: Awaited<ReturnType<typeof capturesInZip>>,
  current: () => boolean,
  settle: (next: CapturesStep) => void,
) {
  const checks: CaptureCheck[] = [];
  settle({ step: 'checking', checks: [] });
  for (const capture of found) {
    if (!current()) return;
    if (!capture.body) {
      checks.push({ capture, outcome: { kind: 'problem', message: c.badSignatureFile } });
    } else {
      try {
        checks.push({ capture, outcome: { kind: 'answer', answer: await verifyCapture(capture.body) } });
      } catch (error) {
        checks.push({ capture, outcome: { kind: 'problem', message: serverMessage(error, c.failed) } });
      }
    }
    settle({ step: 'checking', checks: [...checks] });
  }
  settle({ step: 'done', checks });
}

/** Why the captures of what was dropped could not be read, as the page says it. */
function readFailure(error: unknown): string {
  if (!(error instanceof CaptureReadError)) return c.unreadableZip;
  if (error.reason === 'unpackedTooLarge') return c.unpackedTooLarge(megabytes(UNPACKED_MAX_BYTES));
  if (error.reason === 'looseIncomplete') return c.looseIncomplete;
  if (error.reason === 'tooLarge') return c.tooLarge(megabytes(ZIP_MAX_BYTES));
  return c.unreadableZip;
}

/**
 * /verify: a court, an editor or anyone holding a report file checks that it is unaltered. The file is
 * hashed here with SubtleCrypto and only the hash is sent; the server answers whether it generated a
 * report with exactly that hash, and when. Dropping a file and the keyboard-reachable file picker do
 * the same; the outcome is announced in a live region.
 *
 * Captured web pages are checked here too: a capture's ZIP, an evidence bundle holding captures
 * (unpacked here with fflate, up to UNPACKED_MAX_BYTES) or a capture's loose files chosen together.
 * Each capture's manifest, its signature and the SHA-256 of each of its files go to
 * /api/verify/capture, which says whether the signature is this server's, whether its chain records
 * the manifest and which files match. A bundle is also checked whole, as before; a capture's ZIP is
 * checked by its signed manifest only.
 */
export default function VerifyReportPage() {
  const inputId = useId();
  const hintId = useId();
  const [check, setCheck] = useState<Check>({ step: 'idle' });
  const [captures, setCaptures] = useState<CapturesStep>({ step: 'none' });
  /** The names of the files checked for their captures alone (a capture's ZIP, its loose files). */
  const [subject, setSubject] = useState<string | null>(null);
  const [dragging, setDragging] = useState(false);
  // A newer file replaces an older one whose check is still running: only the latest answer counts.
  const latest = useRef(0);

  // A file dropped beside the zone would make the browser open it in place of this page.
  useEffect(() => {
    const keep = (event: globalThis.DragEvent) => event.preventDefault();
    window.addEventListener('dragover', keep);
    window.addEventListener('drop', keep);
    return () => {
      window.removeEventListener('dragover', keep);
      window.removeEventListener('drop', keep);
    };
  }, []);

  async function verify(files: File[]) {
    const file = files[0];
    if (!file) return;
    const run = ++latest.current;
    const current = () => run === latest.current;
    const settle = (next: Check) => {
      if (current()) setCheck(next);
    };
    const settleCaptures = (next: CapturesStep) => {
      if (current()) setCaptures(next);
    };
    setCaptures({ step: 'none' });
    setSubject(null);
    if (!globalThis.crypto?.subtle) return settle({ step: 'failed', file, message: t.noCrypto });

    // The loose files of one capture, chosen together.
    if (areLooseCaptureFiles(files)) {
      settle({ step: 'idle' });
      setSubject(files.map((each) => each.name).join(', '));
      settleCaptures({ step: 'hashing' });
      try {
        const found = await captureOfFiles(files);
        await checkCaptures([found], current, settleCaptures);
      } catch (error) {
        settleCaptures({ step: 'failed', message: readFailure(error) });
      }
      return;
    }

    let zip: Uint8Array | undefined;
    if (await isZipFile(file).catch(() => false)) {
      if (file.size > ZIP_MAX_BYTES)
        return settle({ step: 'failed', file, message: c.tooLarge(megabytes(ZIP_MAX_BYTES)) });
      settleCaptures({ step: 'reading' });
      try {
        zip = new Uint8Array(await file.arrayBuffer());
      } catch {
        settleCaptures({ step: 'none' });
        return settle({ step: 'failed', file, message: t.failed });
      }
      // Let the page say 'Reading the ZIP' before the unpacking holds the thread.
      await new Promise((resolve) => setTimeout(resolve, 0));
      let entries: Map<string, number> | undefined;
      try {
        entries = zipEntries(zip);
      } catch {
        settleCaptures({ step: 'none' });
      }
      const pending = entries
        ? capturesInZip(zip, entries).catch((error: unknown) => {
            settleCaptures({ step: 'failed', message: readFailure(error) });
            return null;
          })
        : Promise.resolve(null);
      // A capture's own ZIP (its manifest at the root) is checked by that signed manifest alone.
      if (entries?.has('manifest.sig') && entries.has('manifest.json')) {
        settle({ step: 'idle' });
        setSubject(file.name);
        const found = await pending;
        if (found) await checkCaptures(found, current, settleCaptures);
        return;
      }
      void pending.then((found) => {
        if (!found) return;
        if (found.length === 0) settleCaptures({ step: 'none' });
        else void checkCaptures(found, current, settleCaptures);
      });
    } else if (file.size > MAX_BYTES) return settle({ step: 'failed', file, message: t.tooLarge });

    settle({ step: 'hashing', file });
    let sha256: string;
    try {
      sha256 = await sha256Of(zip ?? file);
    } catch {
      return settle({ step: 'failed', file, message: t.failed });
    }
    settle({ step: 'checking', file, sha256 });
    try {
      settle({ step: 'done', file, sha256, answer: await verifyHash(sha256) });
    } catch (error) {
      const message = serverMessage(error, t.failed);
      settle({ step: 'failed', file, sha256, message });
    }
  }

  const onDrop = (event: DragEvent<HTMLElement>) => {
    event.preventDefault();
    setDragging(false);
    const files = Array.from(event.dataTransfer.files);
    if (files.length > 0) void verify(files);
  };

  const busy =
    check.step === 'hashing' ||
    check.step === 'checking' ||
    captures.step === 'reading' ||
    captures.step === 'hashing' ||
    captures.step === 'checking';

  return (
    <>
      <title>{`${t.title} — ${messages.brand}`}</title>
      <article className="page-shell" aria-labelledby="verify-title">
        <p className="eyebrow">Reports</p>
        <h1 id="verify-title" className="page-title">
          {t.title}
        </h1>
        <p className="page-lead">{t.lead}</p>
        <p className="mt-3 text-sm leading-relaxed text-muted">{c.lead}</p>

        {/* The whole zone is the file input's label: a click, Enter or Space on the input opens the picker. */}
        <label
          htmlFor={inputId}
          onDragOver={(event) => {
            event.preventDefault();
            setDragging(true);
          }}
          onDragLeave={() => setDragging(false)}
          onDrop={onDrop}
          data-testid="verify-drop-zone"
          className={`mt-10 flex cursor-pointer flex-col items-center gap-3 rounded-2xl border-2 border-dashed px-6 py-12 text-center transition-colors focus-within:border-accent focus-within:outline-2 focus-within:outline-offset-4 focus-within:outline-accent ${
            dragging ? 'border-accent bg-accent-soft/40' : 'border-line bg-surface/60 hover:border-accent/60'
          }`}
        >
          <svg
            viewBox="0 0 24 24"
            aria-hidden="true"
            className="size-10 fill-none stroke-accent"
            strokeWidth="1.5"
            strokeLinecap="round"
            strokeLinejoin="round"
          >
            <path d="M14 3H7a2 2 0 0 0-2 2v14a2 2 0 0 0 2 2h10a2 2 0 0 0 2-2V8z" />
            <path d="M14 3v5h5M9 14l2 2 4-4" />
          </svg>
          <span className="text-base font-semibold text-text">{t.drop}</span>
          <span className="text-sm text-muted">{t.choose}</span>
          <input
            id={inputId}
            type="file"
            multiple
            accept="application/pdf,.pdf,application/zip,.zip,.json,.sig,.mhtml,.png,.txt"
            aria-label={t.fileLabel}
            aria-describedby={hintId}
            className="text-sm text-muted file:mr-3 file:cursor-pointer file:rounded-lg file:border-0 file:bg-accent file:px-4 file:py-2 file:font-semibold file:text-ink"
            onChange={(event) => {
              const files = Array.from(event.currentTarget.files ?? []);
              if (files.length > 0) void verify(files);
            }}
          />
          <span id={hintId} className="text-xs text-muted">
            {t.hint}
          </span>
        </label>

        <div role="status" aria-live="polite" aria-busy={busy} className="mt-8 min-h-24">
          {check.step === 'hashing' && <p className="text-sm text-muted">{t.hashing}</p>}
          {check.step === 'checking' && <p className="text-sm text-muted">{t.checking}</p>}
          {check.step === 'done' &&
            (check.answer.valid ? (
              <p className="rounded-lg border border-success/30 bg-success/10 px-4 py-3 text-sm font-medium text-success">
                {t.matches(formatDateTime(check.answer.generated_at, true))}
              </p>
            ) : (
              <p className="rounded-lg border border-danger/40 bg-danger/10 px-4 py-3 text-sm font-medium text-danger">
                {t.noMatch}
              </p>
            ))}
          {check.step === 'failed' && (
            <p className="rounded-lg border border-warning/40 bg-warning/10 px-4 py-3 text-sm font-medium text-warning">
              {check.message}
            </p>
          )}
          {(check.step !== 'idle' || subject) && (
            <dl className="mt-4 grid gap-x-4 gap-y-1 text-xs text-muted sm:grid-cols-[auto_1fr]">
              <dt>{t.file}</dt>
              <dd className="break-all text-text/90">{check.step !== 'idle' ? check.file.name : subject}</dd>
              {'sha256' in check && check.sha256 && (
                <>
                  <dt>{t.fingerprint}</dt>
                  <dd className="break-all font-mono text-text/90">{check.sha256}</dd>
                </>
              )}
            </dl>
          )}
          <CaptureChecks step={captures} />
        </div>
      </article>
    </>
  );
}
