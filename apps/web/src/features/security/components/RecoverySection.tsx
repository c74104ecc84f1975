import { messages, type SecurityOverview } from '@footprint/domain';
import { useState } from 'react';
import { toast } from 'react-toastify';
import { useRegenerateRecoveryCodes } from '../api/recoveryCodes.ts';
import { PasswordPrompt } from './PasswordPrompt.tsx';
import { Section } from './Section.tsx';

const t = messages.security;

export function RecoverySection({
  data,
  onCodes,
}: {
  data: SecurityOverview;
  onCodes: (codes: string[]) => void;
}) {
  const regenerate = useRegenerateRecoveryCodes();
  const [asking, setAsking] = useState(false);
  const enrolled = data.totp.enabled || data.passkeys.length > 0;
  return (
    <Section title={t.recovery.heading} lead={t.recovery.lead}>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <p className="text-sm text-text">
          {enrolled ? t.recovery.left(data.recovery_codes_left) : t.recovery.none}
        </p>
        {enrolled && (
          <button type="button" className="btn-ghost" onClick={() => setAsking(true)}>
            {t.recovery.regenerate}
          </button>
        )}
      </div>
      {asking && (
        <PasswordPrompt
          title={t.recovery.regenerate}
          action={t.recovery.regenerate}
          onClose={() => setAsking(false)}
          run={async (password) => {
            const answer = await regenerate.mutateAsync(password);
            toast.success(t.recovery.regenerated);
            onCodes(answer.recovery_codes);
          }}
        />
      )}
    </Section>
  );
}
