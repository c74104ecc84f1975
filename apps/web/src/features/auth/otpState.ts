/** What /login hands to /otp-verification through navigation state (spec §2.2). */
export interface OtpPageState {
  email: string;
  /** ISO time at which the e-mailed code stops working. */
  otp_expires_at: string;
}

/** The navigation state if it has the expected shape, else null (e.g. the page was opened directly). */
export function readOtpState(state: unknown): OtpPageState | null {
  if (state === null || typeof state !== 'object') return null;
  const { email, otp_expires_at } = state as Partial<Record<keyof OtpPageState, unknown>>;
  if (typeof email !== 'string' || email === '') return null;
  return { email, otp_expires_at: typeof otp_expires_at === 'string' ? otp_expires_at : '' };
}
