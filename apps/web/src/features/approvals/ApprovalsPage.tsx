import { type KeyboardEvent, useId, useRef } from 'react';
import { useSearchParams } from 'react-router';
import { CountedList, LoadingBlock } from '../../components/LoadError.tsx';
import { approvalTexts as t } from '../../lib/approval-texts.ts';
import { useAuth } from '../../lib/auth-context.ts';
import { supervisesAUnit, useUnits } from '../../lib/units.ts';
import { type ApprovalList, useApprovals } from './api/approvals.ts';
import { ApprovalCard } from './components/ApprovalCard.tsx';

/**
 * /approvals (approval of sensitive searches, beyond the spec): "To decide", the requests of the people
 * the caller supervises (those waiting, then those decided), and "My requests", the caller's own
 * (`?view=mine`, where a held search's notice leads). The view lives in the address, so a reload shows
 * the same.
 */

type View = 'decide' | 'mine';
const views = [
  { key: 'decide', label: t.toDecideTab },
  { key: 'mine', label: t.mineTab },
] as const satisfies ReadonlyArray<{ key: View; label: string }>;

function ApprovalListPanel({
  list,
  heading,
  lead,
  empty,
}: {
  list: ApprovalList;
  heading?: string;
  lead?: string;
  empty: string;
}) {
  const id = useId();
  const approvals = useApprovals(list);
  return (
    <section aria-labelledby={heading ? `${id}-heading` : undefined} className="mt-5">
      {heading && (
        <h2 id={`${id}-heading`} className="mb-2 text-lg font-semibold text-text">
          {heading}
        </h2>
      )}
      {lead && <p className="mb-4 max-w-3xl text-sm text-muted">{lead}</p>}
      <CountedList query={approvals} failed={t.loadFailed} retryLabel={t.retry} empty={empty} count={t.count}>
        {(item, onChanged) => (
          <ApprovalCard
            key={item.id}
            item={item}
            list={list}
            headingLevel={heading ? 3 : 2}
            onDecided={onChanged}
          />
        )}
      </CountedList>
    </section>
  );
}

/** The queue: those waiting, then those decided; for someone who decides nothing, a word saying so. */
function DecidePanel({ decider }: { decider: boolean }) {
  if (!decider) return <p className="mt-5 max-w-3xl text-sm text-muted">{t.notSupervisor}</p>;
  return (
    <>
      <p className="mt-5 max-w-3xl text-sm text-muted">{t.toDecideLead}</p>
      <ApprovalListPanel list="open" heading={t.waitingHeading} empty={t.emptyToDecide} />
      <ApprovalListPanel list="done" heading={t.decidedHeading} empty={t.emptyDecided} />
    </>
  );
}

export default function ApprovalsPage() {
  const id = useId();
  const { user } = useAuth();
  const [params, setParams] = useSearchParams();
  const units = useUnits();
  // A supervisor decides for their units; an admin for anyone with no supervisor at all.
  const decider = supervisesAUnit(units.data) || user?.role === 'admin';
  const current: View = params.get('view') === 'mine' ? 'mine' : 'decide';
  const tabRefs = useRef(new Map<View, HTMLButtonElement>());

  const choose = (next: View) => {
    if (next !== current) setParams(next === 'mine' ? { view: 'mine' } : {});
  };

  // Arrow keys move between the tabs (the WAI-ARIA tabs pattern, activating on focus).
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (!['ArrowRight', 'ArrowLeft', 'Home', 'End'].includes(event.key)) return;
    event.preventDefault();
    const next: View =
      event.key === 'Home' ? 'decide' : event.key === 'End' ? 'mine' : current === 'mine' ? 'decide' : 'mine';
    choose(next);
    tabRefs.current.get(next)?.focus();
  };

  const tabId = (key: View) => `${id}-tab-${key}`;
  const panelId = `${id}-panel`;

  return (
    <div className="mx-auto flex w-full max-w-5xl flex-1 flex-col px-4 py-8 sm:px-6 lg:py-10">
      <header>
        <p className="eyebrow">{t.eyebrow}</p>
        <h1 className="mt-2 text-3xl font-bold tracking-tight text-text">{t.title}</h1>
        <p className="mt-2 max-w-2xl text-sm text-muted sm:text-base">{t.lead}</p>
      </header>

      <div role="tablist" aria-label={t.tabsLabel} className="tabs review-tabs mt-6" onKeyDown={onKeyDown}>
        {views.map((item) => (
          <button
            key={item.key}
            ref={(element) => {
              if (element) tabRefs.current.set(item.key, element);
              else tabRefs.current.delete(item.key);
            }}
            id={tabId(item.key)}
            type="button"
            role="tab"
            aria-selected={current === item.key}
            aria-controls={panelId}
            tabIndex={current === item.key ? 0 : -1}
            className="tab"
            onClick={() => choose(item.key)}
          >
            {item.label}
          </button>
        ))}
      </div>
      <div id={panelId} role="tabpanel" aria-labelledby={tabId(current)}>
        {current === 'mine' ? (
          <ApprovalListPanel key="mine" list="mine" lead={t.mineLead} empty={t.emptyMine} />
        ) : units.isPending ? (
          <LoadingBlock />
        ) : (
          <DecidePanel decider={decider} />
        )}
      </div>
    </div>
  );
}
