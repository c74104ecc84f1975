import { messages, type SecondFactorMethod, type TokenResponse } from '@footprint/domain';
import { type FormEvent, type ReactNode, useEffect, useId, useRef, useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { Logo } from '../../../components/Logo.tsx';
import { Spinner } from '../../../components/Spinner.tsx';
import { paths } from '../../../config/paths.ts';
import { isApiError } from '../../../lib/api.ts';
import { useAuth } from '../../../lib/auth-context.ts';
import { failureMessage, fieldErrorsOf } from '../../../lib/field-errors.ts';
import { finishSignIn, finishSignInWithPasskey } from '../api/secondFactor.ts';

/** What /login hands to this page through navigation state. */
export interface SecondFactorPageState {
  email: string;
  token: string;
  methods: SecondFactorMethod[];
}

function readState(state: unknown): SecondFactorPageState | null {
  if (state === null || typeof state !== 'object') return null;
  const { email, token, methods } = state as Partial<SecondFactorPageState>;
  if (typeof email !== 'string' || typeof token !== 'string' || !Array.isArray(methods)) return null;
  return { email, token, methods };
}

const t = messages.secondFactorPage;

function Frame({ children }: { children: ReactNode }) {
  return (
    <section className="card w-full max-w-md p-6 shadow-2xl shadow-black/40 sm:p-8">
      <div className="mb-6 flex justify-center">
        <Logo to={paths.home} size="lg" />
      </div>
      {children}
    </section>
  );
}

/** The first message of a failed step: the field's own, else the answer's, else a generic one. */
function failureOf(error: unknown): { message: string; expired: boolean } {
  if (!isApiError(error)) {
    // The browser's passkey prompt was closed or refused.
    const name = (error as { name?: string } | null)?.name;
    return {
      message: name === 'NotAllowedError' ? messages.security.passkeys.cancelled : t.failed,
      expired: false,
    };
  }
  return { message: failureMessage(error, t.failed), expired: fieldErrorsOf(error).token !== undefined };
}

function SecondFactorForm({ state }: { state: SecondFactorPageState }) {
  const navigate = useNavigate();
  const auth = useAuth();
  const id = useId();
  const hasCode = state.methods.includes('totp');
  const [mode, setMode] = useState<'code' | 'recovery'>(
    hasCode || !state.methods.includes('recovery_code') ? 'code' : 'recovery',
  );
  const [value, setValue] = useState('');
  const [busy, setBusy] = useState<'code' | 'passkey' | null>(null);
  const [error, setError] = useState<{ message: string; expired: boolean } | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const showInput = mode === 'recovery' || hasCode;

  useEffect(() => {
    if (showInput) input.current?.focus();
  }, [showInput]);

  const signedIn = async (session: TokenResponse) => {
    await auth.login(session);
    await navigate(paths.dashboard, { replace: true });
  };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const typed = value.trim();
    if (!typed) {
      setError({ message: mode === 'code' ? messages.otp.invalidValue : t.failed, expired: false });
      input.current?.focus();
      return;
    }
    setBusy('code');
    setError(null);
    try {
      await signedIn(
        await finishSignIn(
          mode === 'code'
            ? { token: state.token, code: typed }
            : { token: state.token, recovery_code: typed },
        ),
      );
    } catch (failure) {
      setError(failureOf(failure));
      setValue('');
      input.current?.focus();
    } finally {
      setBusy(null);
    }
  };

  const onPasskey = async () => {
    setBusy('passkey');
    setError(null);
    try {
      await signedIn(await finishSignInWithPasskey(state.token));
    } catch (failure) {
      setError(failureOf(failure));
    } finally {
      setBusy(null);
    }
  };

  return (
    <Frame>
      <h1 className="text-center text-2xl font-bold tracking-tight text-text">{t.title}</h1>
      <p className="mt-2 text-center text-sm break-words text-muted">{t.lead(state.email)}</p>

      {showInput && (
        <form
          noValidate
          onSubmit={(event) => void onSubmit(event)}
          className="mt-7"
          aria-busy={busy === 'code'}
        >
          <label htmlFor={`${id}-code`} className="label">
            {mode === 'code' ? t.code : t.recoveryCode}
          </label>
          <input
            ref={input}
            id={`${id}-code`}
            type="text"
            className={`input tabular-nums ${error ? 'border-danger' : ''}`}
            inputMode={mode === 'code' ? 'numeric' : 'text'}
            autoComplete={mode === 'code' ? 'one-time-code' : 'off'}
            autoCapitalize="off"
            spellCheck={false}
            maxLength={mode === 'code' ? 6 : 11}
            value={value}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${id}-error` : undefined}
            onChange={(event) => {
              setValue(mode === 'code' ? event.target.value.replace(/\D/g, '') : event.target.value);
              setError(null);
            }}
            disabled={busy !== null}
          />
          <button type="submit" className="btn-primary mt-5 w-full py-2.5" disabled={busy !== null}>
            {busy === 'code' && <Spinner size="sm" decorative />}
            {busy === 'code' ? t.verifying : t.verify}
          </button>
        </form>
      )}

      {state.methods.includes('passkey') && (
        <button
          type="button"
          className={`${showInput ? 'btn-ghost' : 'btn-primary'} mt-4 w-full py-2.5`}
          onClick={() => void onPasskey()}
          disabled={busy !== null}
        >
          {busy === 'passkey' && <Spinner size="sm" decorative />}
          {t.usePasskey}
        </button>
      )}

      <div aria-live="assertive">
        {error && (
          <p id={`${id}-error`} role="alert" className="mt-4 text-center text-sm font-medium text-danger">
            {error.message}{' '}
            {error.expired && (
              <Link to={paths.login} className="font-semibold text-accent underline">
                {t.goToLogin}
              </Link>
            )}
          </p>
        )}
      </div>

      <div className="mt-6 flex flex-col items-center gap-2 text-sm">
        {mode === 'code' && state.methods.includes('recovery_code') && (
          <button
            type="button"
            className="text-muted hover:text-accent hover:underline"
            onClick={() => {
              setMode('recovery');
              setValue('');
              setError(null);
            }}
          >
            {t.useRecovery}
          </button>
        )}
        {mode === 'recovery' && hasCode && (
          <button
            type="button"
            className="text-muted hover:text-accent hover:underline"
            onClick={() => {
              setMode('code');
              setValue('');
              setError(null);
            }}
          >
            {t.useCode}
          </button>
        )}
      </div>
    </Frame>
  );
}

/**
 * /two-step-verification (beyond the spec): after the password, an account with a second factor
 * shows a code from its authenticator app, a recovery code, or a passkey.
 */
export default function SecondFactorPage() {
  const location = useLocation();
  const state = readState(location.state);
  if (!state) {
    return (
      <Frame>
        <h1 className="text-center text-2xl font-bold tracking-tight text-text">{t.title}</h1>
        <p className="mt-3 text-center text-sm text-muted">{t.noChallenge}</p>
        <div className="mt-6 flex justify-center">
          <Link to={paths.login} className="btn-primary px-6 py-2.5">
            {t.goToLogin}
          </Link>
        </div>
      </Frame>
    );
  }
  return <SecondFactorForm state={state} />;
}
