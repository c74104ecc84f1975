import { Spinner } from './Spinner.tsx';

/** A list that failed to load: what happened and a way to ask again. */
export function LoadError({
  message,
  retryLabel,
  onRetry,
  retrying = false,
}: {
  message: string;
  retryLabel: string;
  onRetry: () => void;
  retrying?: boolean;
}) {
  return (
    <div role="alert" className="card flex flex-col items-center gap-3 px-4 py-10 text-center">
      <p className="text-sm text-text">{message}</p>
      <button type="button" className="btn-ghost" onClick={onRetry} disabled={retrying}>
        {retrying && <Spinner size="sm" decorative />}
        {retryLabel}
      </button>
    </div>
  );
}

/** The first load of a list. */
export function LoadingBlock() {
  return (
    <div className="grid min-h-40 place-items-center">
      <Spinner size="md" />
    </div>
  );
}

export default LoadError;
