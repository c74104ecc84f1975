import {
  messages,
  REVIEW_NOTE_MAX_LENGTH,
  REVIEW_VERDICT_LABELS,
  type ReviewItem,
  reviewsMessages,
  sourceName,
} from '@footprint/domain';
import { type FormEvent, useId, useRef, useState } from 'react';
import { toast } from 'react-toastify';
import { Spinner } from '../../../components/Spinner.tsx';
import { formatDateTime } from '../../../lib/datetime.ts';
import { failureMessage, fieldErrorsOf, isSessionEnd } from '../../../lib/field-errors.ts';
import { kindLabel, shownQuery } from '../../history/index.ts';
import { type ReviewList, useReview } from '../api/reviews.ts';

const t = messages.reviewsPage;

function When({ value }: { value: string }) {
  return <time dateTime={value}>{formatDateTime(value)}</time>;
}

/** In order (green) or Questioned (amber): the verdict as a badge. */
function VerdictBadge({ verdict }: { verdict: keyof typeof REVIEW_VERDICT_LABELS }) {
  return (
    <span className={`status-badge ${verdict === 'in_order' ? 'status-on' : 'chip-amber'}`}>
      {REVIEW_VERDICT_LABELS[verdict]}
    </span>
  );
}

/** The two verdicts of an open item: in order at once, or a question with its (required) note. */
function ReviewActions({
  item,
  query,
  onReviewed,
}: {
  item: ReviewItem;
  query: string;
  onReviewed?: (() => void) | undefined;
}) {
  const id = useId();
  const review = useReview();
  const [asking, setAsking] = useState(false);
  const [note, setNote] = useState('');
  const [noteError, setNoteError] = useState<string | null>(null);
  const questionButton = useRef<HTMLButtonElement>(null);
  const noteField = useRef<HTMLTextAreaElement>(null);

  const send = async (verdict: 'in_order' | 'questioned') => {
    if (review.isPending) return;
    const trimmed = note.trim();
    if (verdict === 'questioned' && trimmed === '') {
      setNoteError(reviewsMessages.noteRequired);
      noteField.current?.focus();
      return;
    }
    try {
      await review.mutateAsync({
        lookupId: item.lookup_id,
        verdict,
        ...(verdict === 'questioned' ? { note: trimmed } : {}),
      });
      toast.success(verdict === 'in_order' ? t.markedInOrder : t.questioned);
      // The card leaves the queue: the focus goes to the list's count rather than to the page's top.
      onReviewed?.();
    } catch (error) {
      if (isSessionEnd(error)) return;
      const fields = fieldErrorsOf(error);
      if (verdict === 'questioned' && fields.note) {
        setNoteError(fields.note);
        noteField.current?.focus();
      } else toast.error(failureMessage(error, t.saveFailed));
    }
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    void send('questioned');
  };

  if (asking) {
    return (
      <form noValidate onSubmit={onSubmit} className="review-question mt-4">
        <label htmlFor={`${id}-note`} className="label">
          {t.noteLabel}
        </label>
        <p id={`${id}-hint`} className="mb-2 text-xs text-muted">
          {t.noteHint}
        </p>
        <textarea
          id={`${id}-note`}
          ref={noteField}
          rows={3}
          maxLength={REVIEW_NOTE_MAX_LENGTH}
          className="input"
          value={note}
          aria-invalid={noteError ? true : undefined}
          aria-describedby={noteError ? `${id}-error ${id}-hint` : `${id}-hint`}
          onChange={(event) => {
            setNote(event.target.value);
            setNoteError(null);
          }}
        />
        {noteError && (
          <p id={`${id}-error`} className="field-error">
            {noteError}
          </p>
        )}
        <div className="mt-3 flex flex-wrap justify-end gap-2">
          <button
            type="button"
            className="btn-ghost"
            onClick={() => {
              setAsking(false);
              setNoteError(null);
              requestAnimationFrame(() => questionButton.current?.focus());
            }}
          >
            {t.cancel}
          </button>
          <button type="submit" className="btn-primary" disabled={review.isPending}>
            {review.isPending && <Spinner size="sm" decorative />}
            {review.isPending ? t.saving : t.sendQuestion}
          </button>
        </div>
      </form>
    );
  }

  return (
    <div className="mt-4 flex flex-wrap justify-end gap-2">
      <button
        ref={questionButton}
        type="button"
        className="btn-ghost"
        aria-label={t.questionLabel(query)}
        onClick={() => {
          setAsking(true);
          // The note opens on the reviewer's click, to be written in at once.
          requestAnimationFrame(() => noteField.current?.focus());
        }}
        disabled={review.isPending}
      >
        {t.question}
      </button>
      <button
        type="button"
        className="btn-primary"
        aria-label={t.inOrderLabel(query)}
        onClick={() => void send('in_order')}
        disabled={review.isPending}
      >
        {review.isPending && <Spinner size="sm" decorative />}
        {t.inOrder}
      </button>
    </div>
  );
}

