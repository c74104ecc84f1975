import {
  type DetailKind,
  detailFacts,
  detailListIsEmpty,
  layoutRecord,
  layoutSize,
  messages,
  showsSyntheticData,
} from '@footprint/domain';
import { useCallback, useRef, useState } from 'react';
import { toast } from 'react-toastify';
import { useAuth } from '../../../lib/auth-context.ts';
import { maySpend, usePaidAnswer } from '../../../lib/paid-answer.ts';
import { kindPrice, useSources } from '../../../lib/sources.ts';
import type { AnswerTimeFields } from '../answered.ts';
import { useDetailLookup } from '../api/detailLookup.ts';

export type DetailStatus = 'loading' | 'loaded' | 'failed';

/** The open detail modal: which lookup, of what, and how far it got (spec §4 Results). */
export interface DetailSelection {
  kind: DetailKind;
  id: string;
  status: DetailStatus;
  /** `data.data` of the answer once loaded; null when the vendor had nothing. */
  record?: unknown;
  /** The record came from the sandbox: the modal shows the sandbox banner above it. */
  synthetic?: boolean;
  /** When the source answered, and what a reused answer reuses. */
  answered?: AnswerTimeFields;
  /** The source answered that it holds no record: nothing was charged (README, "Credits"). */
  noRecord?: boolean;
}

/** An answer already bought on this page, shown again for free. */
interface Bought {
  record: unknown;
  synthetic: boolean;
  answered: AnswerTimeFields;
}

/**
 * Whether a detail answer is the source's "no record" (its envelope unsuccessful, or without a record):
 * by the charging rule such an answer is not charged, and the modal says so.
 */
export function isNoRecordAnswer(
  answer: { data?: { data?: unknown; success?: unknown } | null } | null,
): boolean {
  const envelope = answer?.data;
  if (!envelope) return true;
  return envelope.success === false || envelope.data === null || envelope.data === undefined;
}

/**
 * Whether a loaded record has anything the modal would show (and so anything worth a PDF): a record
 * whose content is a list (an RC's challans) has nothing without items.
 */
export function hasDetail(kind: DetailKind, record: unknown): boolean {
  if (detailFacts(kind).list) return !detailListIsEmpty(kind, record);
  return layoutSize(layoutRecord(record, kind)) > 0;
}

/**
 * Runs the paid RC, UPI and challan lookups for the results page (spec §4, §5, §8). The call starts from
 * the click, never from an effect, so a re-render cannot charge twice; an answer already bought on this
 * page is shown again without a new charge. The search's case reference (and the legal basis it stated) goes with each call. Closing
 * clears the selection, and a late answer for a closed modal is dropped (its credit update still applies).
 * `refresh` is the open modal's Refresh: `ask()` opens its confirmation (with the kind's price),
 * `confirm()` asks the source again with `fresh` (charged) and shows that answer in place of the one
 * shown, which stays if the fresh lookup fails.
 */
export function useDetailLookups(caseReference?: string, legalBasis?: Record<string, unknown>) {
  const { user } = useAuth();
  const { paid, failed } = usePaidAnswer();
  const lookup = useDetailLookup();
  const [selection, setSelection] = useState<DetailSelection | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [refreshing, setRefreshing] = useState(false);
  const { data: sources } = useSources();
  const bought = useRef(new Map<string, Bought>());
  const ticket = useRef(0);
  const credits = user?.credits;

  const run = useCallback(
    async (kind: DetailKind, id: string, fresh: boolean) => {
      const key = `${kind}:${id}`;
      const again = fresh ? undefined : bought.current.get(key);
      if (again) {
        ticket.current += 1;
        setSelection({ kind, id, status: 'loaded', ...again });
        return;
      }
      if (!maySpend(user)) {
        toast.warning(messages.credits.insufficientUpgrade);
        return;
      }
      ticket.current += 1;
      const mine = ticket.current;
      // A refresh keeps the answer shown until the fresh one is in (and if it fails).
      if (!fresh) setSelection({ kind, id, status: 'loading' });
      const settle = (next: Omit<DetailSelection, 'kind' | 'id'>) => {
        if (ticket.current === mine) setSelection({ kind, id, ...next });
      };
      try {
        const answer = await lookup.mutateAsync({
          kind,
          id,
          caseReference,
          ...(legalBasis ? { legalBasis } : {}),
          ...(fresh ? { fresh } : {}),
        });
        paid(answer);
        const record = answer.data?.data ?? null;
        const synthetic = showsSyntheticData(answer.source_status, answer.sandbox);
        const answered = { answered_at: answer.answered_at, reused_from: answer.reused_from };
        const list = detailFacts(kind).list;
        if (list && detailListIsEmpty(kind, record)) toast.warning(list.empty);
        if (hasDetail(kind, record)) bought.current.set(key, { record, synthetic, answered });
        settle({ status: 'loaded', record, synthetic, answered, noRecord: isNoRecordAnswer(answer) });
      } catch (error) {
        // Any refusal but a 402 says which lookup failed, whatever the server's words.
        const words = detailFacts(kind).failed;
        const failure = failed(error, { failed: words, refusal: () => words });
        // A search held for approval has no answer to show: the dialog closes, its notice stays.
        if (failure.kind === 'held') {
          if (!fresh && ticket.current === mine) setSelection(null);
        } else if (!fresh) settle({ status: 'failed' });
      }
    },
    [user, caseReference, legalBasis, paid, failed, lookup.mutateAsync],
  );

  const open = useCallback((kind: DetailKind, id: string) => run(kind, id, false), [run]);

  const confirm = useCallback(async () => {
    if (!selection || selection.status === 'loading') return;
    setRefreshing(true);
    try {
      await run(selection.kind, selection.id, true);
    } finally {
      setRefreshing(false);
      setConfirming(false);
    }
  }, [run, selection]);

  const close = useCallback(() => {
    ticket.current += 1;
    setConfirming(false);
    setSelection(null);
  }, []);

  const refresh = {
    confirming,
    busy: refreshing,
    price: selection ? kindPrice(sources, selection.kind) : null,
    credits,
    ask: () => setConfirming(true),
    cancel: () => setConfirming(false),
    confirm,
  };

  return { selection, open, refresh, close };
}
