import { formatAnsweredAt, messages, type ReusedFrom } from '@footprint/domain';

/**
 * What the results page and the detail modals say of an answer's time: when its sources answered
 * and, for a reused answer, that it was reused and the case reference of the lookup it reuses.
 */
export interface AnsweredLine {
  /** 'Answered 04 Mar 2025, 10:32' or 'Answered 04 Mar 2025, 10:32, reused'. */
  text: string;
  /** The exact instant, for `<time dateTime>`. */
  iso: string;
  /** The longer explanation for a tooltip. */
  title: string;
  reused: boolean;
  /** For a reuse, 'Case reference {ref}' (or 'No case reference') of the lookup it reuses. */
  reusedCase: string | null;
}

/** The time fields every lookup answer carries (absent from answers of older builds). */
export interface AnswerTimeFields {
  answered_at?: string | null;
  reused_from?: ReusedFrom | null;
}

/**
 * The line of an answer, in the reader's local time; null when the answer does not say when its
 * sources answered (or says it unreadably), so that nothing is made up.
 */
export function answeredLineOf(answer: AnswerTimeFields | null | undefined): AnsweredLine | null {
  const iso = answer?.answered_at;
  const time = formatAnsweredAt(iso);
  if (!iso || !time) return null;
  const words = messages.answerTime;
  const reused = answer?.reused_from ?? null;
  if (!reused) {
    return {
      text: words.answered(time),
      iso,
      title: words.answeredTitle(iso),
      reused: false,
      reusedCase: null,
    };
  }
  return {
    text: words.answeredReused(time),
    iso,
    title: words.reusedTitle(reused.lookup_id, iso),
    reused: true,
    reusedCase: words.reusedCase(reused.case_reference),
  };
}
