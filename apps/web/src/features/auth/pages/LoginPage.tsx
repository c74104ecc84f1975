import { type BlockedAccountStatus, loginRequest, messages } from '@footprint/domain';
import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useLocation, useNavigate } from 'react-router';
import { toast } from 'react-toastify';
import { Spinner } from '../../../components/Spinner.tsx';
import { paths } from '../../../config/paths.ts';
import { useAuth } from '../../../lib/auth-context.ts';
import { applyServerErrors, hasStatus, refusalBody, serverMessage } from '../../../lib/field-errors.ts';
import { otpChallenge, useLogin } from '../api/login.ts';
import { useRegistrationStatus } from '../api/registrationStatus.ts';
import { secondFactorChallenge } from '../api/secondFactor.ts';
import { AuthCard } from '../components/AuthCard.tsx';
import { PasswordField, TextField } from '../components/Field.tsx';
import { OTP_SENT_ID } from '../otpNotice.ts';
import type { OtpPageState } from '../otpState.ts';
import type { SecondFactorPageState } from './SecondFactorPage.tsx';

/** What /register hands to /login: the new account waits for an administrator's approval. */
export interface LoginPageState {
  notice?: 'pending';
  /** The address the approval e-mail goes to. */
  email?: string;
}

const BLOCKED: readonly string[] = ['pending', 'rejected', 'disabled'] satisfies BlockedAccountStatus[];

/** A sign-in refused for the account's state (only after the right password): its status and message. */
function blockedAccount(error: unknown): { status: BlockedAccountStatus; message: string } | null {
  const body = refusalBody(error, 403) as { account_status?: unknown; message?: string } | null;
  const status = body?.account_status;
  if (typeof status !== 'string' || !BLOCKED.includes(status) || !body?.message) return null;
  return { status: status as BlockedAccountStatus, message: body.message };
}

function Notice({
  tone,
  role,
  children,
}: {
  tone: 'info' | 'warning' | 'danger';
  role: 'status' | 'alert';
  children: string;
}) {
  const tones = {
    info: 'border-accent/40 bg-accent/10',
    warning: 'border-warning/50 bg-warning/10',
    danger: 'border-danger/50 bg-danger/10',
  } as const;
  return (
    <div
      role={role}
      className={`mb-5 rounded-lg border px-4 py-3 text-sm leading-relaxed text-text ${tones[tone]}`}
    >
      {children}
    </div>
  );
}

/**
 * /login (spec §2.2, §4, §8). The spec also mentions a third-party identity-provider sign-in script
 * configured with a client id but not how it is used, so no such button is offered here.
 */
export default function LoginPage() {
  const navigate = useNavigate();
  const location = useLocation();
  const auth = useAuth();
  const loginMutation = useLogin();
  const registration = useRegistrationStatus();
  const [blocked, setBlocked] = useState<{ status: BlockedAccountStatus; message: string } | null>(null);
  const arrival = location.state as LoginPageState | null;
  const justRegistered = arrival?.notice === 'pending';
  // The link shows unless the server says registration is closed (a failed check keeps the spec's link).
  const signUpOpen = registration.data?.registration_enabled !== false;
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm({
    resolver: zodResolver(loginRequest),
    defaultValues: { email: '', password: '' },
  });

  const onSubmit = handleSubmit(async (values) => {
    setBlocked(null);
    try {
      const session = await loginMutation.mutateAsync(values);
      await auth.login(session);
      await navigate(paths.dashboard, { replace: true });
    } catch (error) {
      const second = secondFactorChallenge(error);
      if (second) {
        // The account has a second factor: the app's code, a recovery code or a passkey, next.
        const state: SecondFactorPageState = {
          email: second.email,
          token: second.second_factor_token,
          methods: second.methods,
        };
        await navigate(paths.secondFactor, { state });
        return;
      }
      const challenge = otpChallenge(error);
      if (challenge) {
        // A device this account has not trusted yet: confirm it with the e-mailed code first.
        toast.warning(challenge.message || messages.login.otpSent, { toastId: OTP_SENT_ID });
        const state: OtpPageState = { email: challenge.email, otp_expires_at: challenge.otp_expires_at };
        await navigate(paths.otp, { state });
        return;
      }
      if (hasStatus(error, 422)) {
        applyServerErrors(error, setError, ['email', 'password']);
        toast.error(messages.login.failed);
        return;
      }
      // An account waiting for approval, rejected or disabled: said on the card, where it stays.
      const refused = blockedAccount(error);
      if (refused) {
        setBlocked(refused);
        return;
      }
      // Rate limits explain themselves; anything else is a failed login.
      toast.error(
        hasStatus(error, 429, 403) ? serverMessage(error, messages.login.failed) : messages.login.failed,
      );
    }
  });

  return (
    <AuthCard
      title={messages.authPages.login.title}
      subtitle={messages.authPages.login.subtitle}
      footer={
        signUpOpen ? (
          <Link
            to={paths.register}
            className="font-medium text-accent hover:text-accent-strong hover:underline"
          >
            {messages.login.signUpLink}
          </Link>
        ) : undefined
      }
    >
      {blocked ? (
        <Notice tone={blocked.status === 'pending' ? 'warning' : 'danger'} role="alert">
          {blocked.message}
        </Notice>
      ) : (
        justRegistered && (
          <Notice tone="info" role="status">
            {arrival?.email ? messages.register.pendingNext(arrival.email) : messages.register.pendingNotice}
          </Notice>
        )
      )}
      <form noValidate onSubmit={onSubmit} className="space-y-5" aria-busy={isSubmitting}>
        <TextField
          label={messages.authPages.email}
          type="email"
          required
          autoComplete="username"
          inputMode="email"
          placeholder={messages.authPages.emailPlaceholder}
          registration={register('email')}
          error={errors.email?.message}
        />
        <div>
          <PasswordField
            label={messages.authPages.password}
            required
            autoComplete="current-password"
            registration={register('password')}
            error={errors.password?.message}
          />
          <div className="mt-2 text-right">
            <Link to={paths.forgotPassword} className="text-sm text-muted hover:text-accent hover:underline">
              {messages.authPages.login.forgotLink}
            </Link>
          </div>
        </div>
        <button type="submit" className="btn-primary w-full py-2.5" disabled={isSubmitting}>
          {isSubmitting && <Spinner size="sm" decorative />}
          {isSubmitting ? messages.authPages.login.submitting : messages.authPages.login.submit}
        </button>
      </form>
    </AuthCard>
  );
}
