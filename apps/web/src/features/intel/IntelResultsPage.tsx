import {
  filterLayout,
  findIntelType,
  type IntelArea,
  layoutRecord,
  layoutSize,
  messages,
  type RecordRow,
} from '@footprint/domain';
import { type ReactNode, useCallback, useDeferredValue, useId, useMemo, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { AddToCaseButton } from '../../components/AddToCaseButton.tsx';
import { CopyButton } from '../../components/CopyButton.tsx';
import { Icon } from '../../components/Icon.tsx';
import { RecordTables } from '../../components/RecordTables.tsx';
import { SandboxBanner } from '../../components/SandboxBanner.tsx';
import { SaveMenu } from '../../components/SaveMenu.tsx';
import { useToastClearance } from '../../components/useToastClearance.ts';
import { paths } from '../../config/paths.ts';
import { useAuth } from '../../lib/auth-context.ts';
import { readIntelResultsState } from './intelState.ts';

/**
 * /corporate-results and /verification-results (spec §2.7, §2.8): the answer handed over in navigation
 * state, laid out by the domain's layoutRecord: label/value lines in the curated order and format (empty
 * and N/A values hidden), lists of records (GST filings, directors, employment history) as tables that
 * scroll sideways on a phone, with a search box that narrows the lines and table rows. No state,
 * a 422 or an answer with nothing to show gives 'No data found for this search.'.
 */

const config: Record<IntelArea, { title: string; eyebrow: string; form: string }> = {
  corporate: {
    title: messages.intelPages.corporateResultTitle,
    eyebrow: messages.intelPages.corporateEyebrow,
    form: paths.corporate,
  },
  verification: {
    title: messages.intelPages.verificationResultTitle,
    eyebrow: messages.intelPages.verificationEyebrow,
    form: paths.verification,
  },
};

const icons = {
  back: 'M15 6l-6 6 6 6',
  search: 'M11 4.5a6.5 6.5 0 1 0 0 13 6.5 6.5 0 0 0 0-13zM20 20l-4.2-4.2',
  coins:
    'M12 4c4.4 0 8 1.3 8 3s-3.6 3-8 3-8-1.3-8-3 3.6-3 8-3zM4 7v5c0 1.7 3.6 3 8 3s8-1.3 8-3V7M4 12v5c0 1.7 3.6 3 8 3s8-1.3 8-3v-5',
};

/** Marks where the search text occurs in a label or value (case-insensitive), as text only. */
function Highlighted({ text, query }: { text: string; query: string }) {
  const needle = query.trim().toLowerCase();
  if (!needle) return <>{text}</>;
  const parts: ReactNode[] = [];
  const haystack = text.toLowerCase();
  let from = 0;
  for (let at = haystack.indexOf(needle); at !== -1; at = haystack.indexOf(needle, from)) {
    if (at > from) parts.push(text.slice(from, at));
    parts.push(
      <mark key={at} className="rounded-sm bg-accent/25 px-px text-text">
        {text.slice(at, at + needle.length)}
      </mark>,
    );
    from = at + needle.length;
  }
  if (from < text.length) parts.push(text.slice(from));
  return <>{parts}</>;
}

/** Goes one page back (spec: 'Try another search', 'New Search'); opened in a fresh tab, to the form. */
function useBack(fallback: string) {
  const navigate = useNavigate();
  return useCallback(() => {
    const index = (window.history.state as { idx?: number } | null)?.idx ?? 0;
    if (index > 0) void navigate(-1);
    else void navigate(fallback);
  }, [navigate, fallback]);
}

function EmptyResults({ area }: { area: IntelArea }) {
  const back = useBack(config[area].form);
  return (
    <div className="flex flex-1 flex-col items-center justify-center px-4 py-16 text-center">
      <span className="flex size-16 items-center justify-center rounded-full bg-surface-2 text-muted">
        <Icon d={icons.search} className="size-8" />
      </span>
      <p className="eyebrow mt-6">{config[area].title}</p>
      <h1 className="mt-3 text-2xl font-bold tracking-tight text-text">
        {messages.intelPages.noDataForSearch}
      </h1>
      <button type="button" className="btn-primary mt-8" onClick={back}>
        <Icon d={icons.back} />
        {messages.intelPages.tryAnother}
      </button>
    </div>
  );
}

function ResultLines({ lines, query }: { lines: readonly RecordRow[]; query: string }) {
  return (
    <dl className="intel-lines">
      {lines.map((line) => (
        <div key={line.path} className="intel-line">
          <dt className="intel-line-label" title={line.path}>
            <Highlighted text={line.label} query={query} />
          </dt>
          <dd className="intel-line-value">
            <Highlighted text={line.value} query={query} />
          </dd>
        </div>
      ))}
    </dl>
  );
}

export function IntelResultsPage({ area }: { area: IntelArea }) {
  const location = useLocation();
  const { user } = useAuth();
  const state = useMemo(() => readIntelResultsState(area, location.state), [area, location.state]);
  const layout = useMemo(
    () => (state?.data ? layoutRecord(state.data, `${area}:${state.type}`) : { rows: [], tables: [] }),
    [area, state],
  );
  const total = layoutSize(layout);
  const [query, setQuery] = useState('');
  const deferredQuery = useDeferredValue(query);
  const shown = useMemo(() => filterLayout(layout, deferredQuery), [layout, deferredQuery]);
  const shownCount = layoutSize(shown);
  const back = useBack(config[area].form);
  const id = useId();
  const toastClearance = useToastClearance();

  if (!state || total === 0) return <EmptyResults area={area} />;

  const type = findIntelType(area, state.type);
  // The searched value: the type's text-like inputs as sent, in the form's order.
  const searched = (type?.fields ?? [])
    .filter((field) => ['text', 'mobile', 'pan', 'date'].includes(field.kind))
    .map((field) => state.input[field.name])
    .filter((value): value is string => typeof value === 'string' && value !== '');
  const display = searched.join(' · ') || state.type;
  const filterId = `${id}-filter`;
  const countId = `${id}-count`;

  return (
    <div className="flex flex-1 flex-col">
      <div className="results-bar" ref={toastClearance}>
        <div className="mx-auto flex w-full max-w-5xl flex-wrap items-center gap-x-4 gap-y-3 px-4 py-3 sm:px-6">
          <div className="flex min-w-0 flex-1 basis-64 items-center gap-3">
            <div className="min-w-0">
              <p className="text-[0.7rem] font-semibold tracking-[0.16em] text-muted uppercase">
                {config[area].eyebrow} · {type?.label ?? state.type}
              </p>
              <p className="truncate font-mono text-base font-semibold text-text sm:text-lg" title={display}>
                {display}
              </p>
            </div>
            <CopyButton text={searched[0] ?? display} label={messages.intelPages.copySearched} />
          </div>
          <div className="grid w-full grid-cols-2 items-center gap-2 sm:flex sm:w-auto sm:flex-wrap">
            {user && (
              <p className="hidden items-center gap-1.5 rounded-full border border-accent/30 bg-accent-soft/40 px-3 py-1.5 text-sm font-semibold whitespace-nowrap text-accent sm:inline-flex">
                <Icon d={icons.coins} />
                {messages.credits.label(user.credits)}
              </p>
            )}
            <AddToCaseButton lookupId={state.lookupId} className="w-full sm:w-auto" />
            <SaveMenu lookupId={state.lookupId} className="w-full sm:w-auto" />
            <button type="button" className="btn-primary col-span-2 w-full sm:w-auto" onClick={back}>
              <Icon d={icons.back} />
              {messages.results.newSearch}
            </button>
          </div>
        </div>
      </div>

      <div className="mx-auto w-full max-w-5xl px-4 py-6 sm:px-6 lg:py-8">
        <div className="flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
          <div>
            <h1 className="text-2xl font-bold tracking-tight text-text sm:text-3xl">{config[area].title}</h1>
            <p id={countId} className="mt-1 text-sm text-muted tabular-nums" aria-live="polite">
              {messages.intelPages.lineCount(shownCount, total)}
            </p>
          </div>
          <div className="w-full sm:w-80">
            <label htmlFor={filterId} className="label">
              {messages.intelPages.filterLabel}
            </label>
            <div className="relative">
              <span className="pointer-events-none absolute inset-y-0 left-3 flex items-center text-muted">
                <Icon d={icons.search} />
              </span>
              <input
                id={filterId}
                type="search"
                autoComplete="off"
                spellCheck={false}
                placeholder={messages.intelPages.filterPlaceholder}
                value={query}
                onChange={(event) => setQuery(event.target.value)}
                aria-describedby={countId}
                className="input min-h-11 pl-9 text-base sm:text-sm"
              />
            </div>
          </div>
        </div>

        {state.sandbox && <SandboxBanner className="mt-4" />}

        <section aria-labelledby={`${id}-heading`} className="card mt-5 p-2 sm:p-3">
          <h2 id={`${id}-heading`} className="sr-only">
            {config[area].title}
          </h2>
          {shownCount > 0 ? (
            <>
              {shown.rows.length > 0 && <ResultLines lines={shown.rows} query={deferredQuery} />}
              <RecordTables
                tables={shown.tables}
                show={(text) => <Highlighted text={text} query={deferredQuery} />}
              />
            </>
          ) : (
            <p className="px-3 py-8 text-center text-sm text-muted">
              {messages.intelPages.noMatch(deferredQuery.trim())}
            </p>
          )}
        </section>
      </div>
    </div>
  );
}
