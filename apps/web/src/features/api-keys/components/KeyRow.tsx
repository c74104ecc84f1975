import { type ApiKeySummary, messages } from '@footprint/domain';
import { formatDate, formatDateTime } from '../../../lib/datetime.ts';

const t = messages.apiKeys;

const statusOf = (key: ApiKeySummary): 'revoked' | 'expired' | 'active' =>
  key.revoked_at
    ? 'revoked'
    : key.expires_at && Date.parse(key.expires_at) <= Date.now()
      ? 'expired'
      : 'active';

export function KeyRow({ apiKey, onRevoke }: { apiKey: ApiKeySummary; onRevoke: () => void }) {
  const status = statusOf(apiKey);
  const label =
    status === 'revoked' ? t.statusRevoked : status === 'expired' ? t.statusExpired : t.statusActive;
  return (
    <li className="flex flex-wrap items-start justify-between gap-3 py-4" data-testid="api-key-row">
      <div className="min-w-0 flex-1 space-y-1.5">
        <div className="flex flex-wrap items-center gap-2">
          <p className="truncate font-medium text-text">{apiKey.name}</p>
          <span className={`status-badge ${status === 'active' ? 'status-on' : 'status-off'}`}>{label}</span>
        </div>
        <p className="font-mono text-sm text-muted">{apiKey.prefix}</p>
        <ul className="flex flex-wrap gap-1.5" aria-label={t.scopes}>
          {apiKey.scopes.map((scope) => (
            <li key={scope} className="source-chip chip-sky font-mono">
              {scope}
            </li>
          ))}
        </ul>
        <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-0.5 text-xs text-muted">
          <dt>{t.createdOn}</dt>
          <dd className="text-text">{formatDate(apiKey.created_at)}</dd>
          <dt>{t.lastUsed}</dt>
          <dd className="text-text">{apiKey.last_used_at ? formatDateTime(apiKey.last_used_at) : t.never}</dd>
          <dt>{t.expires}</dt>
          <dd className="text-text">{apiKey.expires_at ? formatDateTime(apiKey.expires_at) : t.noExpiry}</dd>
          <dt>{t.spentThisMonth}</dt>
          <dd className="text-text tabular-nums">
            {apiKey.monthly_credit_cap === null
              ? `${apiKey.credits_this_month} (${t.noCap.toLowerCase()})`
              : `${apiKey.credits_this_month} / ${apiKey.monthly_credit_cap}`}
          </dd>
        </dl>
      </div>
      {status !== 'revoked' && (
        <button
          type="button"
          className="btn-ghost"
          aria-label={`${t.revoke} ${apiKey.name}`}
          onClick={onRevoke}
        >
          {t.revoke}
        </button>
      )}
    </li>
  );
}
