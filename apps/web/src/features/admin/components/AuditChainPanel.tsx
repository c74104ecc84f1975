import { messages } from '@footprint/domain';
import { useId } from 'react';
import { CopyButton } from '../../../components/CopyButton.tsx';
import { Spinner } from '../../../components/Spinner.tsx';
import { formatDateTime } from '../../../lib/datetime.ts';
import { useAuditChain } from '../api/auditChain.ts';

const c = messages.admin.audit.chain;

const tone = { intact: 'status-on', checking: 'chip-slate', broken: 'chip-rose' } as Record<string, string>;

/**
 * The audit trail's tamper evidence on the audit screen: intact through event N with the newest
 * checkpoint's root (and the frozen head of the hash chain of events before the Merkle log, if any),
 * still being checked, or broken at event X with what does not match.
 */
export function AuditChainPanel() {
  const id = useId();
  const chain = useAuditChain();
  const state = chain.data;
  return (
    <section aria-labelledby={`${id}-title`} className="card p-4 sm:p-5" data-testid="audit-chain">
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
        <h2 id={`${id}-title`} className="text-sm font-semibold text-text">
          {c.title}
        </h2>
        {state && (
          <span className={`status-badge ${tone[state.status] ?? ''}`} data-testid="audit-chain-status">
            {c.states[state.status] ?? state.status}
          </span>
        )}
      </div>
      <p className="mt-1 max-w-3xl text-xs text-muted">{c.lead}</p>
      <div role="status" aria-live="polite" className="mt-3 space-y-2 text-sm">
        {!state && chain.isPending && <Spinner size="sm" />}
        {!state && chain.isError && (
          <p className="text-danger">
            {c.loadFailed}{' '}
            <button type="button" className="btn-chip" onClick={() => void chain.refetch()}>
              {c.retry}
            </button>
          </p>
        )}
        {state?.status === 'intact' && (
          <p className="text-text">
            {state.verified_through ? c.intact(state.rows_verified, state.verified_through.id) : c.empty}
          </p>
        )}
        {state?.status === 'checking' && <p className="text-text">{c.checking(state.rows_verified)}</p>}
        {state && state.pending > 0 && <p className="text-xs text-muted">{c.pending(state.pending)}</p>}
        {state?.status === 'broken' && state.broken && (
          <div className="rounded-lg border border-danger/40 bg-danger/10 px-3 py-2">
            <p className="font-semibold text-rose-300">{c.broken(state.broken.id)}</p>
            <p className="mt-1 wrap-anywhere text-text">{state.broken.message}</p>
            {state.broken.at && (
              <p className="mt-1 text-xs text-muted">{c.brokenAt(formatDateTime(state.broken.at, true))}</p>
            )}
          </div>
        )}
      </div>
      {state?.checkpoint && (
        <div className="mt-3 flex min-w-0 items-center gap-2">
          <span className="shrink-0 text-xs text-muted">{c.checkpointOf(state.checkpoint.tree_size)}</span>
          <code className="min-w-0 truncate font-mono text-xs text-text" title={state.checkpoint.root_hash}>
            {state.checkpoint.root_hash}
          </code>
          <CopyButton text={state.checkpoint.root_hash} label={c.copyCheckpoint} className="shrink-0" />
        </div>
      )}
      {state && state.head.id > 0 && (
        <div className="mt-3 flex min-w-0 items-center gap-2">
          <span className="shrink-0 text-xs text-muted">{c.headOf(state.head.id)}</span>
          <code className="min-w-0 truncate font-mono text-xs text-text" title={state.head.hash}>
            {state.head.hash}
          </code>
          <CopyButton text={state.head.hash} label={c.copyHead} className="shrink-0" />
        </div>
      )}
    </section>
  );
}
