// The error catalogue (src/errors.ts) and its one mapping to HTTP (http/errors.ts): every code has a
// status, and the answers are the ones the API gave before the codes left the HTTP layer.
import { messages } from '@footprint/domain';
import { describe, expect, it } from 'vitest';
import {
  accountBlocked,
  apiKeyCapReached,
  belowZero,
  closedCase,
  controlCharacters,
  DomainError,
  ERROR_CODES,
  type ErrorCode,
  illegalTransition,
  insufficientCredits,
  internalError,
  mediaRefused,
  noRecord,
  notPending,
  otpCooldown,
  reportsBusy,
  tooManyRequests,
  validationError,
} from '../../src/errors.ts';
import { answerOf, HTTP_STATUS, httpStatusOf } from '../../src/http/errors.ts';

describe('the edge table', () => {
  it('gives every code of the catalogue an error status, and names no other code', () => {
    expect(Object.keys(HTTP_STATUS).sort()).toEqual([...ERROR_CODES].sort());
    expect(new Set(ERROR_CODES).size).toBe(ERROR_CODES.length);
    for (const code of ERROR_CODES) {
      // One code is an answer, not an error: a sensitive search held for approval (202, modules/approvals).
      if (code === 'held_for_approval') {
        expect(HTTP_STATUS[code]).toBe(202);
        continue;
      }
      expect(HTTP_STATUS[code], code).toBeGreaterThanOrEqual(400);
      expect(HTTP_STATUS[code], code).toBeLessThan(600);
    }
  });

  it('answers a sample of refusals with the status, headers and body they always had', () => {
    const cases: Array<[DomainError, number, Record<string, string>, Record<string, unknown>]> = [
      [insufficientCredits(3), 402, {}, { message: 'Insufficient credits.', credits: 3 }],
      [
        apiKeyCapReached(100, 95, 40),
        402,
        {},
        {
          message:
            "This API key's monthly credit cap of 100 would be exceeded (95 spent this month). Nothing was charged.",
          credits: 40,
          monthly_credit_cap: 100,
          credits_this_month: 95,
        },
      ],
      [
        tooManyRequests(30),
        429,
        { 'retry-after': '30' },
        { message: 'Too many attempts. Please try again in 30 seconds.', retry_after: 30 },
      ],
      [
        otpCooldown(12),
        429,
        { 'retry-after': '12' },
        { message: messages.otp.cooldown(12), retry_after: 12 },
      ],
      [
        reportsBusy(1, { credits: 7, lookup_id: 'L1' }),
        503,
        { 'retry-after': '1' },
        {
          message: 'Reports are busy right now. Please try again in 1 second. Your credits were refunded.',
          retry_after: 1,
          credits: 7,
          lookup_id: 'L1',
        },
      ],
      [
        accountBlocked('pending'),
        403,
        {},
        {
          message:
            'Your account is waiting for approval by an administrator. You will get an e-mail when it is approved.',
          account_status: 'pending',
        },
      ],
      [
        validationError({ email: ['The e-mail is taken.'] }),
        422,
        {},
        { message: 'The e-mail is taken.', errors: { email: ['The e-mail is taken.'] } },
      ],
      [
        belowZero(15),
        422,
        {},
        {
          message:
            'This deduction would take the balance below zero (the balance is 15). Nothing was changed.',
          errors: {
            amount: [
              'This deduction would take the balance below zero (the balance is 15). Nothing was changed.',
            ],
          },
          credits: 15,
        },
      ],
      [
        noRecord(4, 'L2'),
        422,
        {},
        { message: 'No record found for this search. No credits were charged.', credits: 4, lookup_id: 'L2' },
      ],
      [
        closedCase('CASE-1'),
        409,
        {},
        {
          message: 'The case CASE-1 is closed: reopen it to search under it.',
          errors: { case_reference: ['The case CASE-1 is closed: reopen it to search under it.'] },
        },
      ],
      [
        notPending('active'),
        409,
        {},
        { message: 'This account is not waiting for approval (its status is active). Nothing was changed.' },
      ],
      [
        illegalTransition('paused', 'done'),
        409,
        {},
        { message: 'A done bulk lookup cannot be paused.', status: 'done' },
      ],
      [
        controlCharacters('name', 'The name field'),
        400,
        {},
        {
          message: 'The name field must not contain control characters.',
          errors: { name: ['The name field must not contain control characters.'] },
        },
      ],
      [
        mediaRefused('media_timeout', 'The image host did not answer in time.'),
        504,
        {},
        { message: 'The image host did not answer in time.' },
      ],
      [internalError(), 500, {}, { message: messages.errors.internal }],
    ];
    for (const [error, status, headers, body] of cases) {
      const answer = answerOf(error);
      expect(answer.status, error.code).toBe(status);
      expect(answer.headers, error.code).toEqual(headers);
      // Byte for byte: the same keys in the same order.
      expect(JSON.stringify(answer.body), error.code).toBe(JSON.stringify(body));
    }
  });
});

describe('a background caller', () => {
  it('tells a refusal by its code, with no HTTP status to read', () => {
    // What the bulk worker and the watchlist runner do with a search that cannot be paid for
    // (test/bulk and test/watchlists run it end to end).
    const outcome = (error: unknown): 'stop_for_credits' | 'failed' | 'crash' => {
      if (!(error instanceof DomainError)) return 'crash';
      return error.code === 'insufficient_credits' ? 'stop_for_credits' : 'failed';
    };
    const refusal = insufficientCredits(0);
    expect(outcome(refusal)).toBe('stop_for_credits');
    expect(outcome(reportsBusy(2))).toBe('failed');
    expect(outcome(new Error('boom'))).toBe('crash');
    expect(refusal).not.toHaveProperty('status');
    expect(refusal).not.toHaveProperty('headers');
    const code: ErrorCode = refusal.code;
    expect(httpStatusOf(code)).toBe(402);
  });
});
