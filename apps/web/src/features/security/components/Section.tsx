import { type ReactNode, useId } from 'react';

export function Section({ title, lead, children }: { title: string; lead: string; children: ReactNode }) {
  const id = useId();
  return (
    <section aria-labelledby={id} className="card p-5 sm:p-6">
      <h2 id={id} className="text-lg font-semibold text-text">
        {title}
      </h2>
      <p className="mt-1 text-sm text-muted">{lead}</p>
      <div className="mt-4">{children}</div>
    </section>
  );
}
