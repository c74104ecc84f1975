import { type BulkPreview, messages } from '@footprint/domain';
import { useEffect, useId, useRef, useState } from 'react';
import { focusElement } from '../../../components/focus.ts';
import { Spinner } from '../../../components/Spinner.tsx';
import { TableScroller } from '../../../components/TableScroller.tsx';
import type { previewView } from '../list.ts';

const t = messages.bulkPage;
/** Invalid rows shown before 'Show all'. */
const INVALID_FOLDED = 10;

export function PreviewSummary({
  preview,
  view,
  starting,
  onStart,
}: {
  preview: BulkPreview;
  view: ReturnType<typeof previewView>;
  starting: boolean;
  onStart: () => void;
}) {
  const id = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  // The summary is the answer to 'Check list': the focus goes on from its heading, not to the page.
  useEffect(() => {
    focusElement(heading.current);
  }, []);
  // A long list of refusals folds after the first few, so Start stays near on a phone.
  const [allInvalid, setAllInvalid] = useState(false);
  const invalidRows = allInvalid ? view.invalidShown : view.invalidShown.slice(0, INVALID_FOLDED);
  const figures: Array<[string, string]> = [
    [t.rowsRead, preview.total.toLocaleString('en-US')],
    [t.willRun, preview.valid.toLocaleString('en-US')],
    [t.duplicates, preview.duplicates.toLocaleString('en-US')],
    [t.invalidCount, preview.invalid.length.toLocaleString('en-US')],
    [t.cost, t.credits(preview.cost)],
    [t.balance, t.credits(preview.balance)],
  ];
  return (
    <section aria-labelledby={`${id}-title`} className="mt-6 border-t border-line pt-5">
      <h3
        ref={heading}
        id={`${id}-title`}
        tabIndex={-1}
        className="scroll-mt-20 text-base font-semibold text-text"
      >
        {t.previewTitle}
      </h3>
      <dl className="mt-3 grid grid-cols-2 gap-2 sm:grid-cols-3 lg:grid-cols-6">
        {figures.map(([label, value]) => (
          <div key={label} className="rounded-lg border border-line/70 bg-night/50 px-3 py-2">
            <dt className="text-[0.7rem] font-medium tracking-wide text-muted uppercase">{label}</dt>
            <dd className="mt-0.5 text-base font-semibold text-text tabular-nums">{value}</dd>
          </div>
        ))}
      </dl>
      <p className="mt-2 text-xs text-muted">{t.costNote(preview.cost_per_row)}</p>

      {view.overBalance && !view.nothingToRun && (
        <p
          role="alert"
          className="mt-3 rounded-lg border border-warning/40 bg-warning/10 px-3 py-2 text-sm text-amber-200"
        >
          {t.overBalance(preview.cost, preview.balance)}
        </p>
      )}
      {view.nothingToRun && (
        <p
          role="alert"
          className="mt-3 rounded-lg border border-danger/40 bg-danger/10 px-3 py-2 text-sm text-rose-200"
        >
          {t.nothingToRun}
        </p>
      )}

      {view.invalidShown.length > 0 && (
        <div className="mt-4">
          <h4 className="text-sm font-semibold text-text">{t.invalidTitle}</h4>
          <div className="mt-2">
            <TableScroller label={t.invalidTitle}>
              <table className="data-table">
                <thead>
                  <tr>
                    <th scope="col" className="text-right">
                      {t.invalidLine}
                    </th>
                    <th scope="col">{t.invalidValue}</th>
                    <th scope="col">{t.invalidWhy}</th>
                  </tr>
                </thead>
                <tbody>
                  {invalidRows.map((row) => (
                    <tr key={`${row.line}-${row.value}`}>
                      <td className="text-right tabular-nums">{row.line}</td>
                      <td>
                        <span className="cell-clip font-mono" title={row.value}>
                          {row.value || '—'}
                        </span>
                      </td>
                      <td>{row.error}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableScroller>
          </div>
          {invalidRows.length < view.invalidShown.length && (
            <button type="button" className="btn-chip mt-2" onClick={() => setAllInvalid(true)}>
              {t.invalidShowAll(view.invalidShown.length)}
            </button>
          )}
          {view.invalidMore > 0 && (
            <p className="mt-2 text-xs text-muted">{t.invalidMore(view.invalidMore)}</p>
          )}
        </div>
      )}

      {!view.nothingToRun && (
        <div className="mt-5 flex flex-wrap items-center gap-3">
          <button
            type="button"
            className="btn-primary min-h-11"
            aria-disabled={starting || undefined}
            onClick={onStart}
          >
            {starting && <Spinner size="sm" decorative />}
            {starting ? t.starting : t.start}
          </button>
        </div>
      )}
    </section>
  );
}
