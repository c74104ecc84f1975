import { messages, OTP_LENGTH, OTP_PATTERN, OTP_TICK_MS } from '@footprint/domain';
import {
  type ClipboardEvent,
  type FormEvent,
  type KeyboardEvent,
  type ReactNode,
  useEffect,
  useRef,
  useState,
} from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { toast } from 'react-toastify';
import { Logo } from '../../../components/Logo.tsx';
import { Spinner } from '../../../components/Spinner.tsx';
import { paths } from '../../../config/paths.ts';
import { isApiError } from '../../../lib/api.ts';
import { useAuth } from '../../../lib/auth-context.ts';
import { fieldErrorsOf, serverMessage } from '../../../lib/field-errors.ts';
import { useResendOtp } from '../api/resendOtp.ts';
import { useVerifyOtp } from '../api/verifyOtp.ts';
import { formatRemaining, resendLabel, resendRefusalOf } from '../otp-resend.ts';
import { dismissOtpNotices, OTP_RESENT_ID } from '../otpNotice.ts';
import { type OtpPageState, readOtpState } from '../otpState.ts';

const emptyCode = (): string[] => Array.from({ length: OTP_LENGTH }, () => '');

const parseTime = (iso: string): number => {
  const at = Date.parse(iso);
  return Number.isNaN(at) ? 0 : at;
};

function Frame({ children }: { children: ReactNode }) {
  return (
    <section className="card w-full max-w-md p-6 text-center shadow-2xl shadow-black/40 sm:p-8">
      <div className="mb-6 flex justify-center">
        <Logo to={paths.home} size="lg" />
      </div>
      {children}
    </section>
  );
}

function MailIcon() {
  return (
    <span className="mx-auto mb-4 flex size-14 items-center justify-center rounded-full bg-accent-soft text-accent">
      <svg
        viewBox="0 0 24 24"
        fill="none"
        stroke="currentColor"
        strokeWidth="1.75"
        strokeLinecap="round"
        strokeLinejoin="round"
        aria-hidden="true"
        focusable="false"
        className="size-7"
      >
        <rect x="3" y="5" width="18" height="14" rx="2" />
        <path d="m3.5 6.5 8.5 6.5 8.5-6.5" />
      </svg>
    </span>
  );
}

