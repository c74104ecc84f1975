import {
  CASE_EXPORT_FORMATS,
  CASE_EXPORTS,
  type CaseDetail,
  type CaseExportFormat,
  messages,
} from '@footprint/domain';
import { useId, useMemo, useRef, useState } from 'react';
import { toast } from 'react-toastify';
import { Chevron, Icon, iconPaths } from '../../../components/Icon.tsx';
import { Spinner } from '../../../components/Spinner.tsx';
import { useDisclosure } from '../../../components/useDisclosure.ts';
import { failureMessage, isSessionEnd } from '../../../lib/field-errors.ts';
import { saveCaseExport } from '../api/caseExport.ts';

const t = messages.cases;
const itemClass =
  'flex w-full flex-col items-start gap-0.5 rounded-lg px-3 py-2 text-left text-sm text-text hover:bg-surface-2 focus-visible:bg-surface-2';

/**
 * 'Export': the case in each format the domain declares (CASE_EXPORTS: STIX 2.1, GraphML, the i2 CSV,
 * …), each item saying what it is for. Focus moves to the first item when it opens; Escape or a
 * pointer outside closes it.
 */
export function ExportMenu({ detail }: { detail: CaseDetail }) {
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState<CaseExportFormat | null>(null);
  const id = useId();
  const wrapper = useRef<HTMLDivElement>(null);
  const toggle = useRef<HTMLButtonElement>(null);
  const first = useRef<HTMLButtonElement>(null);
  useDisclosure(
    open,
    setOpen,
    useMemo(() => ({ wrapper, toggle, firstItem: first }), []),
  );
  if (CASE_EXPORT_FORMATS.length === 0) return null;

  const save = async (format: CaseExportFormat) => {
    setOpen(false);
    toggle.current?.focus();
    setBusy(format);
    const { label } = CASE_EXPORTS[format];
    try {
      await saveCaseExport(detail, format);
      toast.success(t.exportSaved(label));
    } catch (error) {
      if (!isSessionEnd(error)) toast.error(failureMessage(error, t.exportFailed(label)));
    } finally {
      setBusy(null);
    }
  };

  return (
    <div ref={wrapper} className="relative">
      <button
        ref={toggle}
        type="button"
        className="btn-ghost"
        aria-expanded={open}
        aria-controls={id}
        // Not `disabled` while saving: the focus the menu hands back to the toggle would be lost.
        aria-disabled={busy !== null}
        onClick={() => {
          if (busy === null) setOpen((value) => !value);
        }}
      >
        {busy ? <Spinner size="sm" decorative /> : <Icon d={iconPaths.download} className="size-4" />}
        {busy ? t.exporting : t.exportMenu}
        <Chevron open={open} strokeWidth={1.75} />
      </button>
      {open && (
        <div
          id={id}
          className="dropdown-enter absolute left-0 z-30 mt-2 w-72 max-w-[calc(100vw-2rem)] overflow-hidden rounded-xl border border-line bg-surface p-1 shadow-2xl shadow-black/50 sm:right-0 sm:left-auto"
        >
          {CASE_EXPORT_FORMATS.map((format, index) => (
            <button
              key={format}
              ref={index === 0 ? first : undefined}
              type="button"
              className={itemClass}
              onClick={() => void save(format)}
            >
              <span className="font-medium">{CASE_EXPORTS[format].label}</span>
              <span className="text-xs text-muted">{CASE_EXPORTS[format].description}</span>
            </button>
          ))}
        </div>
      )}
      <p className="sr-only" role="status">
        {busy ? t.exporting : ''}
      </p>
    </div>
  );
}
