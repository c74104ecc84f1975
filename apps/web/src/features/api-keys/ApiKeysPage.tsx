import { type ApiKeyCreated, type ApiKeySummary, messages } from '@footprint/domain';
import { useState } from 'react';
import { toast } from 'react-toastify';
import { LoadError } from '../../components/LoadError.tsx';
import { PageSpinner } from '../../components/Spinner.tsx';
import { useApiKeys } from './api/listApiKeys.ts';
import { CreatedDialog } from './components/CreatedDialog.tsx';
import { CreateForm } from './components/CreateForm.tsx';
import { HowToCall } from './components/HowToCall.tsx';
import { KeyRow } from './components/KeyRow.tsx';
import { RevokeDialog } from './components/RevokeDialog.tsx';
import { Section } from './components/Section.tsx';

const t = messages.apiKeys;

/**
 * /api-keys (beyond the spec; docs/api.md): a live account makes named, scoped keys for its scripts,
 * sees each once, and revokes them. Every search a key makes is charged to the account and audited
 * under the key's name.
 */
export default function ApiKeysPage() {
  const keys = useApiKeys();
  const [created, setCreated] = useState<ApiKeyCreated | null>(null);
  const [revoking, setRevoking] = useState<ApiKeySummary | null>(null);
  const data = keys.data;

  return (
    <div className="mx-auto flex w-full max-w-4xl flex-1 flex-col px-4 py-8 sm:px-6 lg:py-10">
      <header>
        <h1 className="text-3xl font-bold tracking-tight text-text">{t.title}</h1>
        <p className="mt-2 max-w-2xl text-sm text-muted sm:text-base">{t.lead}</p>
      </header>
      <div className="mt-6 space-y-5">
        <CreateForm
          onCreated={(key) => {
            toast.success(t.created);
            setCreated(key);
          }}
        />
        <Section title={t.listHeading}>
          {keys.isPending ? (
            <PageSpinner />
          ) : !data ? (
            <LoadError
              message={t.loadFailed}
              retryLabel={messages.admin.retry}
              onRetry={() => void keys.refetch()}
            />
          ) : data.api_keys.length === 0 ? (
            <p className="text-sm text-muted">{t.empty}</p>
          ) : (
            <ul className="divide-y divide-line">
              {data.api_keys.map((key) => (
                <KeyRow key={key.id} apiKey={key} onRevoke={() => setRevoking(key)} />
              ))}
            </ul>
          )}
        </Section>
        <HowToCall />
      </div>
      {created && <CreatedDialog created={created} onClose={() => setCreated(null)} />}
      {revoking && <RevokeDialog apiKey={revoking} onClose={() => setRevoking(null)} />}
    </div>
  );
}
