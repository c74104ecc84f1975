import { messages, type Pivot } from '@footprint/domain';

const t = messages.cases;

export function PivotButton({
  pivot,
  value,
  onPick,
}: {
  pivot: Pivot | null;
  value: string;
  onPick: (pivot: Pivot) => void;
}) {
  if (!pivot) return null;
  return (
    <button
      type="button"
      className="btn-chip ml-auto"
      aria-label={t.pivotLabel(pivot.action, value)}
      onClick={() => onPick(pivot)}
    >
      {t.pivot}
    </button>
  );
}
