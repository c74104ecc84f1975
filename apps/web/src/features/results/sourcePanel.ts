import {
  type EmailLookupResponse,
  type LookupKind,
  type PhoneLookupResponse,
  type SourcePanel,
  showsSyntheticData,
  sourcePanel,
  sourceStatusOf,
} from '@footprint/domain';

/**
 * The results page's source panel and sandbox banner, from the answer as the page holds it: the phone
 * answer carries its payloads and `errors` at the top, the e-mail answer under `data`. Answers stored
 * before `source_status` existed (reopened from history) get their statuses rebuilt from the payloads
 * and errors; an answer that tells nothing about its sources gets no panel.
 */

/** An answer's parts the panel reads, whatever its kind's shape. */
export interface AnswerParts {
  payloads: Record<string, unknown>;
  errors: unknown;
  status: unknown;
  sandbox: unknown;
}

/** The parts of a phone answer. */
export const phoneParts = (results: PhoneLookupResponse): AnswerParts => ({
  payloads: results as unknown as Record<string, unknown>,
  errors: results.errors,
  status: results.source_status,
  sandbox: results.sandbox,
});

/** The parts of an e-mail answer. */
export const emailParts = (response: EmailLookupResponse): AnswerParts => ({
  payloads: (response.data ?? {}) as unknown as Record<string, unknown>,
  errors: response.data?.errors,
  status: response.source_status,
  sandbox: response.sandbox,
});

/** The panel of a lookup's answer; `null` when it tells nothing about its sources. */
export function answerPanel(kind: LookupKind, parts: AnswerParts): SourcePanel | null {
  const statuses = sourceStatusOf(kind, {
    payloads: parts.payloads,
    errors: parts.errors,
    status: parts.status,
    sandbox: parts.sandbox === true,
  });
  const panel = sourcePanel(statuses);
  return panel.total > 0 ? panel : null;
}

/**
 * Whether the page shows the sandbox banner: some value shown is synthetic (a sandbox source answered
 * with a payload); for an old answer without statuses, its `sandbox` flag.
 */
export const showsSynthetic = (parts: Pick<AnswerParts, 'status' | 'sandbox'>): boolean =>
  showsSyntheticData(parts.status, parts.sandbox);
