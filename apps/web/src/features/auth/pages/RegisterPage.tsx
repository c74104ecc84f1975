import { messages, registerRequestFor, SIGNUP_FIELDS, type SignupField } from '@footprint/domain';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMemo, useState } from 'react';
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

const fields = messages.signupFields;
/** What the browser may fill each profile field from (an ID number is never autofilled). */
const AUTOCOMPLETE: Record<SignupField, string> = {
  organisation: 'organization',
  designation: 'organization-title',
  identity_reference: 'off',
};

function RegisterForm({
  onDisabled,
  required,
}: {
  onDisabled: () => void;
  /** The profile fields the deployment requires (GET /api/registration-status). */
  required: readonly SignupField[];
}) {
  const navigate = useNavigate();
  const registerMutation = useRegister();
  // The server parses with the same schema and the same setting.
  const schema = useMemo(() => registerRequestFor(required), [required]);
  const {
    register,
    handleSubmit,
    setError,
    watch,
    formState: { errors, isSubmitting },
  } = useForm({
    resolver: zodResolver(schema),
    defaultValues: {
      name: '',
      email: '',
      organisation: '',
      designation: '',
      identity_reference: '',
      password: '',
      password_confirmation: '',
    },
  });

  const onSubmit = handleSubmit(async (values) => {
    try {
      const created = await registerMutation.mutateAsync(values);
      if (created.approval_required) {
        // Waiting for an administrator: one message, on /login, saying so and what happens next.
        const state: LoginPageState = { notice: 'pending', email: created.user.email };
        await navigate(paths.login, { state });
        return;
      }
      toast.success(messages.register.success);
      await navigate(paths.login);
    } catch (error) {
      if (hasStatus(error, 403)) {
        // Switched off since the page loaded.
        onDisabled();
        return;
      }
      if (hasStatus(error, 422)) {
        applyServerErrors(error, setError, [
          'name',
          'email',
          ...SIGNUP_FIELDS,
          'password',
          'password_confirmation',
        ]);
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
        <p className="text-xs text-muted">{fields.requiredLegend}</p>
        <TextField
          label={messages.authPages.name}
          required
          mark="required"
          autoComplete="name"
          registration={register('name')}
          error={errors.name?.message}
        />
        <TextField
          label={messages.authPages.email}
          type="email"
          required
          mark="required"
          autoComplete="email"
          inputMode="email"
          placeholder={messages.authPages.emailPlaceholder}
          registration={register('email')}
          error={errors.email?.message}
        />
        {SIGNUP_FIELDS.map((field) => {
          const isRequired = required.includes(field);
          return (
            <TextField
              key={field}
              label={fields.labels[field]}
              required={isRequired}
              mark={isRequired ? 'required' : 'optional'}
              autoComplete={AUTOCOMPLETE[field]}
              placeholder={fields.placeholders[field]}
              hint={fields.hints[field]}
              registration={register(field)}
              error={errors[field]?.message}
            />
          );
        })}
        <PasswordField
          label={messages.authPages.password}
          required
          mark="required"
          autoComplete="new-password"
          registration={register('password')}
          error={errors.password?.message}
        />
        <PasswordStrength password={watch('password')} userInputs={[watch('name'), watch('email')]} />
        <PasswordField
          label={messages.authPages.confirmPassword}
          required
          mark="required"
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
  return (
    <RegisterForm onDisabled={() => setDisabledBySubmit(true)} required={status.data.required_fields ?? []} />
  );
}
