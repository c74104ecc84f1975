import { type ReactNode, useId } from 'react';

export function ProfileSection({
  title,
  count,
  children,
}: {
  title: string;
  count: number;
  children: ReactNode;
}) {
  const id = useId();
  return (
    <section aria-labelledby={id} className="profile-section">
      <h3 id={id} className="section-title">
        {title}
        <span className="section-count" aria-hidden="true">
          {count}
        </span>
      </h3>
      <ul className="divide-y divide-line/60">{children}</ul>
    </section>
  );
}
