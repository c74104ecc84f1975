import { type ExportFormat, messages } from '@footprint/domain';
import { useId, useMemo, useRef, useState } from 'react';
import { toast } from 'react-toastify';
import { saveLookupExport } from '../lib/exports.ts';
import { isSessionEnd } from '../lib/field-errors.ts';
import { Chevron, Icon, iconPaths } from './Icon.tsx';
import { Spinner } from './Spinner.tsx';
import { useDisclosure } from './useDisclosure.ts';

const itemClass =
  'flex w-full items-center gap-2 rounded-lg px-3 py-2 text-left text-sm text-text hover:bg-surface-2 hover:text-accent focus-visible:bg-surface-2';

/**
 * 'Save Results' (spec §2.5): a small disclosure menu of 'Save as pdf' (where the page has a report)
 * and 'Save as CSV' / 'Save as JSON' / 'Save as Excel (XLSX)' (where it has a lookup id: the server
 * exports what it stored). `hint` says what the files hold when that is more than the page shows (the
 * leak search: every match, up to the cap); it describes the export items.
 * Focus moves to the first item when it opens; Escape or a pointer outside closes it.
 */
export function SaveMenu({
  busy = false,
  onSavePdf,
  lookupId,
  hint,
  menuAlign = 'right-0',
  className = '',
}: {
  /** A PDF is being made: the toggle shows a spinner. */
  busy?: boolean;
  onSavePdf?: () => void;
  lookupId?: string | undefined;
  /** What the exported files hold, under the export items. */
  hint?: string | undefined;
  /** Where the open menu is anchored (a toggle that sits at the left edge on a phone: 'left-0 sm:…'). */
  menuAlign?: string;
  className?: string;
}) {
  const [open, setOpen] = useState(false);
  const [exporting, setExporting] = useState<ExportFormat | null>(null);
  const id = useId();
  const wrapper = useRef<HTMLDivElement>(null);
  const toggle = useRef<HTMLButtonElement>(null);
  const item = useRef<HTMLButtonElement>(null);

  useDisclosure(
    open,
    setOpen,
    useMemo(() => ({ wrapper, toggle, firstItem: item }), []),
  );

  if (!onSavePdf && !lookupId) return null;
  const pending = busy || exporting !== null;

  const choose = (action: () => void) => {
    setOpen(false);
    toggle.current?.focus();
    action();
  };

  const saveExport = async (format: ExportFormat) => {
    if (!lookupId) return;
    setExporting(format);
    try {
      await saveLookupExport(lookupId, format);
    } catch (error) {
      if (!isSessionEnd(error)) toast.error(messages.results.saveFailed);
    } finally {
      setExporting(null);
    }
  };

  const exports: Array<{ format: ExportFormat; label: string }> = lookupId
    ? [
        { format: 'csv', label: messages.results.saveAsCsv },
        { format: 'json', label: messages.results.saveAsJson },
        { format: 'xlsx', label: messages.results.saveAsXlsx },
      ]
    : [];

  return (
    <div ref={wrapper} className={`relative ${className}`}>
      <button
        ref={toggle}
        type="button"
        className="btn-ghost w-full px-3 whitespace-nowrap sm:w-auto sm:px-4"
        aria-expanded={open}
        aria-controls={id}
        disabled={pending}
        onClick={() => setOpen((value) => !value)}
      >
        {pending ? (
          <Spinner size="sm" decorative />
        ) : (
          <Icon d={iconPaths.download} className="hidden size-4 sm:block" />
        )}
        {pending
          ? messages.results.generating
          : onSavePdf
            ? messages.results.saveResults
            : messages.results.exportResults}
        <Chevron open={open} strokeWidth={1.75} />
      </button>
      {open && (
        <div
          id={id}
          className={`dropdown-enter absolute ${menuAlign} z-30 mt-2 w-56 overflow-hidden rounded-xl border border-line bg-surface p-1 shadow-2xl shadow-black/50`}
        >
          {onSavePdf && (
            <button ref={item} type="button" className={itemClass} onClick={() => choose(onSavePdf)}>
              <Icon d={iconPaths.download} />
              {messages.results.saveAsPdf}
            </button>
          )}
          {exports.map(({ format, label }, index) => (
            <button
              key={format}
              ref={!onSavePdf && index === 0 ? item : undefined}
              type="button"
              className={itemClass}
              aria-describedby={hint ? `${id}-hint` : undefined}
              onClick={() => choose(() => void saveExport(format))}
            >
              <Icon d={iconPaths.download} />
              {label}
            </button>
          ))}
          {hint && exports.length > 0 && (
            <p id={`${id}-hint`} className="px-3 pt-1 pb-2 text-xs text-muted">
              {hint}
            </p>
          )}
        </div>
      )}
      <p className="sr-only" role="status">
        {exporting ? messages.results.generating : ''}
      </p>
    </div>
  );
}
