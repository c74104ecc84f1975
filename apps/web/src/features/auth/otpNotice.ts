import { toast } from 'react-toastify';

/**
 * The toasts that say a code was e-mailed (at sign-in, and after "Resend OTP") carry ids, so that the
 * accepted code takes them away: they must not stay over the dashboard the user lands on.
 */
export const OTP_SENT_ID = 'otp-sent';
export const OTP_RESENT_ID = 'otp-resent';

export function dismissOtpNotices(): void {
  toast.dismiss(OTP_SENT_ID);
  toast.dismiss(OTP_RESENT_ID);
}
