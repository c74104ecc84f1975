import { type ExtraRecord, messages } from '@footprint/domain';
import { useId, useState } from 'react';
import { Chevron } from '../../../components/Icon.tsx';
import { RemoteImage } from './ProfileImages.tsx';

function RecordCard({ record, index }: { record: ExtraRecord; index: number }) {
  const [open, setOpen] = useState(false);
  const id = useId();
  const name = record.name ?? messages.results.unknownUser;
  return (
    <li className="card flex flex-col p-4">
      <div className="flex items-start gap-3">
        <RemoteImage
          src={record.image}
          alt={record.image ? messages.results.recordImage(name, index + 1) : ''}
          className="size-12 shrink-0 rounded-xl border border-line object-cover"
        />
        <div className="min-w-0 flex-1">
          <h3
            className={`text-sm font-semibold break-words ${record.name ? 'text-text' : 'text-muted italic'}`}
          >
            {name}
          </h3>
          <dl className="mt-1 space-y-0.5 text-sm">
            {record.phone && (
              <div className="flex gap-2">
                <dt className="w-12 shrink-0 text-xs leading-5 text-muted">{messages.results.phone}</dt>
                <dd className="min-w-0 font-mono text-[0.8rem] break-all text-text/90">{record.phone}</dd>
              </div>
            )}
            {record.email && (
              <div className="flex gap-2">
                <dt className="w-12 shrink-0 text-xs leading-5 text-muted">{messages.results.email}</dt>
                <dd className="min-w-0 break-all text-text/90">{record.email}</dd>
              </div>
            )}
          </dl>
        </div>
      </div>
      {record.additional.length > 0 && (
        <div className="pt-3">
          <div className="border-t border-line/70 pt-2">
            <button
              type="button"
              aria-expanded={open}
              aria-controls={`${id}-more`}
              onClick={() => setOpen((value) => !value)}
              className="flex w-full items-center justify-between rounded-lg px-1 py-1 text-left text-xs font-semibold tracking-wide text-accent uppercase hover:text-accent-strong"
            >
              {messages.results.additionalInformation}
              <span className="flex items-center gap-1 text-muted normal-case">
                {record.additional.length}
                <Chevron open={open} />
              </span>
            </button>
            {open && (
              // Spec §9: the expanded panel is at most 500px tall and scrolls within.
              <dl id={`${id}-more`} tabIndex={0} className="additional-panel">
                {record.additional.map(([label, value], row) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: labels may repeat
                  <div key={row} className="grid grid-cols-[minmax(6rem,35%)_1fr] gap-3 py-1.5">
                    <dt className="text-xs leading-5 text-muted">{label}</dt>
                    <dd className="min-w-0 text-sm break-words text-text/90">{value}</dd>
                  </div>
                ))}
              </dl>
            )}
          </div>
        </div>
      )}
    </li>
  );
}

/** The OSINT records as cards (spec §2.5): two per row from medium screens. */
export function RecordCards({ records }: { records: ExtraRecord[] }) {
  const id = useId();
  if (records.length === 0) return null;
  return (
    <section aria-labelledby={id} className="space-y-3">
      <h2 id={id} className="results-heading">
        {messages.results.records}
        <span className="section-count">{records.length}</span>
      </h2>
      <ul className="grid items-start gap-3 md:grid-cols-2">
        {records.map((record, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: records have no id and never reorder
          <RecordCard key={index} record={record} index={index} />
        ))}
      </ul>
    </section>
  );
}
