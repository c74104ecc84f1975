import {
  type CaseDetail,
  type CaseEntity,
  ENTITY_LABELS,
  ENTITY_TYPES,
  type EntityType,
  isLive,
  messages,
  type Pivot,
  pivotOf,
} from '@footprint/domain';
import { lazy, Suspense, useId, useMemo, useState } from 'react';
import { Link } from 'react-router';
import { paths } from '../../../config/paths.ts';
import { useAuth } from '../../../lib/auth-context.ts';
import { PivotButton } from './PivotButton.tsx';
import { PivotDialog } from './PivotDialog.tsx';

const t = messages.cases;
/** The graph library loads only when the graph is asked for. */
const CaseGraph = lazy(() => import('./CaseGraph.tsx'));

export function Entities({ detail }: { detail: CaseDetail }) {
  const entities = detail.entities;
  const id = useId();
  const { user } = useAuth();
  const [pivoting, setPivoting] = useState<{ entity: CaseEntity; pivot: Pivot } | null>(null);
  const [graph, setGraph] = useState(false);
  const pivotFor = (entity: CaseEntity): Pivot | null => {
    if (detail.status !== 'open') return null;
    const pivot = pivotOf(entity.type, entity.value, detail.reference);
    return pivot && (!pivot.liveOnly || isLive(user)) ? pivot : null;
  };
  const [type, setType] = useState<EntityType | ''>('');
  const present = useMemo(() => ENTITY_TYPES.filter((ty) => entities.some((e) => e.type === ty)), [entities]);
  const shown = type ? entities.filter((e) => e.type === type) : entities;
  const groups = ENTITY_TYPES.map((ty) => ({ type: ty, list: shown.filter((e) => e.type === ty) })).filter(
    (g) => g.list.length > 0,
  );

  return (
    <section aria-labelledby={`${id}-title`} className="card px-4 py-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id={`${id}-title`} className="text-lg font-semibold text-text">
          {t.entitiesTitle} <span className="section-count">{entities.length}</span>
        </h2>
        {entities.length > 0 && (
          <div className="flex items-center gap-2">
            <button
              type="button"
              className="btn-chip"
              aria-pressed={graph}
              onClick={() => setGraph((on) => !on)}
            >
              {t.showGraph}
            </button>
            <label htmlFor={`${id}-type`} className="text-sm text-muted">
              {t.entityType}
            </label>
            <select
              id={`${id}-type`}
              className="input min-h-9 w-auto py-1"
              value={type}
              onChange={(event) => setType(event.target.value as EntityType | '')}
            >
              <option value="">{t.allTypes}</option>
              {present.map((ty) => (
                <option key={ty} value={ty}>
                  {ENTITY_LABELS[ty]}
                </option>
              ))}
            </select>
          </div>
        )}
      </div>
      <p className="mt-1 text-sm text-muted">{t.entitiesLead}</p>
      {graph && entities.length > 0 && (
        <Suspense fallback={<p className="mt-3 text-sm text-muted">{t.graphLoading}</p>}>
          <CaseGraph detail={detail} type={type} />
        </Suspense>
      )}
      {entities.length === 0 ? (
        <p className="mt-2 text-sm text-muted">{t.entitiesEmpty}</p>
      ) : (
        <div className="mt-3 flex flex-col gap-4">
          {groups.map((group) => (
            <div key={group.type}>
              <h3 className="text-sm font-semibold text-text">
                {ENTITY_LABELS[group.type]} <span className="section-count">{group.list.length}</span>
              </h3>
              <ul className="mt-1 divide-y divide-line/70" aria-label={ENTITY_LABELS[group.type]}>
                {group.list.map((entity) => (
                  <li key={`${entity.type}:${entity.value}`} className="py-2">
                    <div className="flex flex-wrap items-baseline gap-2">
                      <span className="break-all font-medium text-text">{entity.value}</span>
                      {entity.corroborated && (
                        <span className="status-badge chip-emerald">{t.corroborated}</span>
                      )}
                      <PivotButton
                        pivot={pivotFor(entity)}
                        value={entity.value}
                        onPick={(pivot) => setPivoting({ entity, pivot })}
                      />
                    </div>
                    <p className="text-xs text-muted">
                      {t.foundBy(entity.sources.length, entity.items.length)}: {entity.sources.join(', ')}
                    </p>
                    {entity.other_cases.length > 0 && (
                      <p className="text-xs text-muted">
                        {t.seenIn}{' '}
                        {entity.other_cases.map((other, index) => (
                          <span key={other.id}>
                            {index > 0 && ', '}
                            <Link to={paths.case(other.id)} className="link-inline">
                              {other.title}
                            </Link>
                          </span>
                        ))}
                      </p>
                    )}
                  </li>
                ))}
              </ul>
            </div>
          ))}
        </div>
      )}
      {pivoting && (
        <PivotDialog
          reference={detail.reference}
          value={pivoting.entity.value}
          pivot={pivoting.pivot}
          onClose={() => setPivoting(null)}
        />
      )}
    </section>
  );
}
