import { messages } from '@footprint/domain';
import type { ReactNode } from 'react';
import { toast } from 'react-toastify';
import { AddToCaseButton } from '../../../components/AddToCaseButton.tsx';
import { CopyButton } from '../../../components/CopyButton.tsx';
import { Icon } from '../../../components/Icon.tsx';
import { SaveMenu } from '../../../components/SaveMenu.tsx';
import { Spinner } from '../../../components/Spinner.tsx';
import { useToastClearance } from '../../../components/useToastClearance.ts';
import { WatchButton, type WatchTarget } from '../../../components/WatchButton.tsx';
import { saveBlob } from '../../../lib/api.ts';
import { useAuth } from '../../../lib/auth-context.ts';
import { isSessionEnd } from '../../../lib/field-errors.ts';
import { useGenerateAiReport } from '../api/generateAiReport.ts';
import { type ReportInput, useGenerateReport } from '../api/generateReport.ts';
import { fileSafe } from '../format.ts';

const paths = {
  sparkle:
    'M12 3v3M12 18v3M3 12h3M18 12h3M6.3 6.3l2.1 2.1M15.6 15.6l2.1 2.1M6.3 17.7l2.1-2.1M15.6 8.4l2.1-2.1',
  back: 'M15 6l-6 6 6 6',
  phone:
    'M5 4h3.5l1.5 4.5-2 1.5a11 11 0 0 0 6 6l1.5-2 4.5 1.5V19a2 2 0 0 1-2 2A16 16 0 0 1 3 6a2 2 0 0 1 2-2z',
  at: 'M15.5 12a3.5 3.5 0 1 1-7 0 3.5 3.5 0 0 1 7 0zM15.5 12v1.5a2.5 2.5 0 0 0 5 0V12a8.5 8.5 0 1 0-3.3 6.7',
  mail: 'M3 6.5A1.5 1.5 0 0 1 4.5 5h15A1.5 1.5 0 0 1 21 6.5v11a1.5 1.5 0 0 1-1.5 1.5h-15A1.5 1.5 0 0 1 3 17.5zM3.5 6.5 12 13l8.5-6.5',
  coins:
    'M12 4c4.4 0 8 1.3 8 3s-3.6 3-8 3-8-1.3-8-3 3.6-3 8-3zM4 7v5c0 1.7 3.6 3 8 3s8-1.3 8-3V7M4 12v5c0 1.7 3.6 3 8 3s8-1.3 8-3v-5',
};

const iconOf = { tel: paths.phone, email: paths.mail, username: paths.at } as const;
const titleOf = {
  tel: messages.results.phoneLookup,
  email: messages.results.emailLookup,
  username: messages.results.usernameLookup,
} as const;

/**
 * The results page's top bar (spec §2.5): the searched value with a copy button and, under it, when
 * the sources answered (`answered`); 'AI Report', 'Save Results' → 'Save as pdf' / CSV / JSON, the credits and
 * 'New Search' (one page back). Someone else's search (`theirs`: read as their supervisor) keeps only
 * the exports: the server makes reports of, and files under a case, only the caller's own lookups.
 */
export function ResultsTopBar({
  type,
  display,
  copyValue,
  report,
  answered,
  lookupId,
  theirs = false,
  watch,
  onNewSearch,
}: {
  type: 'tel' | 'email' | 'username';
  display: string;
  copyValue: string;
  /** What the PDF reports are made of; absent on an empty result. */
  report?: ReportInput;
  /** The answer's time (and its Refresh), under the searched value. */
  answered?: ReactNode;
  /** The search's lookup id: 'Add to case' files it under one of the user's cases; CSV and JSON export it. */
  lookupId?: string;
  /** Someone else's search, read as their supervisor: no PDF or AI report, no 'Add to case'. */
  theirs?: boolean;
  /** The search as a watch repeats it: 'Watch' runs it again on a schedule (live accounts). */
  watch?: WatchTarget;
  onNewSearch: () => void;
}) {
  const { user } = useAuth();
  const toastClearance = useToastClearance();
  const plain = useGenerateReport();
  const ai = useGenerateAiReport();
  const name = fileSafe(report?.userInput ?? display);
  const reportable = theirs ? undefined : report;
  // The AI report analyses a phone's or an address's merged profile; a username has its PDF alone.
  const aiReportable = reportable && reportable.type !== 'username' ? reportable : undefined;

  const save = async () => {
    if (!reportable) return;
    try {
      const file = reportable.type === 'username' ? `username-report-${name}.pdf` : `report-${name}.pdf`;
      saveBlob(await plain.mutateAsync(reportable), file);
    } catch (error) {
      if (isSessionEnd(error)) return;
      toast.error(messages.reports.failed);
    }
  };

  const saveAi = async () => {
    if (!aiReportable) return;
    try {
      saveBlob(await ai.mutateAsync(aiReportable), `ai-generated-report-${name}.pdf`);
    } catch (error) {
      if (isSessionEnd(error)) return;
      toast.error(messages.reports.aiFailed);
    }
  };

  return (
    <div className="results-bar" ref={toastClearance}>
      <div className="mx-auto flex w-full max-w-7xl flex-wrap items-center gap-x-4 gap-y-3 px-4 py-3 sm:px-6">
        <div className="flex min-w-0 flex-1 basis-64 items-center gap-3">
          <span className="inline-flex size-9 shrink-0 items-center justify-center rounded-lg bg-accent-soft text-accent">
            <Icon d={iconOf[type]} className="size-5" />
          </span>
          <div className="min-w-0">
            <p className="text-[0.7rem] font-semibold tracking-[0.16em] text-muted uppercase">
              {titleOf[type]}
            </p>
            <h1 className="truncate font-mono text-base font-semibold text-text sm:text-lg" title={display}>
              {display}
            </h1>
            {answered}
          </div>
          <CopyButton text={copyValue} label={messages.results.copySearched} />
        </div>

        <div className="grid w-full grid-cols-2 items-center gap-2 sm:flex sm:w-auto sm:flex-wrap">
          {aiReportable && (
            <button
              type="button"
              className="btn-ghost px-3 whitespace-nowrap sm:px-4"
              onClick={() => void saveAi()}
              disabled={ai.isPending}
            >
              {ai.isPending ? <Spinner size="sm" decorative /> : <Icon d={paths.sparkle} />}
              {ai.isPending ? messages.results.generating : messages.results.aiReport}
            </button>
          )}
          <SaveMenu
            busy={plain.isPending}
            onSavePdf={reportable ? () => void save() : undefined}
            lookupId={lookupId}
          />
          <AddToCaseButton lookupId={theirs ? undefined : lookupId} />
          <WatchButton target={watch} />
          {user && (
            // The header shows the balance too; on phones that one is enough.
            <p className="hidden items-center gap-1.5 rounded-full border border-accent/30 bg-accent-soft/40 px-3 py-1.5 text-sm font-semibold whitespace-nowrap text-accent sm:inline-flex">
              <Icon d={paths.coins} />
              {messages.credits.label(user.credits)}
            </p>
          )}
          <button type="button" className="btn-primary col-span-2" onClick={onNewSearch}>
            <Icon d={paths.back} />
            {messages.results.newSearch}
          </button>
        </div>
      </div>
      <p className="sr-only" role="status">
        {plain.isPending || ai.isPending ? messages.results.generatingReport : ''}
      </p>
    </div>
  );
}
