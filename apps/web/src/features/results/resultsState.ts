import type { EmailLookupResponse, PhoneLookupResponse, UsernameLookupResponse } from '@footprint/domain';
import { isRecord } from '@footprint/domain';
import type { Searcher } from '../../components/ReadAsSupervisorNote.tsx';

export type { Searcher };

/**
 * What the dashboard hands to /results through navigation state (spec §2.3: results, type and
 * userInput). The feature's index.ts exports it; the search and history features import it from there.
 * The whole answer travels (not only `data`) so the page keeps `sandbox`, `cached` and
 * `lookup_id`; the case reference of the search (and the legal basis it stated, if any) travels beside it so
 * that the detail lookups made from the page carry it too. A reopened search of someone else's (a supervisor reading the
 * work of their units) carries `searchedBy`: the page says whose it is and offers only what the
 * server allows on another's lookup (its exports; not its reports, nor 'Add to case').
 */
export type ResultsState =
  | {
      type: 'tel';
      userInput: string;
      dialCode: string;
      results: PhoneLookupResponse;
      caseReference?: string;
      legalBasis?: SearchLegalBasis;
      searchedBy?: Searcher;
    }
  | {
      type: 'email';
      userInput: string;
      results: EmailLookupResponse;
      caseReference?: string;
      legalBasis?: SearchLegalBasis;
      searchedBy?: Searcher;
    }
  | {
      /** A username lookup: `userInput` is the name as searched (no leading '@'). */
      type: 'username';
      userInput: string;
      results: UsernameLookupResponse;
      caseReference?: string;
      legalBasis?: SearchLegalBasis;
      searchedBy?: Searcher;
    };

/** The legal basis the search stated itself, as it sent it (`legal_basis`): its detail lookups send it too. */
export type SearchLegalBasis = Record<string, unknown>;

/** Who ran the search, when it was someone else (kept only when both name and e-mail are strings). */
const searcherOf = (value: unknown): { searchedBy?: Searcher } =>
  isRecord(value) && typeof value.name === 'string' && typeof value.email === 'string'
    ? { searchedBy: { name: value.name, email: value.email } }
    : {};

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
  const legalBasis =
    isRecord(state.legalBasis) && typeof state.legalBasis.kind === 'string'
      ? { legalBasis: state.legalBasis }
      : {};
  if (state.type === 'tel') {
    return {
      type: 'tel',
      userInput: state.userInput,
      dialCode: typeof state.dialCode === 'string' ? state.dialCode : '',
      results: state.results as unknown as PhoneLookupResponse,
      caseReference,
      ...legalBasis,
      ...searcherOf(state.searchedBy),
    };
  }
  if (state.type === 'email' && isRecord(state.results.data)) {
    return {
      type: 'email',
      userInput: state.userInput,
      results: state.results as unknown as EmailLookupResponse,
      caseReference,
      ...legalBasis,
      ...searcherOf(state.searchedBy),
    };
  }
  if (state.type === 'username') {
    return {
      type: 'username',
      userInput: state.userInput.replace(/^@/, ''),
      results: {
        ...state.results,
        errors: isRecord(state.results.errors) ? state.results.errors : {},
      } as unknown as UsernameLookupResponse,
      caseReference,
      ...legalBasis,
      ...searcherOf(state.searchedBy),
    };
  }
  return null;
}
