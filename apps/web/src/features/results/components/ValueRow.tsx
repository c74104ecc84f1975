import {
  type AnalysisValue,
  CORE_ATTRIBUTES,
  isCorroborated,
  messages,
  type SourceLabel,
} from '@footprint/domain';
import { Fragment, type ReactNode, useId, useState } from 'react';
import { ActionButton, detailButtons, lookupButtons, type ProfileActions } from './ActionButton.tsx';
import { ProvenanceList } from './ProvenanceList.tsx';
import { SourceChip } from './SourceChip.tsx';

const t = messages.results;

/** Values read better in a fixed-width face: numbers and identifiers. */
const monoAttribute = (attribute: string) =>
  ['Phone', 'Bank account', 'UPI', 'Vehicles'].includes(attribute) || !CORE_ATTRIBUTES.has(attribute);

function valueActions(attribute: string, value: string, actions: ProfileActions): ReactNode[] {
  const buttons: ReactNode[] = [];
  if (attribute === messages.profile.identityProofs.pan_number && actions.onCreditReport)
    buttons.push(
      <ActionButton
        key="credit"
        label={messages.creditReport.button}
        target={value}
        onClick={() => actions.onCreditReport?.(value)}
      />,
    );
  buttons.push(...detailButtons({ attribute }, value, actions));
  buttons.push(...lookupButtons(attribute, value, actions));
  return buttons;
}

export function ValueRow({
  attribute,
  value,
  conflicting,
  actions,
}: {
  attribute: string;
  value: AnalysisValue;
  conflicting: boolean;
  actions: ProfileActions;
}) {
  const [open, setOpen] = useState(false);
  const id = useId();
  const percent = Math.round(value.confidence * 100);
  const provenance = value.provenance ?? [];
  const buttons = valueActions(attribute, value.value, actions);
  return (
    <li className="merged-value" data-merged-value={value.value}>
      <div className="flex flex-wrap items-start gap-x-3 gap-y-1.5">
        <span
          className={`entry-value min-w-0 flex-1 basis-40 ${monoAttribute(attribute) ? 'font-mono text-[0.8rem]' : 'font-medium'}`}
        >
          {value.value}
        </span>
        <span className="flex shrink-0 flex-wrap items-center gap-1.5">
          {isCorroborated(value) && (
            <span className="status-badge status-on" title={t.corroboratedTitle}>
              <span aria-hidden="true">✓</span>
              {t.corroborated}
            </span>
          )}
          {conflicting && (
            <span className="status-badge status-conflict" title={t.conflictTitle}>
              {t.conflict}
            </span>
          )}
          <span
            className="confidence"
            title={t.confidenceLabel(percent)}
            role="img"
            aria-label={t.confidenceLabel(percent)}
          >
            <span className="confidence-bar" aria-hidden="true">
              <span style={{ width: `${percent}%` }} />
            </span>
            <span aria-hidden="true">{t.confidence(percent)}</span>
          </span>
        </span>
      </div>
      <div className="mt-1.5 flex flex-wrap items-center gap-1.5">
        <button
          type="button"
          className="provenance-toggle"
          aria-expanded={open}
          aria-controls={`${id}-provenance`}
          aria-label={t.showProvenance(value.value, value.sources.join(', '))}
          onClick={() => setOpen((was) => !was)}
        >
          <svg
            viewBox="0 0 24 24"
            fill="none"
            stroke="currentColor"
            strokeWidth="2"
            aria-hidden="true"
            focusable="false"
            className={`size-3.5 shrink-0 text-muted transition-transform ${open ? 'rotate-90' : ''}`}
          >
            <path d="m9 6 6 6-6 6" />
          </svg>
          {/* A space between chips: the text shown reads as the words of the button's name (WCAG 2.5.3). */}
          {value.sources.map((source, index) => (
            <Fragment key={source}>
              {index > 0 && ' '}
              <SourceChip source={source as SourceLabel} />
            </Fragment>
          ))}
        </button>
        {buttons.length > 0 && <span className="ml-auto flex flex-wrap gap-1.5">{buttons}</span>}
      </div>
      {open && provenance.length > 0 && <ProvenanceList id={`${id}-provenance`} items={provenance} />}
    </li>
  );
}
