import { messages } from '@footprint/domain';
import { useState } from 'react';
import { LoadError } from '../../components/LoadError.tsx';
import { PageSpinner } from '../../components/Spinner.tsx';
import { useSecurity } from './api/getSecurity.ts';
import { CodesDialog } from './components/CodesDialog.tsx';
import { DevicesSection } from './components/DevicesSection.tsx';
import { PasskeysSection } from './components/PasskeysSection.tsx';
import { RecoverySection } from './components/RecoverySection.tsx';
import { TotpSection } from './components/TotpSection.tsx';

const t = messages.security;

/**
 * /security (beyond the spec): the authenticator app, recovery codes, passkeys, trusted devices and
 * "Sign out everywhere". While the deployment requires a second factor the account lacks, this is
 * the only page the app shows.
 */
export default function SecurityPage() {
  const security = useSecurity();
  const [codes, setCodes] = useState<string[] | null>(null);
  const data = security.data;

  return (
    <div className="mx-auto flex w-full max-w-4xl flex-1 flex-col px-4 py-8 sm:px-6 lg:py-10">
      <header>
        <h1 className="text-3xl font-bold tracking-tight text-text">{t.title}</h1>
        <p className="mt-2 max-w-2xl text-sm text-muted sm:text-base">{t.lead}</p>
      </header>
      {data?.setup_required && (
        <div
          role="alert"
          className="mt-5 rounded-lg border border-warning/50 bg-warning/10 px-4 py-3 text-sm text-text"
        >
          {t.setupRequiredBanner}
        </div>
      )}
      {security.isPending ? (
        <PageSpinner />
      ) : !data ? (
        <LoadError
          message={t.loadFailed}
          retryLabel={messages.admin.retry}
          onRetry={() => void security.refetch()}
        />
      ) : (
        <div className="mt-6 space-y-5">
          <TotpSection data={data} onCodes={setCodes} />
          <PasskeysSection data={data} onCodes={setCodes} />
          <RecoverySection data={data} onCodes={setCodes} />
          <DevicesSection data={data} />
        </div>
      )}
      {codes && <CodesDialog codes={codes} onClose={() => setCodes(null)} />}
    </div>
  );
}
