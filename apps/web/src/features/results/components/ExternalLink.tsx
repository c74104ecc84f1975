import { messages } from '@footprint/domain';
import type { ReactNode } from 'react';
import { safeHref } from '../format.ts';

export function ExternalLink({ href, children }: { href: string | undefined; children: ReactNode }) {
  const safe = safeHref(href);
  if (!safe) return <>{children}</>;
  return (
    <a href={safe} target="_blank" rel="noopener noreferrer" className="link-accent">
      {children}
      <span className="sr-only">{messages.layout.opensInNewTab}</span>
    </a>
  );
}
