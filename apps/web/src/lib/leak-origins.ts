/**
 * Federated leak results: where each record was found (its origins) and how each origin answered the
 * search, as short texts for the record cards and the results' status line. Answers are read
 * defensively: a stored page from before federation has no origins, and the server is not trusted to
 * send only known statuses.
 */
import {
  LEAK_ORIGIN_STATUSES,
  type LeakOrigin,
  type LeakOriginState,
  type LeakOriginStatus,
  messages,
} from '@footprint/domain';

const t = messages.leaks;

const isOrigin = (value: unknown): value is LeakOrigin =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as LeakOrigin).name === 'string' &&
  (value as LeakOrigin).name.trim() !== '' &&
  ((value as LeakOrigin).kind === 'local' || (value as LeakOrigin).kind === 'vendor');

/** The origins of a record, each once (none for records stored before federation). */
export function originsOf(record: { origins?: unknown }): LeakOrigin[] {
  if (!Array.isArray(record.origins)) return [];
  const seen = new Set<string>();
  return record.origins.filter(isOrigin).filter((origin) => {
    const key = `${origin.kind}:${origin.name}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** Statuses that mean the origin gave nothing because something went wrong (shown as warnings). */
const TROUBLE: ReadonlySet<LeakOriginState> = new Set(['rate_limited', 'failed', 'timed_out']);

export interface OriginStatusPart {
  name: string;
  /** 'Local index: 12', 'LeakCheck: rate limited'. */
  text: string;
  /** True when the origin could not answer (rate limited, unavailable, timed out). */
  trouble: boolean;
}

/**
 * One part per origin that answered the search: its name and its record count, or what kept it from
 * answering. `capped` marks the local count as a lower bound (more matches than the cap).
 */
export function originStatusParts(statuses: unknown, capped = false): OriginStatusPart[] {
  if (!Array.isArray(statuses)) return [];
  return statuses.flatMap((entry): OriginStatusPart[] => {
    if (!isOrigin(entry)) return [];
    const { status, records } = entry as Partial<LeakOriginStatus>;
    if (!status || !(LEAK_ORIGIN_STATUSES as readonly string[]).includes(status)) return [];
    const count = typeof records === 'number' && Number.isFinite(records) ? Math.max(0, records) : 0;
    const shown =
      status === 'ok'
        ? t.originStatus.ok(`${count.toLocaleString('en-US')}${capped && entry.kind === 'local' ? '+' : ''}`)
        : t.originStatus[status];
    return [{ name: entry.name, text: `${entry.name}: ${shown}`, trouble: TROUBLE.has(status) }];
  });
}
