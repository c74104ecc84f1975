import { messages } from '@footprint/domain';
import { describe, expect, it } from 'vitest';
import { creditReportFailureToast } from '../src/features/intel/credit-report-failure.ts';
import { decidePaidFailure } from '../src/lib/paid-answer.ts';

/** The toast for an answer of `status` with `body`, read the way the corporate form reads it. */
const toastFor = (status: number, body: Record<string, unknown>) =>
  creditReportFailureToast(decidePaidFailure(status, body));

describe('creditReportFailureToast', () => {
  it('says once that there is no credit history, with the balance, on the server’s 422', () => {
    const answer = {
      message: 'No record found for this search. No credits were charged.',
      credits: 95,
      lookup_id: 'a-lookup',
    };
    expect(toastFor(422, answer)).toEqual({
      level: 'warning',
      text: `${messages.creditReport.noHistory}${messages.intelPages.creditsRemaining(95)}`,
    });
    expect(toastFor(422, {})).toEqual({ level: 'warning', text: messages.creditReport.noHistory });
  });

  it('says a refused case reference in the server’s words, not as missing credit history', () => {
    const message = 'A case reference is required for every search.';
    const answer = { message, errors: { case_reference: [message] } };
    expect(toastFor(422, answer)).toEqual({ level: 'error', text: message });
  });

  it('warns of insufficient credits with the server’s message and the balance', () => {
    expect(toastFor(402, { message: 'Insufficient credits.', credits: 1 })).toEqual({
      level: 'warning',
      text: `Insufficient credits.${messages.intelPages.creditsRemaining(1)}`,
    });
  });

  it('says any other refusal in the server’s words, or the credit report’s own failure text', () => {
    const failed = {
      message: 'The source did not answer this search. Your credits were refunded.',
      credits: 3,
    };
    expect(toastFor(502, failed)).toEqual({
      level: 'error',
      text: `${failed.message}${messages.intelPages.creditsRemaining(3)}`,
    });
    expect(toastFor(500, {})).toEqual({ level: 'error', text: messages.creditReport.failed });
  });

  it('says the failure text without an answer, and nothing on a 401 (the session rule speaks)', () => {
    expect(toastFor(0, {})).toEqual({ level: 'error', text: messages.creditReport.failed });
    expect(toastFor(401, { message: 'Unauthenticated.' })).toBeNull();
  });
});
