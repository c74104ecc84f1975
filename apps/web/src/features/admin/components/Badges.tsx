import { messages } from '@footprint/domain';

const t = messages.admin;

export function RoleBadge({ role }: { role: string }) {
  return (
    <span className={`status-badge ${role === 'admin' ? 'chip-violet' : 'status-off'}`}>
      {t.roles[role] ?? role}
    </span>
  );
}

export function ModeBadge({ mode }: { mode: string }) {
  return (
    <span className={`status-badge ${mode === 'live' ? 'status-on' : 'chip-amber'}`}>
      {t.modes[mode] ?? mode}
    </span>
  );
}

export function StatusBadge({ status }: { status: string }) {
  return (
    <span
      className={`status-badge ${status === 'active' ? 'status-on' : status === 'pending' ? 'chip-amber' : 'chip-rose'}`}
    >
      {t.statuses[status] ?? status}
    </span>
  );
}
