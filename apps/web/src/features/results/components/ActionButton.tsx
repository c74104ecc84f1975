/** The paid lookups and reports a value offers; each is absent where the deployment has no source for it. */
export interface ProfileActions {
  onCreditReport?: (pan: string) => void;
  onRcDetails?: (rc: string) => void;
  onChallanDetails?: (rc: string) => void;
  onUpiDetails?: (upi: string) => void;
}

/** A detail or report button beside a value, named with the value it opens. */
export function ActionButton({
  label,
  target,
  onClick,
}: {
  label: string;
  target: string;
  onClick: () => void;
}) {
  return (
    <button type="button" className="btn-chip" onClick={onClick} aria-label={`${label}: ${target}`}>
      {label}
    </button>
  );
}
