import { forgotPasswordRequest, messages, TOAST_AUTO_CLOSE_MS } from '@footprint/domain';
import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router';
import { toast } from 'react-toastify';
import { Spinner } from '../../../components/Spinner.tsx';
import { paths } from '../../../config/paths.ts';
import { applyServerErrors, hasStatus, serverMessage } from '../../../lib/field-errors.ts';
import { useForgotPassword } from '../api/forgotPassword.ts';
import { AuthCard } from '../components/AuthCard.tsx';
import { TextField } from '../components/Field.tsx';

/** /forgot-password (spec §2.2, §8): asks for a reset link by e-mail. */
export default function ForgotPasswordPage() {
  const forgot = useForgotPassword();
  const [sentStatus, setSentStatus] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm({
    resolver: zodResolver(forgotPasswordRequest),
    defaultValues: { email: '' },
  });

  const onSubmit = handleSubmit(async (values) => {
    setSentStatus(null);
    try {
      const answer = await forgot.mutateAsync(values);
      toast.success(messages.forgot.success, { autoClose: TOAST_AUTO_CLOSE_MS });
      setSentStatus(answer?.status || messages.forgot.status);
    } catch (error) {
      if (hasStatus(error, 422)) {
        applyServerErrors(error, setError, ['email']);
        return;
      }
      toast.error(serverMessage(error, messages.errors.generic));
    }
  });

  return (
    <AuthCard
      title={messages.authPages.forgot.title}
      subtitle={messages.authPages.forgot.subtitle}
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
          autoComplete="email"
          inputMode="email"
          placeholder={messages.authPages.emailPlaceholder}
          registration={register('email')}
          error={errors.email?.message}
        />
        <button type="submit" className="btn-primary w-full py-2.5" disabled={isSubmitting}>
          {isSubmitting && <Spinner size="sm" decorative />}
          {isSubmitting ? messages.forgot.submitting : messages.forgot.submit}
        </button>
      </form>
      <div aria-live="polite">
        {sentStatus && (
          <p className="mt-5 rounded-lg border border-success/30 bg-success/10 px-4 py-3 text-sm text-success">
            {sentStatus}
          </p>
        )}
      </div>
    </AuthCard>
  );
}
