import {
  type DetailKind,
  detailFacts,
  detailListIsEmpty,
  layoutRecord,
  layoutSize,
  messages,
  type RecordLayout,
} from '@footprint/domain';
import { Modal } from '../../../components/Modal.tsx';
import { RecordTables } from '../../../components/RecordTables.tsx';
import { SandboxBanner } from '../../../components/SandboxBanner.tsx';
import { Spinner } from '../../../components/Spinner.tsx';
import { saveBlob } from '../../../lib/api.ts';
import { type AnsweredLine, answeredLineOf } from '../answered.ts';
import { useGenerateDetailReport } from '../api/generateDetailReport.ts';
import { fileSafe } from '../format.ts';
import type { DetailSelection } from './useDetailLookups.ts';

/** The record's rows and tables in the domain's curated order and format; nothing for an empty list. */
function layoutOf(kind: DetailKind, record: unknown): RecordLayout {
  if (detailListIsEmpty(kind, record)) return { rows: [], tables: [] };
  return layoutRecord(record, kind);
}

function Rows({ rows, title }: { rows: RecordLayout['rows']; title?: string }) {
  return (
    <section className="rounded-xl border border-line bg-night/50">
      {title && (
        <h3 className="border-b border-line px-3 py-2 text-xs font-semibold tracking-wide text-accent uppercase">
          {title}
        </h3>
      )}
      <dl className="divide-y divide-line/60">
        {rows.map((row) => (
          <div key={row.path} className="grid gap-1 px-3 py-2 sm:grid-cols-[minmax(9rem,38%)_1fr] sm:gap-3">
            <dt className="text-xs leading-5 text-muted">{row.label}</dt>
            <dd className="min-w-0 text-sm break-words text-text">{row.value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

/**
 * The modal's description: the id and, compactly under it, when the source answered ('Answered …' or
 * 'Answered …, reused' with the case reference of the lookup it reuses).
 */
function Described({ id, line }: { id: string; line: AnsweredLine | null }) {
  if (!line) return id;
  return (
    <>
      <span className="block truncate">{id}</span>
      <time dateTime={line.iso} title={line.title} className="block truncate text-xs">
        {line.reusedCase ? `${line.text} · ${line.reusedCase}` : line.text}
      </time>
    </>
  );
}

/**
 * 'RC Details', 'UPI Details' and 'Challan Details' (spec §2.5): the sandbox banner when the record is
 * synthetic, key/value rows in the domain's curated order and format (without empty, n/a or client id
 * values), lists of records (challans) as tables, '⚠ No {TYPE} data available.' when there is nothing, 'Download pdf' (not for a
 * challan answer without challans; its failure is silent, spec §8) and 'Close'. Under the id, when the
 * source answered; with `refresh`, a loaded answer offers 'Refresh' (its confirmation is the page's).
 */
export function DetailModal({
  selection,
  onClose,
  refresh,
}: {
  selection: DetailSelection;
  onClose: () => void;
  refresh?: { onClick: () => void; busy: boolean };
}) {
  const { kind, id, status, record, synthetic } = selection;
  const facts = detailFacts(kind);
  const pdf = useGenerateDetailReport();
  const line = answeredLineOf(selection.answered);
  const layout = status === 'loaded' ? layoutOf(kind, record) : { rows: [], tables: [] };
  const shown = layoutSize(layout) > 0;
  const canDownload = status === 'loaded' && shown;

  const download = async () => {
    try {
      const blob = await pdf.mutateAsync({ kind, data: record });
      saveBlob(blob, `${kind}-details-${fileSafe(id)}.pdf`);
    } catch {
      // Spec §8: a failed RC, UPI or challan PDF is silent.
    }
  };

  return (
    <Modal
      title={facts.title}
      description={<Described id={id} line={line} />}
      onClose={onClose}
      size="lg"
      actions={
        <>
          {refresh && status === 'loaded' && (
            <button type="button" className="btn-ghost" onClick={refresh.onClick} disabled={refresh.busy}>
              {refresh.busy && <Spinner size="sm" decorative />}
              {refresh.busy ? messages.answerTime.refreshing : messages.answerTime.refresh}
            </button>
          )}
          {canDownload && (
            <button
              type="button"
              className="btn-primary"
              onClick={() => void download()}
              disabled={pdf.isPending}
            >
              {pdf.isPending ? <Spinner size="sm" decorative /> : null}
              {pdf.isPending ? messages.results.generating : messages.details.downloadPdf}
            </button>
          )}
        </>
      }
    >
      <div aria-live="polite" aria-busy={status === 'loading'} className="min-h-40">
        {status === 'loading' && (
          <div className="flex min-h-40 flex-col items-center justify-center gap-3 text-sm text-muted">
            <Spinner label={messages.results.fetching(facts.title)} />
            <span aria-hidden="true">{messages.results.fetching(facts.title)}…</span>
          </div>
        )}
        {status !== 'loading' && !shown && (
          <div className="flex min-h-40 flex-col items-center justify-center gap-1 text-center text-sm">
            <p className="font-medium text-warning">{messages.details.noData(facts.label)}</p>
            {status === 'loaded' && selection.noRecord && (
              <p className="text-muted">{messages.details.noRecordFree}</p>
            )}
          </div>
        )}
        {shown && synthetic && <SandboxBanner className="mb-3" />}
        {shown && (
          <div className="min-w-0 space-y-3">
            {layout.rows.length > 0 && <Rows rows={layout.rows} title={facts.list?.title} />}
            <RecordTables tables={layout.tables} />
          </div>
        )}
      </div>
    </Modal>
  );
}
