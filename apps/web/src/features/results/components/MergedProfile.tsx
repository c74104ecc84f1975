import {
  type AnalysisAttribute,
  type AnalysisValue,
  CORE_ATTRIBUTES,
  CORROBORATING_SOURCES,
  formatAnsweredAt,
  messages,
  type Provenance,
  type SourceLabel,
  type TimelineEvent,
} from '@footprint/domain';
import { type ReactNode, useId, useState } from 'react';
import { ActionButton, type ProfileActions } from './ProfileSummary.tsx';
import { SourceChip } from './SourceChip.tsx';

/**
 * The merged profile (docs/architecture.md, 'Merged profile and analysis'): the analysis's attributes,
 * each value once, as the PDFs print it. Each value shows every source that gave it, a corroboration
 * mark (≥ 2 independent sources), its confidence, and a conflict mark on an attribute the sources
 * disagree on; its source chips open the provenance of the value: each source's real name, when it
 * answered and whether it was live or sandbox.
 */

const t = messages.results;

/** Values read better in a fixed-width face: numbers and identifiers. */
const monoAttribute = (attribute: string) =>
  ['Phone', 'Bank account', 'UPI', 'Vehicles'].includes(attribute) || !CORE_ATTRIBUTES.has(attribute);

export const isCorroborated = (value: AnalysisValue): boolean =>
  value.sources.length >= CORROBORATING_SOURCES;

/** Provenance items that answered alike (same mode, same time), so the time is said once per group. */
function groupProvenance(items: Provenance[]) {
  const groups = new Map<string, { mode?: Provenance['mode']; answeredAt?: string; items: Provenance[] }>();
  for (const item of items) {
    const id = `${item.mode ?? ''}|${item.answeredAt ?? ''}`;
    const group = groups.get(id) ?? { mode: item.mode, answeredAt: item.answeredAt, items: [] };
    group.items.push(item);
    groups.set(id, group);
  }
  return [...groups.values()];
}

function ProvenanceList({ id, items }: { id: string; items: Provenance[] }) {
  return (
    <div id={id} className="provenance-panel">
      <p className="entry-key">{t.provenanceHeading}</p>
      {groupProvenance(items).map((group) => (
        <div key={`${group.mode ?? ''}|${group.answeredAt ?? ''}`} className="mt-1.5">
          <p className="provenance-line">
            {group.mode && (
              <span className={`status-badge ${group.mode === 'live' ? 'status-on' : 'status-sandbox'}`}>
                {group.mode === 'live' ? t.live : t.sandbox}
              </span>
            )}
            {group.answeredAt && (
              <time dateTime={group.answeredAt} className="text-muted tabular-nums">
                {t.answeredAt(formatAnsweredAt(group.answeredAt))}
              </time>
            )}
          </p>
          <ul className="mt-1 flex flex-wrap gap-x-3 gap-y-0.5">
            {group.items.map((item) => (
              <li key={`${item.source}|${item.key ?? ''}|${item.name}`} className="text-text">
                <span className="font-medium">{item.name}</span>
                {item.via && <span className="text-muted"> {t.via(item.via)}</span>}
                {item.vendor && item.vendor !== item.name && (
                  <span className="text-muted"> ({item.vendor})</span>
                )}
              </li>
            ))}
          </ul>
        </div>
      ))}
    </div>
  );
}

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
  if (attribute === 'Vehicles') {
    if (actions.onRcDetails)
      buttons.push(
        <ActionButton
          key="rc"
          label={messages.details.rcTitle}
          target={value}
          onClick={() => actions.onRcDetails?.(value)}
        />,
      );
    if (actions.onChallanDetails)
      buttons.push(
        <ActionButton
          key="challan"
          label={messages.details.challanTitle}
          target={value}
          onClick={() => actions.onChallanDetails?.(value)}
        />,
      );
  }
  if (attribute === 'UPI' && actions.onUpiDetails)
    buttons.push(
      <ActionButton
        key="upi"
        label={messages.details.upiTitle}
        target={value}
        onClick={() => actions.onUpiDetails?.(value)}
      />,
    );
  return buttons;
}

function ValueRow({
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
          {value.sources.map((source) => (
            <SourceChip key={source} source={source as SourceLabel} />
          ))}
        </button>
        {buttons.length > 0 && <span className="ml-auto flex flex-wrap gap-1.5">{buttons}</span>}
      </div>
      {open && provenance.length > 0 && <ProvenanceList id={`${id}-provenance`} items={provenance} />}
    </li>
  );
}

function AttributeCard({ attribute, actions }: { attribute: AnalysisAttribute; actions: ProfileActions }) {
  const id = useId();
  return (
    <section aria-labelledby={id} className="profile-section" data-merged-attribute={attribute.attribute}>
      <h3 id={id} className="section-title justify-between">
        <span className="flex items-center gap-2">
          {attribute.attribute}
          <span className="section-count" aria-hidden="true">
            {attribute.values.length}
          </span>
        </span>
        {attribute.status === 'conflicting' && (
          <span className="status-badge status-conflict tracking-normal normal-case" title={t.conflictTitle}>
            {t.sourcesDisagree}
          </span>
        )}
      </h3>
      <ul className="divide-y divide-line/60">
        {attribute.values.map((value) => (
          <ValueRow
            key={value.value}
            attribute={attribute.attribute}
            value={value}
            conflicting={attribute.status === 'conflicting'}
            actions={actions}
          />
        ))}
      </ul>
    </section>
  );
}

