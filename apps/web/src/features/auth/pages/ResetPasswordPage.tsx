import { messages, resetPasswordRequest, TOAST_AUTO_CLOSE_MS } from '@footprint/domain';
import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useParams, useSearchParams } from 'react-router';
import { toast } from 'react-toastify';
import { Logo } from '../../../components/Logo.tsx';
import { Spinner } from '../../../components/Spinner.tsx';
import { paths } from '../../../config/paths.ts';
import { applyServerErrors, hasStatus, serverMessage } from '../../../lib/field-errors.ts';
import { useResetPassword } from '../api/resetPassword.ts';
import { AuthCard } from '../components/AuthCard.tsx';
import { PasswordField, TextField } from '../components/Field.tsx';
import { PasswordStrength } from '../components/PasswordStrength.tsx';

/** After success (spec §2.2): the logo becomes the way back to /login. */
function ResetDone() {
  return (
    <div className="flex flex-1 items-center justify-center px-4 py-16 sm:px-6">
      <section className="card w-full max-w-md p-8 text-center shadow-2xl shadow-black/40">
        <Logo to={paths.login} size="lg" />
        <h1 className="mt-6 text-2xl font-bold text-text">{messages.reset.status}</h1>
        <p className="mt-2 text-sm text-muted">{messages.authPages.reset.doneBody}</p>
        <Link to={paths.login} className="btn-primary mt-8">
          {messages.authPages.backToLogin}
        </Link>
      </section>
    </div>
  );
}

/** /password-reset/:token?email= (spec §2.2, §5, §8). */
export default function ResetPasswordPage() {
  const { token = '' } = useParams();
  const [searchParams] = useSearchParams();
  const prefilledEmail = searchParams.get('email') ?? '';
  const reset = useResetPassword();
  const [done, setDone] = useState(false);
  const [formError, setFormError] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    setError,
    watch,
    formState: { errors, isSubmitting },
  } = useForm({
    resolver: zodResolver(resetPasswordRequest),
    defaultValues: { email: prefilledEmail, token, password: '', password_confirmation: '' },
  });

  const onSubmit = handleSubmit(async (values) => {
    setFormError(null);
    try {
      await reset.mutateAsync(values);
      toast.success(messages.reset.success, { autoClose: TOAST_AUTO_CLOSE_MS });
      setDone(true);
    } catch (error) {
      if (hasStatus(error, 422)) {
        const other = applyServerErrors(error, setError, ['email', 'password', 'password_confirmation']);
        if (other.length > 0) setFormError(other[0] ?? null);
        return;
      }
      toast.error(serverMessage(error, messages.errors.generic));
    }
  });

  if (done) return <ResetDone />;

  // The token travels in the URL and is never typed, so a problem with it is shown above the button.
  const tokenError = errors.token?.message ?? formError;

  return (
    <AuthCard
      title={messages.authPages.reset.title}
      subtitle={messages.authPages.reset.subtitle}
      footer={
        <Link to={paths.login} className="font-medium text-accent hover:text-accent-strong hover:underline">
          {messages.authPages.backToLogin}
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
          readOnly={prefilledEmail !== ''}
          registration={register('email')}
          error={errors.email?.message}
        />
        <PasswordField
          label={messages.authPages.newPassword}
          required
          autoComplete="new-password"
          registration={register('password')}
          error={errors.password?.message}
        />
        <PasswordStrength password={watch('password')} userInputs={[watch('email')]} />
        <PasswordField
          label={messages.authPages.confirmPassword}
          required
          autoComplete="new-password"
          registration={register('password_confirmation')}
          error={errors.password_confirmation?.message}
        />
        {tokenError && (
          <p
            role="alert"
            className="rounded-lg border border-danger/30 bg-danger/10 px-3 py-2 text-sm text-danger"
          >
            {tokenError}
          </p>
        )}
        <button type="submit" className="btn-primary w-full py-2.5" disabled={isSubmitting}>
          {isSubmitting && <Spinner size="sm" decorative />}
          {isSubmitting ? messages.authPages.reset.submitting : messages.authPages.reset.submit}
        </button>
      </form>
    </AuthCard>
  );
}
