import { type HistoryDetail, messages } from '@footprint/domain';
import { Modal } from '../../../components/Modal.tsx';
import { ReadAsSupervisorNote } from '../../../components/ReadAsSupervisorNote.tsx';
import { StatedLegalBasis } from '../../../components/StatedLegalBasis.tsx';
import { formatDateTime } from '../../../lib/datetime.ts';
import { baseKind, kindLabel, shownQuery } from '../format.ts';
import { isStoredLeakResult, StoredLeakPage } from './StoredLeakPage.tsx';
import { ValueTree } from './ValueTree.tsx';

const t = messages.history;
const u = messages.units.history;

/** The title and the line under it of a stored search: 'UPI: name@bank', 'Stored 4 Dec 2026, 10:12'. */
export const storedTitle = (detail: HistoryDetail) =>
  t.storedResult(kindLabel(detail.kind), shownQuery(detail.kind, detail.query, detail.query_typed).typed);
export const storedWhen = (detail: HistoryDetail) =>
  (detail.user ? u.storedAt : t.storedAt)(formatDateTime(detail.created_at));

/**
 * A stored search that /results does not show (a detail lookup, a corporate or verification search, a
 * leak search) as its history entry holds it: who ran it when it is someone else's, its case, the legal basis it stated, its result.
 */
export function StoredResult({ detail }: { detail: HistoryDetail }) {
  return (
    <>
      {detail.user && <ReadAsSupervisorNote searcher={detail.user} className="mb-4" />}
      {detail.case_reference && (
        <p className="mb-4 text-sm">
          <span className="text-muted">{messages.caseReference.label}: </span>
          <span className="font-medium text-text">{detail.case_reference}</span>
        </p>
      )}
      {detail.legal_basis && <StatedLegalBasis basis={detail.legal_basis} className="mb-4" />}
      {baseKind(detail.kind) === 'leak' && isStoredLeakResult(detail.result) ? (
        <StoredLeakPage query={detail.query} result={detail.result} />
      ) : (
        <ValueTree value={detail.result} emptyText={t.nothingStored} />
      )}
    </>
  );
}

/** `StoredResult` in a dialog over Search history. */
export function StoredResultModal({ detail, onClose }: { detail: HistoryDetail; onClose: () => void }) {
  return (
    <Modal
      title={storedTitle(detail)}
      description={storedWhen(detail)}
      onClose={onClose}
      size={baseKind(detail.kind) === 'leak' ? 'xl' : 'lg'}
    >
      <StoredResult detail={detail} />
    </Modal>
  );
}