function OtpForm({ email, initialExpiry }: { email: string; initialExpiry: string }) {
  const navigate = useNavigate();
  const location = useLocation();
  const auth = useAuth();
  const verify = useVerifyOtp();
  const resend = useResendOtp();
  const [digits, setDigits] = useState<string[]>(emptyCode);
  const [expiresAt, setExpiresAt] = useState(() => parseTime(initialExpiry));
  const [now, setNow] = useState(() => Date.now());
  const [error, setError] = useState<string | null>(null);
  /** When the server's resend cooldown ends (epoch ms); 0 while none runs. */
  const [resendAllowedAt, setResendAllowedAt] = useState(0);
  const inputs = useRef<(HTMLInputElement | null)[]>([]);

  // Spec §4: the countdown ticks every second.
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), OTP_TICK_MS);
    return () => window.clearInterval(timer);
  }, []);

  useEffect(() => {
    inputs.current[0]?.focus();
  }, []);

  const remaining = Math.max(0, Math.ceil((expiresAt - now) / 1000));
  const expired = remaining === 0;
  const resendWait = Math.max(0, Math.ceil((resendAllowedAt - now) / 1000));

  const focusBox = (index: number) => {
    const box = inputs.current[Math.min(Math.max(index, 0), OTP_LENGTH - 1)];
    box?.focus();
    box?.select();
  };

  /** Writes digits into consecutive boxes from `start` and moves focus after the last one written. */
  const fillFrom = (start: number, chars: string) => {
    const written = chars.slice(0, OTP_LENGTH - start);
    setDigits((current) => {
      const next = [...current];
      for (let i = 0; i < written.length; i += 1) next[start + i] = written[i] ?? '';
      return next;
    });
    setError(null);
    focusBox(start + written.length);
  };

  const onChange = (index: number, value: string) => {
    const only = value.replace(/\D/g, '');
    if (only === '') {
      // A deleted digit, or a non-digit that we ignore.
      setDigits((current) => current.map((digit, i) => (i === index ? '' : digit)));
      return;
    }
    // Several digits at once come from autofill (one-time-code) or fast typing: spread them out.
    if (only.length >= OTP_LENGTH) fillFrom(0, only.slice(0, OTP_LENGTH));
    else fillFrom(index, only.length > 1 ? only.slice(-1) : only);
  };

  const onKeyDown = (index: number, event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Backspace' && digits[index] === '' && index > 0) {
      event.preventDefault();
      setDigits((current) => current.map((digit, i) => (i === index - 1 ? '' : digit)));
      focusBox(index - 1);
    } else if (event.key === 'ArrowLeft' && index > 0) {
      event.preventDefault();
      focusBox(index - 1);
    } else if (event.key === 'ArrowRight' && index < OTP_LENGTH - 1) {
      event.preventDefault();
      focusBox(index + 1);
    }
  };

  const onPaste = (index: number, event: ClipboardEvent<HTMLInputElement>) => {
    event.preventDefault();
    const only = event.clipboardData.getData('text').replace(/\D/g, '');
    if (only === '') return;
    if (only.length >= OTP_LENGTH) fillFrom(0, only.slice(0, OTP_LENGTH));
    else fillFrom(index, only);
  };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const otp = digits.join('');
    if (!OTP_PATTERN.test(otp)) {
      setError(messages.otp.invalidValue);
      return;
    }
    setError(null);
    try {
      const session = await verify.mutateAsync({ email, otp });
      await auth.login(session);
      dismissOtpNotices();
      await navigate(paths.dashboard, { replace: true });
    } catch (failure) {
      setError(fieldErrorsOf(failure).otp ?? serverMessage(failure, messages.otp.verifyFailed));
    }
  };

  const onResend = async () => {
    try {
      const answer = await resend.mutateAsync({ email });
      setExpiresAt(parseTime(answer.otp_expires_at));
      setNow(Date.now());
      setDigits(emptyCode());
      setError(null);
      toast.success(answer.message || messages.otp.resendSuccess, { toastId: OTP_RESENT_ID });
      // Keep the new expiry in the history entry, so a reload still counts down from it.
      const state: OtpPageState = { email, otp_expires_at: answer.otp_expires_at };
      await navigate(location.pathname, { replace: true, state });
      focusBox(0);
    } catch (failure) {
      const refusal = isApiError(failure)
        ? resendRefusalOf(failure.status, failure.body)
        : resendRefusalOf(0, {});
      toast.error(refusal.message);
      if (refusal.waitSeconds > 0) {
        const at = Date.now();
        setNow(at);
        setResendAllowedAt(at + refusal.waitSeconds * 1000);
      }
    }
  };

  const verifying = verify.isPending;

  return (
    <Frame>
      <MailIcon />
      <h1 className="text-2xl font-bold tracking-tight text-text">{messages.otp.title}</h1>
      <p className="mt-2 text-sm break-words text-muted">{messages.otp.sentTo(email)}</p>

      <form noValidate onSubmit={onSubmit} className="mt-7" aria-busy={verifying}>
        <fieldset>
          <legend className="sr-only">{messages.authPages.otp.legend}</legend>
          <div className="flex justify-center gap-2">
            {digits.map((digit, index) => (
              <input
                // biome-ignore lint/suspicious/noArrayIndexKey: the boxes are positions, fixed in number and order
                key={index}
                ref={(element) => {
                  inputs.current[index] = element;
                }}
                type="text"
                inputMode="numeric"
                pattern="[0-9]*"
                autoComplete={index === 0 ? 'one-time-code' : 'off'}
                aria-label={messages.authPages.otp.digit(index + 1, OTP_LENGTH)}
                aria-invalid={error ? true : undefined}
                value={digit}
                onChange={(event) => onChange(index, event.target.value)}
                onKeyDown={(event) => onKeyDown(index, event)}
                onPaste={(event) => onPaste(index, event)}
                onFocus={(event) => event.target.select()}
                disabled={verifying}
                className={`otp-box ${error ? 'border-danger' : ''}`}
              />
            ))}
          </div>
        </fieldset>

        <button type="submit" className="btn-primary mt-7 w-full py-2.5" disabled={verifying}>
          {verifying && <Spinner size="sm" decorative />}
          {messages.otp.verify}
        </button>

        <div aria-live="assertive">
          {error && (
            <p role="alert" className="mt-4 text-sm font-medium text-danger">
              {error}
            </p>
          )}
        </div>
      </form>

      <div className="mt-6 flex min-h-10 flex-col items-center justify-center gap-2 text-sm">
        {expired ? (
          <button
            type="button"
            className="btn-ghost"
            onClick={() => void onResend()}
            disabled={resend.isPending || resendWait > 0}
          >
            {resend.isPending && <Spinner size="sm" decorative />}
            {resendLabel(resendWait)}
          </button>
        ) : (
          <p className="text-muted tabular-nums">{messages.otp.expiresIn(formatRemaining(remaining))}</p>
        )}
      </div>
    </Frame>
  );
}

/** /otp-verification (spec §2.2, §4, §5, §8): entered from /login with the e-mail and the code's expiry. */
export default function OtpPage() {
  const location = useLocation();
  const state = readOtpState(location.state);

  if (!state) {
    return (
      <Frame>
        <MailIcon />
        <h1 className="text-2xl font-bold tracking-tight text-text">{messages.otp.title}</h1>
        <p className="mt-3 text-sm text-muted">{messages.authPages.otp.noChallenge}</p>
        <Link to={paths.login} className="btn-primary mt-7">
          {messages.authPages.otp.goToLogin}
        </Link>
      </Frame>
    );
  }

  return <OtpForm email={state.email} initialExpiry={state.otp_expires_at} />;
}
