import type { HeldSearch } from '@footprint/domain';
import { Link } from 'react-router';
import { toast } from 'react-toastify';
import { paths } from '../config/paths.ts';
import { approvalTexts as t } from '../lib/approval-texts.ts';

/** A held search as its requester reads it: the server's message and the way to My requests. */
export function HeldSearchNotice({ held, onFollow }: { held: HeldSearch; onFollow?: () => void }) {
  return (
    <div className="min-w-0 text-sm">
      <p className="font-semibold">{t.heldTitle}</p>
      <p className="mt-1 break-words">{held.message}</p>
      <Link
        to={paths.approvalsMine}
        className="link-inline mt-2 inline-block font-semibold"
        onClick={onFollow}
      >
        {t.heldLink}
      </Link>
    </div>
  );
}

/**
 * Says a held search (the 202 of any paid search) the one way: a notice that stays until it is closed
 * or followed, one per request (a second click on the same search does not stack another).
 */
export function showHeldNotice(held: HeldSearch): void {
  const toastId = `held-${held.approval.id}`;
  toast.info(<HeldSearchNotice held={held} onFollow={() => toast.dismiss(toastId)} />, {
    toastId,
    autoClose: false,
  });
}
