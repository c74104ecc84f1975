import {
  type EmailLookupResponse,
  type HistoryDetail,
  isRecord,
  type PhoneLookupResponse,
  type UsernameLookupResponse,
} from '@footprint/domain';
import { draftOf, legalBasisInputOf } from '../../lib/legal-basis-draft.ts';
import type { ResultsState } from '../results/index.ts';
import { baseKind } from './format.ts';

/**
 * A reopened phone, e-mail or username lookup goes back to /results, shaped as the search would have handed it
 * over. It is marked cached (it was not asked upstream again) and keeps its lookup id, so reports made
 * from the page find the stored lookup and its case reference. Its `source_status` comes along when it
 * was stored; the sandbox mark (of the entry or the answer) matters only to an answer stored without it.
 * Someone else's search (the server names its `user` only then: a supervisor reading their units'
 * work) goes with who ran it, so the page says so and leaves out what only they may do.
 */
export function resultsStateOf(detail: HistoryDetail): ResultsState | null {
  const result = detail.result;
  if (!isRecord(result)) return null;
  const meta = {
    lookup_id: typeof result.lookup_id === 'string' ? result.lookup_id : detail.id,
    cached: true,
    sandbox: detail.sandbox === true || result.sandbox === true,
  };
  const caseReference = detail.case_reference ?? undefined;
  // The basis the search stated itself goes with its detail lookups, as it was sent.
  const basis = detail.legal_basis ? legalBasisInputOf(draftOf(detail.legal_basis)) : null;
  const legalBasis = basis ? { legalBasis: basis } : {};
  const searcher = detail.user ? { searchedBy: { name: detail.user.name, email: detail.user.email } } : {};
  const kind = baseKind(detail.kind);
  if (kind === 'tel') {
    const digits = detail.query.replace(/\D/g, '');
    return {
      type: 'tel',
      userInput: digits.slice(-10),
      dialCode: digits.length > 10 ? digits.slice(0, -10) : '',
      results: { ...result, ...meta } as unknown as PhoneLookupResponse,
      caseReference,
      ...legalBasis,
      ...searcher,
    };
  }
  if (kind === 'email' && isRecord(result.data)) {
    return {
      type: 'email',
      userInput: detail.query,
      results: { ...result, data: result.data, ...meta } as unknown as EmailLookupResponse,
      caseReference,
      ...legalBasis,
      ...searcher,
    };
  }
  if (kind === 'username') {
    // Stored flat, like the phone answer; the name without the '@' people type before a handle.
    return {
      type: 'username',
      userInput: detail.query.replace(/^@/, ''),
      results: {
        ...result,
        errors: isRecord(result.errors) ? result.errors : {},
        ...meta,
      } as unknown as UsernameLookupResponse,
      caseReference,
      ...legalBasis,
      ...searcher,
    };
  }
  return null;
}
