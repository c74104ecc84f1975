import { type SourceErrors as Errors, messages } from '@footprint/domain';

/** Source keys of the answers (spec §3) in the words an investigator uses. */
const sourceNames = messages.profile.failedSources;

const nameOf = (key: string) => sourceNames[key] ?? key;

/**
 * Which sources failed, said quietly: one line naming them, the upstream messages one click away. A
 * failed source is not a finding about the person, but the investigator must know the picture is partial.
 */
export function SourceErrors({ errors }: { errors: Errors | null | undefined }) {
  const failed = Object.entries(errors ?? {}).filter(
    (entry): entry is [string, string] => typeof entry[1] === 'string' || entry[1] === null,
  );
  if (failed.length === 0) return null;
  return (
    <details className="group text-xs text-muted">
      <summary className="inline-flex cursor-pointer list-none items-center gap-1.5 rounded-md py-1 hover:text-text [&::-webkit-details-marker]:hidden">
        <svg
          viewBox="0 0 24 24"
          fill="none"
          stroke="currentColor"
          strokeWidth="2"
          strokeLinecap="round"
          strokeLinejoin="round"
          aria-hidden="true"
          focusable="false"
          className="size-3.5 text-warning"
        >
          <path d="M12 9v4M12 17h.01M10.3 3.9 1.8 18a2 2 0 0 0 1.7 3h17a2 2 0 0 0 1.7-3L13.7 3.9a2 2 0 0 0-3.4 0z" />
        </svg>
        <span>
          {messages.results.sourcesFailed} {failed.map(([key]) => nameOf(key)).join(', ')}
        </span>
        <svg
          viewBox="0 0 24 24"
          fill="none"
          stroke="currentColor"
          strokeWidth="2"
          aria-hidden="true"
          focusable="false"
          className="size-3.5 transition-transform group-open:rotate-180"
        >
          <path d="m6 9 6 6 6-6" />
        </svg>
      </summary>
      <ul className="mt-1 space-y-0.5 border-l border-line pl-3">
        {failed.map(([key, message]) => (
          <li key={key}>
            <span className="font-medium text-text/80">{nameOf(key)}:</span>{' '}
            {message || messages.profile.noAnswer}
          </li>
        ))}
      </ul>
    </details>
  );
}
