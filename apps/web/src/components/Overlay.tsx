import { useEffect } from 'react';

export interface OverlayProps {
  /** What is happening, e.g. 'Searching...' or 'Generating PDF...'. */
  message: string;
}

/**
 * A full-screen veil over the page while a long call runs. Render it only while the work is in
 * progress; it announces the message politely and keeps the page behind it from scrolling.
 */
export function Overlay({ message }: OverlayProps) {
  useEffect(() => {
    const { style } = document.body;
    const previous = style.overflow;
    style.overflow = 'hidden';
    return () => {
      style.overflow = previous;
    };
  }, []);

  return (
    <div
      role="status"
      aria-live="polite"
      aria-busy="true"
      className="fixed inset-0 z-[100] flex flex-col items-center justify-center gap-5 bg-ink/80 px-6 backdrop-blur-sm"
    >
      <span className="relative flex size-16 items-center justify-center" aria-hidden="true">
        <span className="absolute inset-0 animate-ping rounded-full bg-accent/20 motion-reduce:animate-none" />
        <span className="size-12 animate-spin rounded-full border-4 border-accent/25 border-t-accent" />
      </span>
      <p className="text-center text-base font-semibold tracking-wide text-text">{message}</p>
    </div>
  );
}

export default Overlay;
