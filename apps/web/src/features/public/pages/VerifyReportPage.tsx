import { messages, type PublicVerifyResponse } from '@footprint/domain';
import { type DragEvent, useEffect, useId, useRef, useState } from 'react';
import { formatDateTime } from '../../../lib/datetime.ts';
import { serverMessage } from '../../../lib/field-errors.ts';
import { verifyHash } from '../api/verifyReport.ts';

const t = messages.public.verify;

/** Far above any report this server writes; a larger file is not read into memory at all. */
const MAX_BYTES = 100 * 1024 * 1024;

type Check =
  | { step: 'idle' }
  | { step: 'hashing'; file: File }
  | { step: 'checking'; file: File; sha256: string }
  | { step: 'done'; file: File; sha256: string; answer: PublicVerifyResponse }
  | { step: 'failed'; file: File; sha256?: string; message: string };

/** The file's SHA-256 as 64 lower-case hex digits, computed in the browser. */
async function sha256Of(file: File): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', await file.arrayBuffer());
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/**
 * /verify: a court, an editor or anyone holding a report file checks that it is unaltered. The file is
 * hashed here with SubtleCrypto and only the hash is sent; the server answers whether it generated a
 * report with exactly that hash, and when. Dropping a file and the keyboard-reachable file picker do
 * the same; the outcome is announced in a live region.
 */
export default function VerifyReportPage() {
  const inputId = useId();
  const hintId = useId();
  const [check, setCheck] = useState<Check>({ step: 'idle' });
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

  async function verify(file: File) {
    const run = ++latest.current;
    const settle = (next: Check) => {
      if (run === latest.current) setCheck(next);
    };
    if (file.size > MAX_BYTES) return settle({ step: 'failed', file, message: t.tooLarge });
    if (!globalThis.crypto?.subtle) return settle({ step: 'failed', file, message: t.noCrypto });
    settle({ step: 'hashing', file });
    let sha256: string;
    try {
      sha256 = await sha256Of(file);
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
    const file = event.dataTransfer.files[0];
    if (file) void verify(file);
  };

  const busy = check.step === 'hashing' || check.step === 'checking';

  return (
    <>
      <title>{`${t.title} — ${messages.brand}`}</title>
      <article className="page-shell" aria-labelledby="verify-title">
        <p className="eyebrow">Reports</p>
        <h1 id="verify-title" className="page-title">
          {t.title}
        </h1>
        <p className="page-lead">{t.lead}</p>

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
            accept="application/pdf,.pdf"
            aria-label={t.fileLabel}
            aria-describedby={hintId}
            className="text-sm text-muted file:mr-3 file:cursor-pointer file:rounded-lg file:border-0 file:bg-accent file:px-4 file:py-2 file:font-semibold file:text-ink"
            onChange={(event) => {
              const file = event.currentTarget.files?.[0];
              if (file) void verify(file);
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
          {check.step !== 'idle' && (
            <dl className="mt-4 grid gap-x-4 gap-y-1 text-xs text-muted sm:grid-cols-[auto_1fr]">
              <dt>{t.file}</dt>
              <dd className="break-all text-text/90">{check.file.name}</dd>
              {'sha256' in check && check.sha256 && (
                <>
                  <dt>{t.fingerprint}</dt>
                  <dd className="break-all font-mono text-text/90">{check.sha256}</dd>
                </>
              )}
            </dl>
          )}
        </div>
      </article>
    </>
  );
}
