import type { CaseSummary } from '@footprint/domain';
import type { UseQueryResult } from '@tanstack/react-query';
import type { RefObject } from 'react';
import { Link } from 'react-router';
import { paths } from '../config/paths.ts';
import { Spinner } from './Spinner.tsx';

/**
 * The choice of one of the caller's open cases in a dialog (add a search to a case, capture a page
 * into one): a spinner while they load, a way to open one when there is none, else a labelled select
 * with the dialog's error under it.
 */
export function OpenCasePicker({
  id,
  cases,
  value,
  onChange,
  error,
  labels,
  pickerRef,
}: {
  id: string;
  cases: Pick<UseQueryResult<CaseSummary[]>, 'isPending' | 'data'>;
  value: string;
  onChange: (caseId: string) => void;
  error: string | null;
  labels: { pick: string; none: string; open: string };
  pickerRef?: RefObject<HTMLSelectElement | null>;
}) {
  const list = cases.data ?? [];
  if (cases.isPending) return <Spinner size="md" />;
  if (list.length === 0)
    return (
      <p className="text-sm text-text">
        {labels.none}{' '}
        <Link to={paths.cases} className="link-inline">
          {labels.open}
        </Link>
      </p>
    );
  return (
    <div>
      <label htmlFor={`${id}-case`} className="label">
        {labels.pick}
      </label>
      <select
        ref={pickerRef}
        id={`${id}-case`}
        className="input mt-1"
        value={value}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        onChange={(event) => onChange(event.target.value)}
      >
        {list.map((item) => (
          <option key={item.id} value={item.id}>
            {item.reference} · {item.title}
          </option>
        ))}
      </select>
      {error && (
        <p id={`${id}-error`} role="alert" className="field-error">
          {error}
        </p>
      )}
    </div>
  );
}
