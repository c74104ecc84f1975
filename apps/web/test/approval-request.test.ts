import { APPROVAL_STATUS_LABELS, messages } from '@footprint/domain';
import { describe, expect, it } from 'vitest';
import { isBulkRequest, requestTexts } from '../src/features/approvals/request.ts';
import { approvalTexts } from '../src/lib/approval-texts.ts';

const b = messages.bulkPage.approval;

describe('a request for approval', () => {
  it("reads as a search's: its price and the search's words", () => {
    const texts = requestTexts({ kind: 'upi', status: 'approved', cost: 5 });
    expect(texts.bulk).toBe(false);
    expect(texts.status).toBe(APPROVAL_STATUS_LABELS.approved);
    expect(texts.cost).toBe(approvalTexts.credits(5));
    expect(texts.approveLabel('a@upi')).toBe(approvalTexts.approveLabel('a@upi'));
    expect(texts.approved).toBe(approvalTexts.approved);
  });

  it("reads as a bulk job's: the most it can cost, and approved means queued, not run", () => {
    const item = { kind: 'bulk:tel', job_id: 'job-1', status: 'approved', cost: 3 } as const;
    expect(isBulkRequest(item)).toBe(true);
    const texts = requestTexts(item);
    expect(texts.status).toBe(b.approvedStatus);
    expect(texts.cost).toBe('Up to 3 credits');
    expect(texts.approveLabel('Pasted list (3 rows)')).toBe(
      'Approve the bulk lookup of Pasted list (3 rows)',
    );
    expect(texts.approved).toBe(b.approved);
    // Waiting, rejected or expired, it says what any request says.
    expect(requestTexts({ ...item, status: 'pending' }).status).toBe(APPROVAL_STATUS_LABELS.pending);
    expect(requestTexts({ ...item, status: 'rejected' }).status).toBe(APPROVAL_STATUS_LABELS.rejected);
  });

  it('is a bulk request by its kind, even without the job id', () => {
    expect(isBulkRequest({ kind: 'bulk:email' })).toBe(true);
    expect(isBulkRequest({ kind: 'tel' })).toBe(false);
  });
});
