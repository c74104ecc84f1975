import { COPIED_HINT_MS, messages } from '@footprint/domain';
import { useEffect, useRef, useState } from 'react';

/** Copies through the async Clipboard API, or a hidden textarea where it is missing (plain-http LAN). */
async function copyText(text: string): Promise<boolean> {
  try {
    if (navigator.clipboard && window.isSecureContext) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch {
    // Permission refused: try the old way below.
  }
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.className = 'fixed -left-[9999px] top-0 opacity-0';
  document.body.append(area);
  area.select();
  let copied = false;
  try {
    copied = document.execCommand('copy');
  } catch {
    copied = false;
  }
  area.remove();
  return copied;
}

export interface CopyButtonProps {
  /** What lands on the clipboard. */
  text: string;
  /** Accessible name, e.g. 'Copy searched value'. */
  label?: string;
  className?: string;
}

/** An icon button that copies `text` and says 'Copied!' for 3 s (spec §2.5, §9). */
export function CopyButton({ text, label = 'Copy', className = '' }: CopyButtonProps) {
  const [copied, setCopied] = useState(false);
  const timer = useRef<number | undefined>(undefined);

  useEffect(() => () => window.clearTimeout(timer.current), []);

  const onClick = async () => {
    if (!(await copyText(text))) return;
    setCopied(true);
    window.clearTimeout(timer.current);
    timer.current = window.setTimeout(() => setCopied(false), COPIED_HINT_MS);
  };

  return (
    <span className={`relative inline-flex items-center ${className}`}>
      <button
        type="button"
        aria-label={label}
        onClick={() => void onClick()}
        className="inline-flex size-8 items-center justify-center rounded-lg border border-line text-muted transition-colors hover:border-accent hover:text-accent"
      >
        <svg
          viewBox="0 0 24 24"
          fill="none"
          stroke="currentColor"
          strokeWidth="1.75"
          strokeLinecap="round"
          strokeLinejoin="round"
          aria-hidden="true"
          focusable="false"
          className="size-4"
        >
          {copied ? (
            <path d="m5 12.5 4.5 4.5L19 7.5" />
          ) : (
            <>
              <rect x="8.5" y="8.5" width="11" height="11" rx="2" />
              <path d="M15.5 8.5V6a2 2 0 0 0-2-2H6a2 2 0 0 0-2 2v7.5a2 2 0 0 0 2 2h2.5" />
            </>
          )}
        </svg>
      </button>
      {/* Always in the tree so the announcement is read; empty takes no room, so nothing shifts. */}
      <span
        role="status"
        className={`pointer-events-none absolute top-full left-1/2 z-10 mt-1.5 -translate-x-1/2 rounded-md bg-accent px-2 py-0.5 text-xs font-semibold whitespace-nowrap text-ink shadow-lg ${copied ? '' : 'sr-only'}`}
      >
        {copied ? messages.results.copied : ''}
      </span>
    </span>
  );
}

export default CopyButton;
