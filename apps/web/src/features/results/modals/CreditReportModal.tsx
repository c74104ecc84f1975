import { messages, validateIntel } from '@footprint/domain';
import { type FormEvent, useId, useRef, useState } from 'react';
import { toast } from 'react-toastify';
import { CaseFiling } from '../../../components/CaseFiling.tsx';
import { Modal } from '../../../components/Modal.tsx';
import { Spinner } from '../../../components/Spinner.tsx';
import { saveBlob } from '../../../lib/api.ts';
import { useAuth } from '../../../lib/auth-context.ts';
import { useCaseReferenceField, useLegalBasisDraft } from '../../../lib/case-reference.ts';
import { usePaidAnswer } from '../../../lib/paid-answer.ts';
import {
  type CreditReportInput,
  creditReportData,
  creditReportType,
  useCreditReport,
} from '../api/creditReport.ts';

export interface CreditReportPrefill {
  pan: string;
  name: string;
  mobile: string;
}

/** Labels and options from the corporate form's credit_report fields, so both read the same. */
const fieldOf = (name: string) => creditReportType.fields.find((field) => field.name === name);
const label = (name: string) => fieldOf(name)?.label ?? name;
const genders = (fieldOf('gender')?.options ?? []) as ReadonlyArray<{
  value: CreditReportInput['gender'];
  label: string;
}>;

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
 * profile and cannot be edited; the investigator picks the gender; consent is fixed as given. It sends
 * what the corporate form's credit report sends (same endpoint, same data), filed under the search's case
 * unless the investigator changes or clears it beside the button (CaseFiling).
 * Success saves credit_report_{timestamp}.pdf and closes.
 */
export function CreditReportModal({
  prefill,
  caseReference,
  onClose,
}: {
  prefill: CreditReportPrefill;
  caseReference?: string;
  onClose: () => void;
}) {
  const { refetch, user } = useAuth();
  const paidAnswer = usePaidAnswer();
  // The case the report is filed under: the search's, shown and changeable before it is asked for.
  // With a legal basis required, the basis this tab's searches state goes with it too (changeable here).
  const filing = useCaseReferenceField(useState(caseReference ?? ''), {
    legalBasis: useLegalBasisDraft(user?.id),
  });
  const report = useCreditReport(filing.param, filing.legalBasisParam);
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
    // The prefilled values break a rule of the corporate form (no Gov-sourced name, a short number):
    // say which, rather than spend a call on a refusal.
    const invalid = validateIntel(creditReportType, creditReportData({ ...prefill, gender }));
    if (invalid) {
      toast.error(invalid);
      return;
    }
    const referenceProblem = filing.check();
    if (referenceProblem) {
      toast.error(referenceProblem);
      return;
    }
    try {
      const answer = await report.mutateAsync({ ...prefill, gender });
      saveBlob(answer.pdf, `credit_report_${Date.now()}.pdf`);
      toast.success(messages.creditReport.success);
      // The balance comes in the X-Credits header; without it, read the user again.
      if (!paidAnswer.paid(answer)) void refetch().catch(() => {});
      onClose();
    } catch (error) {
      const failed = messages.creditReport.failed;
      const failure = paidAnswer.failed(error, { failed, refusal: () => failed, caseReference: filing });
      // Held for a supervisor's approval: the request is made, its notice stays; the form is done.
      if (failure.kind === 'held') onClose();
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
          {submitting ? messages.creditReport.downloading : messages.intel.downloadReport}
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
        <ReadOnlyField label={label('pan')} value={prefill.pan} />
        <ReadOnlyField label={label('name')} value={prefill.name} />
        <ReadOnlyField label={label('mobile')} value={prefill.mobile} />
        <fieldset aria-describedby={genderError ? `${id}-gender-error` : undefined}>
          <legend className="label">{label('gender')}</legend>
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
          <span>{label('consent')}</span>
        </label>
        <CaseFiling disabled={submitting} {...filing.field} />
      </form>
    </Modal>
  );
}
