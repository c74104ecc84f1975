import {
  APPROVAL_STATUS_LABELS,
  type ApprovalStatus,
  messages,
  type SearchApproval,
} from '@footprint/domain';
import { useId, useState } from 'react';
import { Link } from 'react-router';
import { paths } from '../../../config/paths.ts';
import { approvalTexts as t } from '../../../lib/approval-texts.ts';
import { formatDateTime } from '../../../lib/datetime.ts';
import { shownQuery } from '../../history/index.ts';
import type { ApprovalList } from '../api/approvals.ts';
import { type RequestTexts, requestTexts } from '../request.ts';
import { DecideDialog, type Decision } from './DecideDialog.tsx';

const tones: Record<ApprovalStatus, string> = {
  pending: 'chip-amber',
  approved: 'status-on',
  rejected: 'chip-red',
  expired: 'status-off',
  failed: 'chip-red',
};

const b = messages.bulkPage.approval;

/** A request's status; `label` in place of the usual words (an approved bulk job is queued, not run). */
export function ApprovalStatusBadge({ status, label }: { status: ApprovalStatus; label?: string }) {
  return <span className={`status-badge ${tones[status]}`}>{label ?? APPROVAL_STATUS_LABELS[status]}</span>;
}

function When({ value }: { value: string }) {
  return <time dateTime={value}>{formatDateTime(value)}</time>;
}

/** Who decided, when, and their note (the reason of a rejection); why an approved search could not run. */
function DecisionNote({ item, texts }: { item: SearchApproval; texts: RequestTexts }) {
  if (!item.decided_at && !item.failure) return null;
  return (
    <div className="review-verdict mt-4 text-sm">
      {item.decided_at && (
        <p className="text-text">
          <span className="font-semibold">{texts.status}</span>
          {' · '}
          <span className="text-muted">
            {item.decided_by
              ? t.decidedBy(item.decided_by.name, formatDateTime(item.decided_at))
              : t.decidedAt(formatDateTime(item.decided_at))}
          </span>
        </p>
      )}
      {item.note && (
        <p className="mt-1 whitespace-pre-line break-words text-text">
          <span className="text-muted">{item.status === 'rejected' ? t.reason : t.note}: </span>
          {item.note}
        </p>
      )}
      {item.failure && (
        <p className="mt-1 break-words text-text">
          <span className="text-muted">{t.failure}: </span>
          {item.failure}
        </p>
      )}
    </div>
  );
}

/** A request held for approval: what was asked, by whom, why, its cost and times, and its decision. */
export function ApprovalCard({
  item,
  list,
  headingLevel = 2,
  onDecided,
}: {
  item: SearchApproval;
  list: ApprovalList;
  headingLevel?: 2 | 3;
  onDecided?: () => void;
}) {
  const id = useId();
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  const query = shownQuery(item.kind, item.query, null).typed;
  const [deciding, setDeciding] = useState<Decision | null>(null);
  const texts = requestTexts(item);
  // A bulk job is on its owner's /bulk page (a supervisor's /bulk lists only their own jobs).
  const openJob = texts.bulk && list === 'mine' && item.job_id !== undefined;

  return (
    <li className="card review-card px-4 py-4 sm:px-5" aria-labelledby={`${id}-title`}>
      <div className="flex flex-wrap items-start justify-between gap-x-4 gap-y-2">
        <div className="min-w-0">
          <p className="text-xs font-medium tracking-wide text-muted uppercase">{item.kind_label}</p>
          <Heading id={`${id}-title`} className="mt-0.5 text-base font-semibold break-words text-text">
            {query}
          </Heading>
        </div>
        <ApprovalStatusBadge status={item.status} label={texts.status} />
      </div>

      <dl className="review-facts mt-3">
        {list !== 'mine' && (
          <div className="review-fact-person">
            <dt>{t.requester}</dt>
            <dd>
              {item.requester.name} <span className="text-muted">({item.requester.email})</span>
            </dd>
          </div>
        )}
        <div>
          <dt>{t.requestedAt}</dt>
          <dd>
            <When value={item.requested_at} />
          </dd>
        </div>
        {item.status === 'pending' && (
          <div>
            <dt>{t.expiresAt}</dt>
            <dd>
              <When value={item.expires_at} />
            </dd>
          </div>
        )}
        <div>
          <dt>{t.caseReference}</dt>
          <dd>{item.case_reference ?? <span className="text-muted">{t.noCase}</span>}</dd>
        </div>
        <div>
          <dt>{t.cost}</dt>
          <dd>{texts.cost}</dd>
        </div>
        <div className="review-fact-wide">
          <dt>{t.legalBasis}</dt>
          <dd>{item.legal_basis ?? <span className="text-muted">{t.noLegalBasis}</span>}</dd>
        </div>
      </dl>

      <DecisionNote item={item} texts={texts} />

      {(item.lookup_id || item.decides || openJob) && (
        <div className="mt-4 flex flex-wrap justify-end gap-2">
          {openJob && (
            // An approved bulk request names no lookup: its job runs (or ran) on the owner's /bulk.
            <Link to={paths.bulk} className="btn-ghost" aria-label={b.openJobLabel(query)}>
              {b.openJob}
            </Link>
          )}
          {item.lookup_id && !texts.bulk && (
            // The result opens as Search history opens it (/history/{lookup id}; /results for a phone
            // or e-mail search).
            <Link
              to={paths.historyEntry(item.lookup_id)}
              className="btn-ghost"
              aria-label={t.openResultLabel(query)}
            >
              {t.openResult}
            </Link>
          )}
          {item.decides && (
            <>
              <button
                type="button"
                className="btn-ghost"
                aria-label={texts.rejectLabel(query)}
                onClick={() => setDeciding('reject')}
              >
                {t.reject}
              </button>
              <button
                type="button"
                className="btn-primary"
                aria-label={texts.approveLabel(query)}
                onClick={() => setDeciding('approve')}
              >
                {t.approve}
              </button>
            </>
          )}
        </div>
      )}

      {deciding && (
        <DecideDialog
          item={item}
          texts={texts}
          query={query}
          decision={deciding}
          onClose={() => setDeciding(null)}
          onDecided={() => {
            setDeciding(null);
            onDecided?.();
          }}
        />
      )}
    </li>
  );
}
