import { type CaptureFileCheck, messages, type VerifyCaptureResult } from '@footprint/domain';
import { useId } from 'react';
import { formatDateTime } from '../../../lib/datetime.ts';
import type { CaptureToCheck } from '../capture-files.ts';

const c = messages.captures.verify;

/** One capture of what was dropped, and what the server said of it (or why it was not asked). */
export interface CaptureCheck {
  capture: CaptureToCheck;
  outcome: { kind: 'answer'; answer: VerifyCaptureResult } | { kind: 'problem'; message: string };
}

export type CapturesStep =
  | { step: 'none' }
  | { step: 'reading' }
  | { step: 'hashing' }
  | { step: 'checking'; checks: CaptureCheck[] }
  | { step: 'done'; checks: CaptureCheck[] }
  | { step: 'failed'; message: string };

const fileTone: Record<CaptureFileCheck, string> = {
  match: 'text-success',
  mismatch: 'text-danger',
  missing: 'text-warning',
};

/** The captures checked on /verify: per capture, its signature, its record here and each file's result. */
export function CaptureChecks({ step }: { step: CapturesStep }) {
  const id = useId();
  if (step.step === 'none') return null;
  if (step.step === 'reading') return <p className="mt-4 text-sm text-muted">{c.reading}</p>;
  if (step.step === 'hashing') return <p className="mt-4 text-sm text-muted">{c.hashingFiles}</p>;
  if (step.step === 'failed')
    return (
      <p className="mt-4 rounded-lg border border-warning/40 bg-warning/10 px-4 py-3 text-sm font-medium text-warning">
        {step.message}
      </p>
    );
  return (
    <section aria-labelledby={id} className="mt-6">
      <h2 id={id} className="text-base font-semibold text-text">
        {c.capturesTitle(step.checks.length)}
      </h2>
      {step.step === 'checking' && <p className="mt-1 text-sm text-muted">{c.checking}</p>}
      <ol className="mt-3 flex flex-col gap-3">
        {step.checks.map((check, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: the list only grows, in the ZIP's order
          <CaptureCheckCard key={index} check={check} />
        ))}
      </ol>
    </section>
  );
}

function CaptureCheckCard({ check }: { check: CaptureCheck }) {
  const { capture, outcome } = check;
  const answer = outcome.kind === 'answer' ? outcome.answer : null;
  const kind = answer?.kind ?? capture.kind;
  const name = kind === 'removal' ? c.removal(capture.sequence) : c.capture(capture.sequence);
  const requested = answer?.requested_url ?? capture.requestedUrl;
  const valid = answer?.valid === true;
  return (
    <li className="rounded-xl border border-line bg-surface/60 px-4 py-3">
      <div className="flex flex-wrap items-baseline justify-between gap-x-3 gap-y-1">
        <h3 className="font-semibold text-text">{name}</h3>
        {capture.folder && (
          <p className="min-w-0 font-mono text-xs break-all text-muted">
            <span className="sr-only">{c.folder}: </span>
            {capture.folder}
          </p>
        )}
      </div>
      {requested && (
        <p className="mt-0.5 text-xs text-muted">
          {c.requestedUrl}: <span className="font-mono break-all text-text/90">{requested}</span>
        </p>
      )}
      {answer?.captured_at && (
        <p className="mt-0.5 text-xs text-muted">
          {c.capturedAt}: <span className="text-text/90">{formatDateTime(answer.captured_at, true)}</span>
        </p>
      )}
      {outcome.kind === 'problem' ? (
        <p className="mt-2 text-sm font-medium text-warning">{outcome.message}</p>
      ) : (
        answer && (
          <>
            <p
              className={`mt-2 rounded-lg border px-3 py-2 text-sm font-medium ${
                valid
                  ? 'border-success/30 bg-success/10 text-success'
                  : 'border-danger/40 bg-danger/10 text-danger'
              }`}
            >
              {valid
                ? kind === 'removal'
                  ? c.removalValid
                  : c.valid
                : answer.signature_valid
                  ? c.invalidFiles
                  : c.invalidSignature}
            </p>
            <ul className="mt-2 flex flex-col gap-0.5 text-sm">
              <li className={answer.signature_valid ? 'text-success' : 'text-danger'}>
                <span aria-hidden="true">{answer.signature_valid ? '✓ ' : '✗ '}</span>
                <span>{answer.signature_valid ? c.signatureValid : c.signatureInvalid}</span>
              </li>
              <li className={answer.recorded ? 'text-success' : 'text-warning'}>
                <span aria-hidden="true">{answer.recorded ? '✓ ' : '✗ '}</span>
                <span>{answer.recorded ? c.recorded : c.notRecorded}</span>
              </li>
            </ul>
            {answer.files.length > 0 && (
              <table className="mt-2 w-full table-fixed text-left text-xs">
                <caption className="sr-only">{c.filesLabel(name)}</caption>
                <thead>
                  <tr className="text-muted">
                    <th scope="col" className="w-1/2 py-1 font-medium">
                      {c.fileName}
                    </th>
                    <th scope="col" className="py-1 font-medium">
                      {c.fileStatus}
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {answer.files.map((file) => (
                    <tr key={file.name} className="border-t border-line/60">
                      <td className="py-1 pr-2 font-mono break-all text-text/90">{file.name}</td>
                      <td className={`py-1 font-semibold ${fileTone[file.status]}`}>
                        {c.fileStatuses[file.status]}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
            {answer.removed && (
              <p className="mt-2 text-sm break-words text-warning">
                {c.removed(formatDateTime(answer.removed.at, true), answer.removed.reason)}
              </p>
            )}
          </>
        )
      )}
    </li>
  );
}
