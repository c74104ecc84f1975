import { type AdminUser, adminCreditsRequest, messages } from '@footprint/domain';
import { type FormEvent, useId, useState } from 'react';
import { toast } from 'react-toastify';
import { Spinner } from '../../../components/Spinner.tsx';
import { useAuth } from '../../../lib/auth-context.ts';
import { failureMessage, fieldErrorsOf, isSessionEnd } from '../../../lib/field-errors.ts';
import { useChangeCredits } from '../api/changeCredits.ts';

const t = messages.admin;

/**
 * Grant or deduct credits with a reason (kept in the audit trail). The change goes through the ledger on the server;
 * a deduction that would take the balance below zero is refused there and changes nothing.
 */
export function CreditsForm({ user }: { user: AdminUser }) {
  const id = useId();
  const change = useChangeCredits(user.id);
  const { user: me, mergeUser } = useAuth();
  const [direction, setDirection] = useState<'grant' | 'deduct'>('grant');
  const [amount, setAmount] = useState('');
  const [reason, setReason] = useState('');
  const [errors, setErrors] = useState<{ amount?: string; reason?: string }>({});

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (change.isPending) return;
    const magnitude = Number(amount);
    const found: { amount?: string; reason?: string } = {};
    if (!amount.trim() || !Number.isInteger(magnitude) || magnitude <= 0)
      found.amount = t.user.amountRequired;
    if (!reason.trim()) found.reason = t.user.reasonRequired;
    const body = { amount: direction === 'grant' ? magnitude : -magnitude, reason: reason.trim() };
    if (!found.amount && !found.reason) {
      const checked = adminCreditsRequest.safeParse(body);
      if (!checked.success) {
        for (const issue of checked.error.issues) {
          const field = issue.path[0] === 'reason' ? 'reason' : 'amount';
          found[field] ??= issue.message;
        }
      }
    }
    setErrors(found);
    if (found.amount || found.reason) {
      document.getElementById(`${id}-${found.amount ? 'amount' : 'reason'}`)?.focus();
      return;
    }
    try {
      const answer = await change.mutateAsync(body);
      // An admin changing their own balance sees it in the header at once.
      if (me?.id === user.id) mergeUser({ credits: answer.user.credits });
      toast.success(direction === 'grant' ? t.user.granted(magnitude) : t.user.deducted(magnitude));
      setAmount('');
      setReason('');
    } catch (error) {
      if (isSessionEnd(error)) return;
      const fields = fieldErrorsOf(error);
      if (fields.amount || fields.reason) setErrors({ amount: fields.amount, reason: fields.reason });
      else toast.error(failureMessage(error, messages.errors.generic));
    }
  };

  return (
    <section aria-labelledby={`${id}-title`} className="card p-5">
      <div className="flex items-baseline justify-between gap-3">
        <h2 id={`${id}-title`} className="section-title">
          {t.user.creditsTitle}
        </h2>
        <p className="text-sm text-muted">
          {t.user.balance}{' '}
          <span className="text-2xl font-bold text-accent tabular-nums">
            {user.credits.toLocaleString('en-US')}
          </span>
        </p>
      </div>
      <form noValidate onSubmit={(event) => void onSubmit(event)} className="mt-4 space-y-4">
        <fieldset>
          <legend className="label">{t.user.direction}</legend>
          <div className="search-toggle">
            {(['grant', 'deduct'] as const).map((option) => (
              <label key={option} className="search-toggle-option">
                <input
                  type="radio"
                  name={`${id}-direction`}
                  value={option}
                  checked={direction === option}
                  onChange={() => setDirection(option)}
                  className="peer sr-only"
                />
                <span>{option === 'grant' ? t.user.grant : t.user.deduct}</span>
              </label>
            ))}
          </div>
        </fieldset>
        <div className="grid gap-4 sm:grid-cols-[10rem_1fr]">
          <div>
            <label htmlFor={`${id}-amount`} className="label">
              {t.user.amount}
            </label>
            <input
              id={`${id}-amount`}
              type="number"
              inputMode="numeric"
              min={1}
              step={1}
              className="input min-h-10 tabular-nums"
              value={amount}
              aria-invalid={errors.amount ? true : undefined}
              aria-describedby={errors.amount ? `${id}-amount-error` : undefined}
              onChange={(event) => {
                setAmount(event.target.value);
                setErrors((current) => ({ ...current, amount: undefined }));
              }}
            />
          </div>
          <div>
            <label htmlFor={`${id}-reason`} className="label">
              {t.user.reason}
            </label>
            <input
              id={`${id}-reason`}
              className="input min-h-10"
              autoComplete="off"
              maxLength={200}
              placeholder={t.user.reasonPlaceholder}
              value={reason}
              aria-invalid={errors.reason ? true : undefined}
              aria-describedby={errors.reason ? `${id}-reason-error` : undefined}
              onChange={(event) => {
                setReason(event.target.value);
                setErrors((current) => ({ ...current, reason: undefined }));
              }}
            />
          </div>
        </div>
        {(errors.amount || errors.reason) && (
          <div className="space-y-1">
            {errors.amount && (
              <p id={`${id}-amount-error`} className="field-error mt-0 text-sm">
                {errors.amount}
              </p>
            )}
            {errors.reason && (
              <p id={`${id}-reason-error`} className="field-error mt-0 text-sm">
                {errors.reason}
              </p>
            )}
          </div>
        )}
        <button type="submit" className="btn-primary w-full sm:w-auto" disabled={change.isPending}>
          {change.isPending && <Spinner size="sm" decorative />}
          {t.user.apply}
        </button>
      </form>
    </section>
  );
}
