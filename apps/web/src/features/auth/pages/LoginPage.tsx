import { loginRequest, messages } from '@footprint/domain';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { Link, useNavigate } from 'react-router';
import { toast } from 'react-toastify';
import { Spinner } from '../../../components/Spinner.tsx';
import { paths } from '../../../config/paths.ts';
import { isApiError } from '../../../lib/api.ts';
import { useAuth } from '../../../lib/auth-context.ts';
import { applyServerErrors } from '../../../lib/field-errors.ts';
import { otpChallenge, useLogin } from '../api/login.ts';
import { AuthCard } from '../components/AuthCard.tsx';
import { PasswordField, TextField } from '../components/Field.tsx';
import type { OtpPageState } from '../otpState.ts';

/**
 * /login (spec §2.2, §4, §8). The spec also mentions a third-party identity-provider sign-in script
 * configured with a client id but not how it is used, so no such button is offered here.
 */
export default function LoginPage() {
  const navigate = useNavigate();
  const auth = useAuth();
  const loginMutation = useLogin();
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
    try {
      const session = await loginMutation.mutateAsync(values);
      await auth.login(session);
      await navigate(paths.dashboard, { replace: true });
    } catch (error) {
      const challenge = otpChallenge(error);
      if (challenge) {
        // A device this account has not trusted yet: confirm it with the e-mailed code first.
        toast.warning(challenge.message || messages.login.otpSent);
        const state: OtpPageState = { email: challenge.email, otp_expires_at: challenge.otp_expires_at };
        await navigate(paths.otp, { state });
        return;
      }
      if (isApiError(error) && error.status === 422) {
        applyServerErrors(error, setError, ['email', 'password']);
        toast.error(messages.login.failed);
        return;
      }
      // Rate limits and disabled accounts explain themselves; anything else is a failed login.
      if (isApiError(error) && (error.status === 429 || error.status === 403) && error.body.message) {
        toast.error(error.body.message);
        return;
      }
      toast.error(messages.login.failed);
    }
  });

  return (
    <AuthCard
      title={messages.authPages.login.title}
      subtitle={messages.authPages.login.subtitle}
      footer={
        <Link
          to={paths.register}
          className="font-medium text-accent hover:text-accent-strong hover:underline"
        >
          {messages.login.signUpLink}
        </Link>
      }
    >
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
