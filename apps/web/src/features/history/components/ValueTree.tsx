import { DETAIL_HIDDEN_KEYS, detailLabel, isHiddenDetailString, isRecord, messages } from '@footprint/domain';

/**
 * A stored answer of any shape as nested label/value lists. Values are shown as text only (never as
 * HTML); empty and 'n/a' values and the vendor's client id are left out, as the detail modals do; long
 * lists are cut so that a large answer cannot stall the page.
 */

const MAX_ITEMS = 50;
const MAX_DEPTH = 6;

type Json = unknown;

function isShown(value: Json): boolean {
  if (value === null || value === undefined) return false;
  if (typeof value === 'string') return !isHiddenDetailString(value);
  if (Array.isArray(value)) return value.some(isShown);
  if (isRecord(value))
    return Object.entries(value).some(([k, v]) => !DETAIL_HIDDEN_KEYS.has(k) && isShown(v));
  return true;
}

const scalar = (value: Json): string => {
  if (typeof value === 'boolean') return value ? messages.history.yes : messages.history.no;
  if (typeof value === 'number') return value.toLocaleString('en-US');
  return String(value);
};

const isScalar = (value: Json) => !isRecord(value) && !Array.isArray(value);

/**
 * Vendor envelopes ({ data: { data: {...}, status_code, success } }) are unwrapped to their record; the
 * answer's own fields beside it (the balance, the lookup id, the sandbox mark, the source statuses) are
 * not part of the record.
 */
const envelopeKeys = new Set([
  'data',
  'status_code',
  'success',
  'message',
  'message_code',
  'credits',
  'lookup_id',
  'cached',
  'sandbox',
  'source_status',
]);
export function unwrapResult(value: Json): Json {
  let current = value;
  for (let i = 0; i < 3; i += 1) {
    if (!isRecord(current) || !('data' in current)) break;
    if (!Object.keys(current).every((key) => envelopeKeys.has(key))) break;
    const inner = current.data;
    if (!isRecord(inner) && !Array.isArray(inner)) break;
    current = inner;
  }
  return current;
}

function Entries({ value, depth }: { value: Json; depth: number }) {
  if (isScalar(value)) return <span className="break-words">{scalar(value)}</span>;
  if (depth >= MAX_DEPTH) return <span className="text-muted">…</span>;

  if (Array.isArray(value)) {
    const items = value.filter(isShown);
    if (items.every(isScalar)) {
      const shown = items.slice(0, MAX_ITEMS).map(scalar).join(', ');
      return (
        <span className="break-words">
          {shown}
          {items.length > MAX_ITEMS ? ` … ${messages.history.more(items.length - MAX_ITEMS)}` : ''}
        </span>
      );
    }
    return (
      <ol className="space-y-2">
        {items.slice(0, MAX_ITEMS).map((item, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: a stored answer's items have no identity of their own.
          <li key={index} className="value-tree-item">
            <p className="value-tree-index">#{index + 1}</p>
            <Entries value={item} depth={depth + 1} />
          </li>
        ))}
        {items.length > MAX_ITEMS && (
          <li className="text-xs text-muted">{messages.history.more(items.length - MAX_ITEMS)}</li>
        )}
      </ol>
    );
  }

  const entries = Object.entries(value as Record<string, Json>).filter(
    ([key, item]) => !DETAIL_HIDDEN_KEYS.has(key) && isShown(item),
  );
  return (
    <dl className="value-tree">
      {entries.slice(0, MAX_ITEMS * 2).map(([key, item]) => (
        <div key={key} className={isScalar(item) ? 'value-tree-row' : 'value-tree-group'}>
          <dt className="value-tree-key">{detailLabel(key)}</dt>
          <dd className="value-tree-value">
            <Entries value={item} depth={depth + 1} />
          </dd>
        </div>
      ))}
    </dl>
  );
}

export function ValueTree({ value, emptyText }: { value: Json; emptyText: string }) {
  const unwrapped = unwrapResult(value);
  if (!isShown(unwrapped)) return <p className="text-sm text-muted">{emptyText}</p>;
  return (
    <div className="text-sm text-text">
      <Entries value={unwrapped} depth={0} />
    </div>
  );
}
