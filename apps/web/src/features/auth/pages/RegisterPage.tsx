import { messages, registerRequest } from '@footprint/domain';
import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useNavigate } from 'react-router';
import { toast } from 'react-toastify';
import { Spinner } from '../../../components/Spinner.tsx';
import { paths } from '../../../config/paths.ts';
import { applyServerErrors, hasStatus, serverMessage } from '../../../lib/field-errors.ts';
import { useRegister } from '../api/register.ts';
import { useRegistrationStatus } from '../api/registrationStatus.ts';
import { AuthCard } from '../components/AuthCard.tsx';
import { PasswordField, TextField } from '../components/Field.tsx';
import { PasswordStrength } from '../components/PasswordStrength.tsx';
import type { LoginPageState } from './LoginPage.tsx';

/** Spec §2.2: what /register shows when accounts cannot be created (the registration mode `closed`). */
function RegistrationDisabled() {
  return (
    <div className="flex flex-1 items-center justify-center px-4 py-16 sm:px-6">
      <section className="card w-full max-w-md p-8 text-center shadow-2xl shadow-black/40">
        <p aria-hidden="true" className="text-6xl font-black tracking-tight text-accent/80">
          403
        </p>
        <h1 className="mt-3 text-2xl font-bold text-text">{messages.register.forbidden}</h1>
        <p className="mt-2 text-muted">{messages.register.disabled}</p>
        <p className="mt-1 text-sm text-muted">{messages.register.closedHint}</p>
        <Link to={paths.home} className="btn-primary mt-8">
          {messages.register.goBackHome}
        </Link>
      </section>
    </div>
  );
}

function RegisterForm({ onDisabled }: { onDisabled: () => void }) {
  const navigate = useNavigate();
  const registerMutation = useRegister();
  const {
    register,
    handleSubmit,
    setError,
    watch,
    formState: { errors, isSubmitting },
  } = useForm({
    resolver: zodResolver(registerRequest),
    defaultValues: { name: '', email: '', password: '', password_confirmation: '' },
  });

  const onSubmit = handleSubmit(async (values) => {
    try {
      const created = await registerMutation.mutateAsync(values);
      toast.success(messages.register.success);
      // Waiting for an administrator: /login says so until the user tries to sign in.
      const state: LoginPageState | undefined = created.approval_required ? { notice: 'pending' } : undefined;
      await navigate(paths.login, { state });
    } catch (error) {
      if (hasStatus(error, 403)) {
        // Switched off since the page loaded.
        onDisabled();
        return;
      }
      if (hasStatus(error, 422)) {
        applyServerErrors(error, setError, ['name', 'email', 'password', 'password_confirmation']);
      }
      toast.error(
        hasStatus(error, 429) ? serverMessage(error, messages.register.failed) : messages.register.failed,
      );
    }
  });

  return (
    <AuthCard
      title={messages.authPages.register.title}
      subtitle={messages.authPages.register.subtitle}
      footer={
        <>
          {messages.authPages.register.haveAccount}{' '}
          <Link to={paths.login} className="font-medium text-accent hover:text-accent-strong hover:underline">
            {messages.authPages.register.loginLink}
          </Link>
        </>
      }
    >
      <form noValidate onSubmit={onSubmit} className="space-y-5" aria-busy={isSubmitting}>
        <TextField
          label={messages.authPages.name}
          required
          autoComplete="name"
          registration={register('name')}
          error={errors.name?.message}
        />
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
        <PasswordField
          label={messages.authPages.password}
          required
          autoComplete="new-password"
          registration={register('password')}
          error={errors.password?.message}
        />
        <PasswordStrength password={watch('password')} userInputs={[watch('name'), watch('email')]} />
        <PasswordField
          label={messages.authPages.confirmPassword}
          required
          autoComplete="new-password"
          registration={register('password_confirmation')}
          error={errors.password_confirmation?.message}
        />
        <button type="submit" className="btn-primary w-full py-2.5" disabled={isSubmitting}>
          {isSubmitting && <Spinner size="sm" decorative />}
          {isSubmitting ? messages.authPages.register.submitting : messages.authPages.register.submit}
        </button>
      </form>
    </AuthCard>
  );
}

/**
 * /register (spec §2.2, §4): checks whether registration is open first. States are checking (spinner),
 * enabled (the form) and disabled (a 403 page); a failed check counts as disabled.
 */
export default function RegisterPage() {
  const status = useRegistrationStatus();
  const [disabledBySubmit, setDisabledBySubmit] = useState(false);

  if (status.isPending) {
    return (
      <div className="grid flex-1 place-items-center py-24">
        <Spinner size="lg" label={messages.authPages.register.checking} />
      </div>
    );
  }
  if (disabledBySubmit || status.isError || status.data.registration_enabled !== true) {
    return <RegistrationDisabled />;
  }
  return <RegisterForm onDisabled={() => setDisabledBySubmit(true)} />;
}
