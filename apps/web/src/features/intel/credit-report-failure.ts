import { messages } from '@footprint/domain';
import { type PaidFailure, type PaidFailureToast, saidElsewhere } from '../../lib/paid-answer.ts';

/**
 * The one toast of a credit report that failed on /corporate. The answer of a credit report is a PDF,
 * so unlike the other corporate searches a 422 opens no empty results page: the form stays as typed and
 * the failure is said once, with the balance when the server sent it (spec §8, corporate):
 *
 * - no answer: 'Error occurred. Please check your data and try again.';
 * - 401: nothing (the app-wide session rule speaks), nor for a search held for approval (its notice);
 * - 422, the bureau holds no credit history for these details (the charge was refunded): a warning
 *   that says so;
 * - 402: a warning with the server's message;
 * - anything else: the server's message, or the credit report's own failure text.
 */
export function creditReportFailureToast(failure: PaidFailure): PaidFailureToast | null {
  if (failure.kind === 'no-answer') return { level: 'error', text: messages.creditReport.failed };
  if (saidElsewhere(failure)) return null;
  const balance = failure.credits === undefined ? '' : messages.intelPages.creditsRemaining(failure.credits);
  if (failure.status === 422 && failure.kind !== 'case-reference') {
    return { level: 'warning', text: `${messages.creditReport.noHistory}${balance}` };
  }
  const text = `${failure.message ?? messages.creditReport.failed}${balance}`;
  return { level: failure.kind === 'insufficient' ? 'warning' : 'error', text };
}
