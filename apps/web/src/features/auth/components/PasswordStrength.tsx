import { messages, PASSWORD_MIN_LENGTH } from '@footprint/domain';
import { useEffect, useId, useState } from 'react';

type Estimate = typeof import('../strength/estimate.ts').estimate;
let loading: Promise<Estimate> | undefined;
const loadEstimate = () => {
  loading ??= import('../strength/estimate.ts').then((module) => module.estimate);
  return loading;
};

const BAR = ['bg-danger', 'bg-danger', 'bg-warning', 'bg-success', 'bg-success'] as const;

/**
 * The strength meter under a new password (register, reset): zxcvbn's score, said in words as well
 * as by the bar, announced politely while typing. The estimator loads the first time it is needed.
 * It only advises: the server's rule (length and breached lists) decides.
 */
export function PasswordStrength({ password, userInputs = [] }: { password: string; userInputs?: string[] }) {
  const id = useId();
  const [estimate, setEstimate] = useState<Estimate | undefined>();
  useEffect(() => {
    let live = true;
    if (password && !estimate) {
      loadEstimate().then(
        (fn) => live && setEstimate(() => fn),
        () => {},
      );
    }
    return () => {
      live = false;
    };
  }, [password, estimate]);

  const score = password && estimate ? estimate(password, userInputs) : undefined;
  // Below the minimum the meter never says more than "Very weak": the server would refuse it.
  const shown = score === undefined ? undefined : password.length < PASSWORD_MIN_LENGTH ? 0 : score;
  const word = shown === undefined ? '' : messages.passwordRules.strength[shown];
  return (
    <div className="mt-2" data-testid="password-strength">
      <div className="flex gap-1" aria-hidden="true">
        {[0, 1, 2, 3, 4].map((step) => (
          <span
            key={step}
            className={`h-1.5 flex-1 rounded-full ${shown !== undefined && step <= shown ? BAR[shown] : 'bg-line'}`}
          />
        ))}
      </div>
      <p id={id} className="mt-1 text-xs text-muted" aria-live="polite" aria-atomic="true">
        {password
          ? word
            ? `${messages.passwordRules.strengthLabel}: ${word}`
            : messages.passwordRules.checking
          : messages.passwordRules.hint}
      </p>
    </div>
  );
}
