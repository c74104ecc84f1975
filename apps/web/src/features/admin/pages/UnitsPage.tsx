import { messages, type Unit } from '@footprint/domain';
import { type ReactNode, useEffect, useMemo, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { LoadError, LoadingBlock } from '../../../components/LoadError.tsx';
import { useAuth } from '../../../lib/auth-context.ts';
import { useUnits } from '../../../lib/units.ts';
import { useRetentionCeiling } from '../api/units.ts';
import { ScreenHeader } from '../components/ScreenHeader.tsx';
import { LevelsCard } from '../components/units/LevelsCard.tsx';
import { MembersPanel } from '../components/units/MembersPanel.tsx';
import { PoolPanel } from '../components/units/PoolPanel.tsx';
import { type UnitAction, UnitActionDialog } from '../components/units/UnitDialogs.tsx';
import { UnitTreeList } from '../components/units/UnitTreeList.tsx';
import { buildTree, deepestLevel } from '../units-tree.ts';

const t = messages.units.admin;

/**
 * /admin/units: the names of the tree's levels, the tree (add below, rename, move, set the retention
 * period within the deployment's, delete), and the members of the unit chosen in it (add by e-mail
 * with a role, change a role, remove; their monthly allowances from the unit's credit pool), and that
 * pool (its balance, an admin's top-up or deduction, its statement). The chosen unit lives in the
 * address (?unit=), so a reload or Back shows the same members.
 */
export default function UnitsPage() {
  const units = useUnits();
  const { user } = useAuth();
  const [params, setParams] = useSearchParams();
  const selected = params.get('unit') ?? undefined;
  const [action, setAction] = useState<UnitAction | null>(null);
  const membersHeading = useRef<HTMLHeadingElement>(null);
  /** Set by a choice in the tree: the members' heading takes the focus once they are on screen. */
  const focusMembers = useRef(false);
  const data = units.data;
  const tree = useMemo(() => buildTree(data?.units ?? []), [data]);
  // Only an admin (who builds the tree) reads the deployment's settings and sets a unit's period.
  const ceiling = useRetentionCeiling(data?.edits_tree === true).data ?? null;

  const select = (unit: Unit | null, focus = true) => {
    const next = new URLSearchParams(params);
    if (unit) next.set('unit', unit.id);
    else next.delete('unit');
    // The members answer the choice: the focus goes to their heading (on a phone, below the tree).
    focusMembers.current = unit !== null && focus;
    if (unit && unit.id === selected) membersHeading.current?.focus();
    else setParams(next, { replace: true });
  };

  useEffect(() => {
    if (!selected || !focusMembers.current) return;
    focusMembers.current = false;
    membersHeading.current?.focus();
  }, [selected]);

  let body: ReactNode;
  if (units.isPending) body = <LoadingBlock />;
  else if (!data)
    body = (
      <LoadError
        message={messages.admin.loadFailed}
        retryLabel={messages.admin.retry}
        onRetry={() => void units.refetch()}
        retrying={units.isFetching}
      />
    );
  else {
    const shown = selected && tree.byId.has(selected) ? selected : undefined;
    body = (
      <>
        {data.edits_tree && (
          <LevelsCard key={data.levels.join('\n')} levels={data.levels} deepest={deepestLevel(data.units)} />
        )}
        <div className="grid items-start gap-5 2xl:grid-cols-[minmax(0,1fr)_minmax(0,1fr)]">
          <section aria-labelledby="units-tree-title" className="card min-w-0 px-3 py-4 sm:px-5">
            <div className="flex flex-wrap items-start justify-between gap-3 px-1">
              <div className="min-w-0">
                <h2 id="units-tree-title" className="text-lg font-semibold text-text">
                  {t.treeTitle}
                </h2>
                <p className="mt-1 text-sm text-muted">
                  {t.treeLead} <span className="tabular-nums">{t.treeCount(data.units.length)}</span>
                </p>
              </div>
              {data.edits_tree && data.levels.length > 0 && (
                <button
                  type="button"
                  className="btn-ghost min-h-9 px-3 py-1.5"
                  onClick={() => setAction({ kind: 'add', parent: null })}
                >
                  {t.addTop}
                </button>
              )}
            </div>
            <div className="mt-3">
              {data.units.length === 0 ? (
                <p className="px-1 py-6 text-center text-sm text-muted">{t.treeEmpty}</p>
              ) : (
                <UnitTreeList
                  tree={tree}
                  levels={data.levels.length}
                  selected={shown}
                  editable={data.edits_tree}
                  ceiling={ceiling}
                  onSelect={(unit) => select(unit)}
                  onAction={setAction}
                />
              )}
            </div>
          </section>
          {shown ? (
            <div className="min-w-0 space-y-5">
              <MembersPanel
                key={shown}
                unitId={shown}
                headingRef={membersHeading}
                onClose={() => {
                  select(null);
                  requestAnimationFrame(() =>
                    document.querySelector<HTMLElement>(`[aria-describedby="unit-${shown}-meta"]`)?.focus(),
                  );
                }}
              />
              <PoolPanel key={`pool-${shown}`} unitId={shown} />
            </div>
          ) : (
            <p className="card hidden px-4 py-10 text-center text-sm text-muted 2xl:block">{t.noSelection}</p>
          )}
        </div>
        {action && (
          <UnitActionDialog
            action={action}
            tree={tree}
            levels={data.levels}
            ceiling={ceiling}
            onClose={() => setAction(null)}
            onCreated={(unit) => select(unit, false)}
            onDeleted={(unit) => {
              if (unit.id === shown) select(null);
            }}
          />
        )}
      </>
    );
  }

  return (
    <div className="space-y-5">
      <ScreenHeader
        title={t.title}
        lead={t.lead(data?.levels ?? [], data?.edits_tree ?? user?.role === 'admin')}
      />
      {body}
    </div>
  );
}
