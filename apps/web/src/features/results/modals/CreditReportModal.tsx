import { messages } from '@footprint/domain';
import { type FormEvent, useId, useRef, useState } from 'react';
import { toast } from 'react-toastify';
import { Modal } from '../../../components/Modal.tsx';
import { Spinner } from '../../../components/Spinner.tsx';
import { isApiError, saveBlob } from '../../../lib/api.ts';
import { useAuth } from '../../../lib/auth-context.ts';
import { type CreditReportInput, useCreditReport } from '../api/creditReport.ts';

export interface CreditReportPrefill {
  pan: string;
  name: string;
  mobile: string;
}

const genders: ReadonlyArray<{ value: CreditReportInput['gender']; label: string }> = [
  { value: 'male', label: 'Male' },
  { value: 'female', label: 'Female' },
];

function ReadOnlyField({ label, value }: { label: string; value: string }) {
  const id = useId();
  return (
    <div>
      <label htmlFor={id} className="label">
        {label}
      </label>
      <input
        id={id}
        className="input cursor-default opacity-85"
        value={value}
        readOnly
        aria-readonly="true"
      />
    </div>
  );
}

/**
 * 'Credit Report Request' (spec §2.5, §5, §8), opened from a PAN line. PAN, name and mobile come from the
 * profile and cannot be edited; the investigator picks the gender; consent is fixed as given. Success
 * saves credit_report_{timestamp}.pdf and closes.
 */
export function CreditReportModal({
  prefill,
  onClose,
}: {
  prefill: CreditReportPrefill;
  onClose: () => void;
}) {
  const { mergeUser, refetch } = useAuth();
  const report = useCreditReport();
  const [gender, setGender] = useState<CreditReportInput['gender'] | ''>('');
  const [genderError, setGenderError] = useState('');
  const firstRadio = useRef<HTMLInputElement>(null);
  const id = useId();
  const submitting = report.isPending;

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (submitting) return;
    if (!gender) {
      // Spec §5 calls for an alert: said inline (role=alert) and as a toast, without a blocking dialog.
      setGenderError(messages.creditReport.selectGender);
      toast.warning(messages.creditReport.selectGender);
      firstRadio.current?.focus();
      return;
    }
    try {
      const blob = await report.mutateAsync({ ...prefill, gender });
      saveBlob(blob, `credit_report_${Date.now()}.pdf`);
      toast.success(messages.creditReport.success);
      // The PDF answer carries no balance; read it again so the header shows the charge.
      void refetch().catch(() => {});
      onClose();
    } catch (error) {
      if (isApiError(error)) {
        if (error.status === 401) return;
        if (typeof error.body.credits === 'number') mergeUser({ credits: error.body.credits });
        if (error.status === 402) {
          toast.warning(error.body.message || messages.credits.insufficient);
          return;
        }
      }
      toast.error(messages.creditReport.failed);
    }
  };

  const formId = `${id}-form`;
  return (
    <Modal
      title={messages.creditReport.title}
      onClose={onClose}
      initialFocus={firstRadio}
      actions={
        <button type="submit" form={formId} className="btn-primary" disabled={submitting}>
          {submitting && <Spinner size="sm" decorative />}
          {submitting ? messages.creditReport.downloading : 'Download Report'}
        </button>
      }
    >
      <form
        id={formId}
        noValidate
        onSubmit={(event) => void onSubmit(event)}
        className="space-y-4"
        aria-busy={submitting}
      >
        <ReadOnlyField label="PAN" value={prefill.pan} />
        <ReadOnlyField label="Name" value={prefill.name} />
        <ReadOnlyField label="Mobile" value={prefill.mobile} />
        <fieldset aria-describedby={genderError ? `${id}-gender-error` : undefined}>
          <legend className="label">Gender</legend>
          <div className="flex gap-2">
            {genders.map((option, index) => (
              <label key={option.value} className="radio-pill">
                <input
                  ref={index === 0 ? firstRadio : undefined}
                  type="radio"
                  name={`${id}-gender`}
                  value={option.value}
                  checked={gender === option.value}
                  onChange={() => {
                    setGender(option.value);
                    setGenderError('');
                  }}
                  className="accent-accent"
                />
                {option.label}
              </label>
            ))}
          </div>
          {genderError && (
            <p id={`${id}-gender-error`} role="alert" className="field-error">
              {genderError}
            </p>
          )}
        </fieldset>
        <label className="flex items-start gap-3 text-sm text-muted">
          <input type="checkbox" checked disabled readOnly className="mt-0.5 size-4 accent-accent" />
          <span>I consent to fetching this person's credit report for an authorised investigation.</span>
        </label>
      </form>
    </Modal>
  );
}
