import { type ErrorBody, messages } from '@footprint/domain';

/**
 * A refused OTP resend (spec §8: 'Failed to resend OTP.'). Asked again inside the server's cooldown, the
 * server answers 429 with its own message and `retry_after`, the seconds still to wait: the page says
 * that message and holds the resend button with a countdown until the wait is over.
 */

/** An error body as a 429 sends it: the seconds to wait beside the message. */
export type RetryAfterBody = ErrorBody & { retry_after?: unknown };

/** What a refused resend says, and how long the resend button then waits. */
export interface ResendRefusal {
  message: string;
  /** Whole seconds until a new code may be asked for; 0 when the server named no wait. */
  waitSeconds: number;
}

/** Whole seconds as mm:ss. */
export const formatRemaining = (seconds: number): string =>
  `${String(Math.floor(seconds / 60)).padStart(2, '0')}:${String(seconds % 60).padStart(2, '0')}`;

/** The wait a 429 names in `retry_after`, in whole seconds rounded up; 0 when it names none. */
export function retryAfterOf(body: RetryAfterBody): number {
  const value = body.retry_after;
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? Math.ceil(value) : 0;
}

/**
 * The refusal of a resend answered with `status` (0: no answer) and `body`: a 429 says the server's
 * message (or the cooldown text for its wait) and waits `retry_after`; anything else is the spec's
 * 'Failed to resend OTP.' without a wait.
 */
export function resendRefusalOf(status: number, body: RetryAfterBody): ResendRefusal {
  if (status !== 429) return { message: messages.otp.resendFailed, waitSeconds: 0 };
  const waitSeconds = retryAfterOf(body);
  const fallback = waitSeconds > 0 ? messages.otp.cooldown(waitSeconds) : messages.otp.resendFailed;
  return { message: body.message?.trim() || fallback, waitSeconds };
}

/** The resend button's text: with the time left while a wait runs, e.g. 'Resend OTP (00:42)'. */
export const resendLabel = (secondsLeft: number): string =>
  secondsLeft > 0 ? messages.otp.resendIn(formatRemaining(secondsLeft)) : messages.otp.resend;
