import { APPROVAL_STATUS_LABELS, messages, type SearchApproval } from '@footprint/domain';
import { approvalTexts as t } from '../../lib/approval-texts.ts';

/**
 * How a request for approval reads: a sensitive search's, or a bulk job's (kind `bulk:<type>`, with
 * its `job_id`). An approved bulk request names no lookup (its job was queued, and its rows are the
 * lookups), so it says so rather than look as if it had no result.
 */

const b = messages.bulkPage.approval;

export const isBulkRequest = (item: Pick<SearchApproval, 'kind' | 'job_id'>): boolean =>
  item.kind.startsWith('bulk:') || typeof item.job_id === 'string';

export interface RequestTexts {
  bulk: boolean;
  /** The status badge's and the decision's words. */
  status: string;
  /** Its cost: a search's price, or the most a bulk job can cost. */
  cost: string;
  approveLabel: (query: string) => string;
  rejectLabel: (query: string) => string;
  /** The decision dialog's title and its one line under it (both cut to one line: keep them short). */
  approveTitle: (query: string) => string;
  approveLead: (query: string, credits: string) => string;
  /** More about what approving does, in the dialog's body. */
  approveBody: string | null;
  rejectTitle: (query: string) => string;
  rejectLead: (query: string) => string;
  /** The toast once approved (a search that could not run says so instead). */
  approved: string;
}

export function requestTexts(
  item: Pick<SearchApproval, 'kind' | 'job_id' | 'status' | 'cost'>,
): RequestTexts {
  const bulk = isBulkRequest(item);
  if (!bulk) {
    return {
      bulk,
      status: APPROVAL_STATUS_LABELS[item.status],
      cost: t.credits(item.cost),
      approveLabel: t.approveLabel,
      rejectLabel: t.rejectLabel,
      approveTitle: t.approveTitle,
      approveLead: (_query, credits) => t.approveLead(credits),
      approveBody: null,
      rejectTitle: t.rejectTitle,
      rejectLead: () => t.rejectLead,
      approved: t.approved,
    };
  }
  return {
    bulk,
    status: item.status === 'approved' ? b.approvedStatus : APPROVAL_STATUS_LABELS[item.status],
    cost: b.cost(item.cost),
    approveLabel: b.approveLabel,
    rejectLabel: b.rejectLabel,
    approveTitle: () => b.approveTitle,
    approveLead: b.approveLead,
    approveBody: b.approveBody,
    rejectTitle: () => b.rejectTitle,
    rejectLead: b.rejectLead,
    approved: b.approved,
  };
}
