import type { IntelArea } from '@footprint/domain';
import { isRecord } from '@footprint/domain';

/**
 * What /corporate and /verification-id hand to their results page through navigation state (spec §4:
 * "data and the search input"). `data` is null after a 422 (no record): the page then shows its empty
 * view.
 */
export interface IntelResultsState {
  area: IntelArea;
  /** The search type sent (e.g. corporate_gstin, pan). */
  type: string;
  /** The request data as sent. */
  input: Record<string, string | boolean>;
  data: unknown;
  /** Some value shown is synthetic (the answer's source answered from the sandbox): the banner shows. */
  sandbox: boolean;
  /** The search's lookup id ('Add to case'). */
  lookupId?: string;
}

/**
 * Reads history state defensively: it survives reloads and may come from an older build or another page,
 * so anything not shaped like this area's state counts as "no state" (the empty view).
 */
export function readIntelResultsState(area: IntelArea, state: unknown): IntelResultsState | null {
  if (!isRecord(state) || state.area !== area || typeof state.type !== 'string') return null;
  const input: Record<string, string | boolean> = {};
  if (isRecord(state.input)) {
    for (const [key, value] of Object.entries(state.input)) {
      if (typeof value === 'string' || typeof value === 'boolean') input[key] = value;
    }
  }
  return {
    area,
    type: state.type,
    input,
    data: state.data ?? null,
    sandbox: state.sandbox === true,
    ...(typeof state.lookupId === 'string' ? { lookupId: state.lookupId } : {}),
  };
}

/** A refusal's message placed on the form: under a field of it, or above the button when about none. */
export interface IntelFieldError {
  field?: string;
  message: string;
}

/**
 * Where the server's per-field messages of a refused search go (400 `errors`: `data.id_number`,
 * `type`, …): the first one about a field the form shows goes under that field; otherwise the first
 * message stands above the button. Null when the refusal names no field.
 */
export function intelFieldErrorOf(
  formFields: readonly string[],
  errors: Record<string, string>,
): IntelFieldError | null {
  const entries = Object.entries(errors);
  const onForm = entries.find(([key]) => formFields.includes(key.replace(/^data\./, '')));
  if (onForm) return { field: onForm[0].replace(/^data\./, ''), message: onForm[1] };
  const [first] = entries;
  return first ? { message: first[1] } : null;
}