/** The merged profile's heading, its one-line summary and a card per attribute. */
export function MergedProfileView({
  attributes,
  actions = {},
  children,
}: {
  attributes: AnalysisAttribute[];
  actions?: ProfileActions;
  /** What follows the attributes inside the section (the details the analysis does not weigh). */
  children?: ReactNode;
}) {
  const id = useId();
  const facts = attributes.reduce((sum, a) => sum + a.values.length, 0);
  const corroborated = attributes.reduce((sum, a) => sum + a.values.filter(isCorroborated).length, 0);
  const conflicts = attributes.filter((a) => a.status === 'conflicting').length;
  return (
    <section aria-labelledby={id} className="space-y-4">
      <div className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1">
        <h2 id={id} className="results-heading">
          {t.mergedProfile}
        </h2>
        {attributes.length > 0 && (
          <p className="text-xs text-muted">{t.mergedSummary(facts, corroborated, conflicts)}</p>
        )}
      </div>
      {attributes.length > 0 && (
        <div className="profile-columns">
          {attributes.map((attribute) => (
            <AttributeCard key={attribute.attribute} attribute={attribute} actions={actions} />
          ))}
        </div>
      )}
      {children}
    </section>
  );
}

/** The dated events of the answer, oldest first. */
export function Timeline({ events }: { events: TimelineEvent[] }) {
  const id = useId();
  if (events.length === 0) return null;
  return (
    <section aria-labelledby={id} className="card p-4 sm:p-5">
      <h2 id={id} className="section-title">
        {t.timeline}
        <span className="section-count">{events.length}</span>
      </h2>
      <ol className="timeline mt-3">
        {events.map((event) => (
          <li key={`${event.date}|${event.event}|${event.source}`} className="timeline-item">
            <span className="timeline-date">{event.date}</span>
            <span className="min-w-0 text-sm break-words text-text">{event.event}</span>
            <span className="timeline-source">
              <SourceChip source={event.source as SourceLabel} />
            </span>
          </li>
        ))}
      </ol>
    </section>
  );
}

/** What an investigator could lawfully do next, most important first. */
export function NextSteps({ steps }: { steps: string[] }) {
  const id = useId();
  if (steps.length === 0) return null;
  return (
    <section aria-labelledby={id} className="card p-4 sm:p-5">
      <h2 id={id} className="section-title">
        {t.nextSteps}
        <span className="section-count">{steps.length}</span>
      </h2>
      <ol className="mt-3 list-decimal space-y-2 pl-5 text-sm text-text marker:text-muted">
        {steps.map((step) => (
          <li key={step} className="pl-1 leading-relaxed">
            {step}
          </li>
        ))}
      </ol>
    </section>
  );
}

/** The filter box: narrows every section of the page. */
export function FilterBox({ value, onChange }: { value: string; onChange: (value: string) => void }) {
  const id = useId();
  return (
    <div className="filter-box">
      <label htmlFor={id} className="sr-only">
        {t.filterLabel}
      </label>
      <svg
        viewBox="0 0 24 24"
        fill="none"
        stroke="currentColor"
        strokeWidth="2"
        aria-hidden="true"
        focusable="false"
        className="size-4 shrink-0 text-muted"
      >
        <path d="M3 5h18l-7 8v6l-4 2v-8z" />
      </svg>
      <input
        id={id}
        type="search"
        value={value}
        onChange={(event) => onChange(event.target.value)}
        placeholder={t.filterPlaceholder}
        autoComplete="off"
        className="min-w-0 flex-1 bg-transparent text-sm text-text outline-none placeholder:text-muted"
      />
      {value && (
        <button type="button" className="btn-chip" onClick={() => onChange('')}>
          {t.clearFilter}
        </button>
      )}
    </div>
  );
}

/** The filter matched nothing: says so, with a way back. */
export function NothingMatches({ query, onClear }: { query: string; onClear: () => void }) {
  return (
    <div role="status" className="card flex flex-col items-center gap-3 p-8 text-center">
      <p className="text-sm font-semibold text-text">{t.nothingMatches(query.trim())}</p>
      <button type="button" className="btn-ghost" onClick={onClear}>
        {t.clearFilter}
      </button>
    </div>
  );
}

/** The raw per-source records, folded away: every value as each source gave it. */
export function SourceRecords({ children, forceOpen }: { children: ReactNode; forceOpen?: boolean }) {
  return (
    <details className="source-records group" open={forceOpen || undefined}>
      <summary className="source-panel-summary">
        <span className="results-heading">{t.sourceRecords}</span>
        <span className="min-w-0 text-xs text-muted">{t.sourceRecordsHint}</span>
        <svg
          viewBox="0 0 24 24"
          fill="none"
          stroke="currentColor"
          strokeWidth="2"
          aria-hidden="true"
          focusable="false"
          className="ml-auto size-4 shrink-0 transition-transform group-open:rotate-180"
        >
          <path d="m6 9 6 6 6-6" />
        </svg>
      </summary>
      <div className="space-y-6 px-1 pt-4 pb-2 sm:px-2">{children}</div>
    </details>
  );
}
