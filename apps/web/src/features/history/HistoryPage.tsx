import { messages } from '@footprint/domain';
import { type KeyboardEvent, useId, useRef } from 'react';
import { useSearchParams } from 'react-router';
import { supervisesAUnit, useUnits } from '../../lib/units.ts';
import type { HistoryScope } from './api/listHistory.ts';
import { LookupsPanel } from './components/LookupsPanel.tsx';
import { ScopeSwitch } from './components/ScopeSwitch.tsx';
import { StatementPanel } from './components/StatementPanel.tsx';

/**
 * /history (beyond the spec, for accountability): the signed-in user's own lookups, which reopen their stored
 * result without a new charge while it is kept, and the credit statement from the ledger. The tab, page
 * and the filters (kind, case, bulk job) live in the address, so a reload or Back shows the same view.
 * A supervisor of a unit also switches the lookups to those of everyone in their units (`?scope=unit`).
 */

const t = messages.history;
const tabs = [
  { key: 'lookups', label: t.lookupsTab },
  { key: 'statement', label: t.statementTab },
] as const;
type Tab = (typeof tabs)[number]['key'];

const pageOf = (value: string | null) => {
  const n = Number(value);
  return Number.isInteger(n) && n >= 1 ? n : 1;
};

export default function HistoryPage() {
  const id = useId();
  const [params, setParams] = useSearchParams();
  const tab: Tab = params.get('tab') === 'statement' ? 'statement' : 'lookups';
  const page = pageOf(params.get('page'));
  const kind = params.get('kind') || undefined;
  const caseId = params.get('case') || undefined;
  const jobId = params.get('job') || undefined;
  const units = useUnits();
  const supervises = supervisesAUnit(units.data);
  const scope: HistoryScope = supervises && params.get('scope') === 'unit' ? 'unit' : 'mine';
  const tabRefs = useRef(new Map<Tab, HTMLButtonElement>());

  const update = (next: {
    tab?: Tab;
    page?: number;
    kind?: string | undefined;
    caseId?: string | undefined;
    jobId?: string | undefined;
    scope?: HistoryScope;
  }) => {
    const merged = { tab, page, kind, caseId, jobId, scope, ...next };
    const search = new URLSearchParams();
    if (merged.tab !== 'lookups') search.set('tab', merged.tab);
    if (merged.page > 1) search.set('page', String(merged.page));
    if (merged.tab === 'lookups') {
      if (merged.scope === 'unit') search.set('scope', 'unit');
      if (merged.kind) search.set('kind', merged.kind);
      if (merged.caseId) search.set('case', merged.caseId);
      if (merged.jobId) search.set('job', merged.jobId);
    }
    setParams(search);
  };

  const choose = (next: Tab) => {
    if (next !== tab) update({ tab: next, page: 1, kind: undefined, caseId: undefined, jobId: undefined });
  };

  // Arrow keys move between the tabs (the WAI-ARIA tabs pattern, activating on focus).
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const index = tabs.findIndex((item) => item.key === tab);
    let target: number | null = null;
    if (event.key === 'ArrowRight') target = (index + 1) % tabs.length;
    else if (event.key === 'ArrowLeft') target = (index - 1 + tabs.length) % tabs.length;
    else if (event.key === 'Home') target = 0;
    else if (event.key === 'End') target = tabs.length - 1;
    if (target === null) return;
    event.preventDefault();
    const next = tabs[target]!.key;
    choose(next);
    tabRefs.current.get(next)?.focus();
  };

  const tabId = (key: Tab) => `${id}-tab-${key}`;
  const panelId = `${id}-panel`;

  return (
    <div className="mx-auto flex w-full max-w-7xl flex-1 flex-col px-4 py-8 sm:px-6 lg:py-10">
      <header>
        <p className="eyebrow">{t.eyebrow}</p>
        <h1 className="mt-2 text-3xl font-bold tracking-tight text-text">{t.title}</h1>
        <p className="mt-2 max-w-2xl text-sm text-muted sm:text-base">{t.lead}</p>
      </header>

      <div role="tablist" aria-label={t.tabsLabel} className="tabs mt-6" onKeyDown={onKeyDown}>
        {tabs.map((item) => (
          <button
            key={item.key}
            ref={(element) => {
              if (element) tabRefs.current.set(item.key, element);
              else tabRefs.current.delete(item.key);
            }}
            id={tabId(item.key)}
            type="button"
            role="tab"
            aria-selected={tab === item.key}
            aria-controls={panelId}
            tabIndex={tab === item.key ? 0 : -1}
            className="tab"
            onClick={() => choose(item.key)}
          >
            {item.label}
          </button>
        ))}
      </div>

      <div id={panelId} role="tabpanel" aria-labelledby={tabId(tab)} className="mt-5">
        {tab === 'lookups' ? (
          <>
            {supervises && (
              <ScopeSwitch
                value={scope}
                // A case filter reads the same in both lists; a bulk job is one person's.
                onChange={(next) => update({ scope: next, page: 1, jobId: undefined })}
              />
            )}
            <LookupsPanel
              scope={scope}
              page={page}
              kind={kind}
              caseId={caseId}
              jobId={jobId}
              onPageChange={(next) => update({ page: next })}
              onFilterChange={(next) => update({ ...next, page: 1 })}
            />
          </>
        ) : (
          <StatementPanel page={page} onPageChange={(next) => update({ page: next })} />
        )}
      </div>
    </div>
  );
}
