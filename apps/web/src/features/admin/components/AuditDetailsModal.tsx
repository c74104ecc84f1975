import { type AuditEvent, messages } from '@footprint/domain';
import { Modal } from '../../../components/Modal.tsx';
import { formatDateTime } from '../../../lib/datetime.ts';

const t = messages.admin;
const a = t.audit;

export function AuditDetailsModal({ event, onClose }: { event: AuditEvent; onClose: () => void }) {
  const rows: Array<[string, string]> = [
    [a.time, `${formatDateTime(event.at, true)} (${event.at})`],
    [a.actor, event.actor_email ?? event.user_id ?? t.none],
    [a.action, event.action],
    [a.outcome, a.outcomes[event.outcome] ?? event.outcome],
    [a.target, event.target ?? t.none],
    ...(event.query_typed
      ? ([
          [a.queryTyped, event.query_typed],
          [a.queryNormalized, event.query_normalized ?? t.none],
        ] as Array<[string, string]>)
      : []),
    [a.cost, event.cost === null ? t.none : String(event.cost)],
    [a.caseReference, event.case_reference ?? t.none],
    [a.ip, event.ip ?? t.none],
    [a.device, event.device_id ?? t.none],
  ];
  return (
    <Modal title={a.detailsTitle(event.action)} onClose={onClose} size="lg">
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1.5 text-sm">
        {rows.map(([label, value]) => (
          <div key={label} className="contents">
            <dt className="text-muted">{label}</dt>
            <dd className="wrap-anywhere text-text">{value}</dd>
          </div>
        ))}
      </dl>
      {event.details && Object.keys(event.details).length > 0 && (
        <>
          <h3 className="mt-5 mb-2 text-xs font-semibold tracking-wide text-muted uppercase">{a.details}</h3>
          {/* Long details scroll inside their box: it takes the focus, so the keyboard can scroll it. */}
          <pre
            // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard.
            tabIndex={0}
            className="max-h-80 overflow-auto rounded-lg bg-night px-3 py-2 font-mono text-xs whitespace-pre-wrap break-all text-text"
          >
            {JSON.stringify(event.details, null, 2)}
          </pre>
        </>
      )}
    </Modal>
  );
}
