import type { EmailLookupResponse, PhoneLookupResponse } from '@footprint/domain';
import { isRecord } from '@footprint/domain';

/**
 * What the dashboard hands to /results through navigation state (spec §2.3: results, type and
 * userInput). The feature's index.ts exports it; the search and history features import it from there.
 * The whole answer travels (not only `data`) so the page keeps `sandbox`, `cached` and
 * `lookup_id`; the case reference of the search travels beside it so that the detail lookups
 * made from the page carry it too.
 */
export type ResultsState =
  | { type: 'tel'; userInput: string; dialCode: string; results: PhoneLookupResponse; caseReference?: string }
  | { type: 'email'; userInput: string; results: EmailLookupResponse; caseReference?: string };

/**
 * Reads history state defensively: it survives reloads and may come from an older build or another
 * page, so anything not shaped like a results state counts as "no state" (the no-results view).
 */
export function readResultsState(state: unknown): ResultsState | null {
  if (!isRecord(state) || typeof state.userInput !== 'string' || !isRecord(state.results)) return null;
  const caseReference =
    typeof state.caseReference === 'string' && state.caseReference.trim()
      ? state.caseReference.trim()
      : undefined;
  if (state.type === 'tel') {
    return {
      type: 'tel',
      userInput: state.userInput,
      dialCode: typeof state.dialCode === 'string' ? state.dialCode : '',
      results: state.results as unknown as PhoneLookupResponse,
      caseReference,
    };
  }
  if (state.type === 'email' && isRecord(state.results.data)) {
    return {
      type: 'email',
      userInput: state.userInput,
      results: state.results as unknown as EmailLookupResponse,
      caseReference,
    };
  }
  return null;
}
