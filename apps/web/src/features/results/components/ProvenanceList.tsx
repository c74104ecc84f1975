import { formatAnsweredAt, messages, type Provenance } from '@footprint/domain';

const t = messages.results;

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

export function ProvenanceList({ id, items }: { id: string; items: Provenance[] }) {
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
                {item.vendor && item.vendor !== item.name && (
                  <span className="text-muted">{item.vendor} · </span>
                )}
                <span className="font-medium">{item.name}</span>
                {item.via && <span className="text-muted"> {t.via(item.via)}</span>}
              </li>
            ))}
          </ul>
        </div>
      ))}
    </div>
  );
}
