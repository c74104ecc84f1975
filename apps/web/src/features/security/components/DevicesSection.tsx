import { messages, type SecurityOverview } from '@footprint/domain';
import { useRef, useState } from 'react';
import { toast } from 'react-toastify';
import { Modal } from '../../../components/Modal.tsx';
import { Spinner } from '../../../components/Spinner.tsx';
import { useAuth } from '../../../lib/auth-context.ts';
import { formatDateTime } from '../../../lib/datetime.ts';
import { failureMessage, isSessionEnd } from '../../../lib/field-errors.ts';
import { useSignOutEverywhere } from '../api/signOutEverywhere.ts';
import { Section } from './Section.tsx';

const t = messages.security;

export function DevicesSection({ data }: { data: SecurityOverview }) {
  const auth = useAuth();
  const everywhere = useSignOutEverywhere();
  const [confirming, setConfirming] = useState(false);
  const confirmButton = useRef<HTMLButtonElement>(null);
  return (
    <>
      <Section title={t.devices.heading} lead={t.devices.lead}>
        {data.trusted_devices.length === 0 ? (
          <p className="text-sm text-muted">{t.devices.none}</p>
        ) : (
          <ul aria-label={t.devices.heading} className="divide-y divide-line">
            {data.trusted_devices.map((device) => (
              <li key={device.id} className="py-3">
                <p className="text-sm font-medium break-words text-text">
                  {device.user_agent ?? t.devices.unknownBrowser}
                  {device.current && (
                    <span className="ml-2 rounded-full bg-accent-soft px-2 py-0.5 text-xs font-semibold text-accent">
                      {t.devices.current}
                    </span>
                  )}
                </p>
                <p className="text-xs text-muted">
                  {t.devices.lastSeen(formatDateTime(device.last_seen_at))}
                </p>
              </li>
            ))}
          </ul>
        )}
      </Section>
      <Section title={t.everywhere.heading} lead={t.everywhere.lead}>
        <button
          type="button"
          className="btn-ghost border-danger/60 text-danger"
          onClick={() => setConfirming(true)}
        >
          {t.everywhere.action}
        </button>
      </Section>
      {confirming && (
        <Modal
          title={t.everywhere.heading}
          description={t.everywhere.confirm}
          onClose={() => setConfirming(false)}
          initialFocus={confirmButton}
          actions={
            <button
              ref={confirmButton}
              type="button"
              className="btn-primary"
              disabled={everywhere.isPending}
              onClick={async () => {
                try {
                  await everywhere.mutateAsync();
                  toast.success(t.everywhere.done);
                  await auth.logout();
                } catch (failure) {
                  if (!isSessionEnd(failure)) toast.error(failureMessage(failure, messages.errors.generic));
                }
              }}
            >
              {everywhere.isPending && <Spinner size="sm" decorative />}
              {t.everywhere.action}
            </button>
          }
        >
          {null}
        </Modal>
      )}
    </>
  );
}