/** One drawn search: what was searched, by whom, when and why, what it answered and cost, and its review. */
export function ReviewCard({
  item,
  list,
  headingLevel = 2,
  onReviewed,
}: {
  item: ReviewItem;
  list: ReviewList;
  /** Called once a verdict is saved (the card then leaves the open list). */
  onReviewed?: () => void;
  /** 3 under the page's one list heading (no tabs); 2 in a tab panel. */
  headingLevel?: 2 | 3;
}) {
  const id = useId();
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  const query = shownQuery(item.kind, item.query_typed, null).typed;
  const answered = item.sources_answered.map(sourceName).join(', ');
  const failed = item.sources_failed.map(sourceName).join(', ');
  return (
    <li className="card review-card px-4 py-4 sm:px-5" aria-labelledby={`${id}-title`}>
      <div className="flex flex-wrap items-start justify-between gap-x-4 gap-y-2">
        <div className="min-w-0">
          <p className="text-xs font-medium tracking-wide text-muted uppercase">{kindLabel(item.kind)}</p>
          <Heading id={`${id}-title`} className="mt-0.5 text-base font-semibold break-words text-text">
            {query}
          </Heading>
        </div>
        {item.review ? (
          <VerdictBadge verdict={item.review.verdict} />
        ) : (
          list === 'mine' && <span className="status-badge status-off">{t.awaiting}</span>
        )}
      </div>

      <dl className="review-facts mt-3">
        <div>
          <dt>{t.when}</dt>
          <dd>
            <When value={item.created_at} />
          </dd>
        </div>
        {list !== 'mine' && (
          <div className="review-fact-person">
            <dt>{t.searcher}</dt>
            <dd>
              {item.searcher.name} <span className="text-muted">({item.searcher.email})</span>
            </dd>
          </div>
        )}
        <div>
          <dt>{t.drawn}</dt>
          <dd>
            <When value={item.sampled_at} />
          </dd>
        </div>
        <div>
          <dt>{t.caseReference}</dt>
          <dd>{item.case_reference ?? <span className="text-muted">{t.noCase}</span>}</dd>
        </div>
        <div>
          <dt>{t.cost}</dt>
          <dd>{t.credits(item.cost)}</dd>
        </div>
        <div className="review-fact-wide">
          <dt>{t.legalBasis}</dt>
          <dd>{item.legal_basis ?? <span className="text-muted">{t.noLegalBasis}</span>}</dd>
        </div>
        <div className="review-fact-wide">
          <dt>{t.sources}</dt>
          <dd>
            {answered ? t.answered(answered) : <span className="text-muted">{t.noneAnswered}</span>}
            {failed && <span className="block text-muted">{t.failed(failed)}</span>}
          </dd>
        </div>
      </dl>

      {item.review && (
        <div className="review-verdict mt-4">
          <p className="text-sm text-text">
            <span className="font-semibold">{REVIEW_VERDICT_LABELS[item.review.verdict]}</span>
            {' · '}
            <span className="text-muted">
              {item.review.reviewer
                ? t.reviewedBy(item.review.reviewer.name, formatDateTime(item.review.reviewed_at))
                : t.reviewedAt(formatDateTime(item.review.reviewed_at))}
            </span>
          </p>
          {item.review.note && (
            <p className="mt-1 text-sm whitespace-pre-line break-words text-text">
              <span className="sr-only">{t.note}: </span>
              {item.review.note}
            </p>
          )}
        </div>
      )}

      {list === 'open' && !item.review && <ReviewActions item={item} query={query} onReviewed={onReviewed} />}
    </li>
  );
}
