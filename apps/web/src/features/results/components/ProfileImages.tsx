import { isSafeImageUrl, messages, type ProfileImage } from '@footprint/domain';
import { type ReactNode, useState } from 'react';
import { Modal } from '../../../components/Modal.tsx';
import { useProxiedImage } from '../../../lib/media.ts';
import { SourceChip } from './SourceChip.tsx';

/**
 * A remote image drawn only when its URL is safe, and fetched through the server's media proxy (never
 * from its own host); until it arrives, and when it fails, a neutral placeholder stands in.
 */
export function RemoteImage({
  src,
  alt,
  className,
  fallback,
}: {
  src: string | undefined;
  alt: string;
  className: string;
  fallback?: ReactNode;
}) {
  const [failed, setFailed] = useState(false);
  const safe = src && isSafeImageUrl(src) ? src : undefined;
  const media = useProxiedImage(safe);
  if (!safe || failed || media.status !== 'ready') {
    return (
      fallback ?? (
        <span
          aria-hidden="true"
          className={`${className} flex items-center justify-center bg-surface-2 text-muted`}
        >
          <svg
            viewBox="0 0 24 24"
            fill="none"
            stroke="currentColor"
            strokeWidth="1.5"
            strokeLinecap="round"
            aria-hidden="true"
            focusable="false"
            className="size-1/2"
          >
            <circle cx="12" cy="8.5" r="3.5" />
            <path d="M5 20c.8-3.6 3.6-5.5 7-5.5s6.2 1.9 7 5.5" />
          </svg>
        </span>
      )
    );
  }
  return (
    <img src={media.url} alt={alt} className={className} decoding="async" onError={() => setFailed(true)} />
  );
}

/**
 * The person's pictures (spec §2.5): thumbnails that open a full-size view. The view is a modal: page
 * scroll is locked while it is open, Escape closes it and focus stays inside.
 */
export function ProfileImages({ images, name }: { images: ProfileImage[]; name: string }) {
  const [open, setOpen] = useState<number | null>(null);
  const shown = images.slice(0, 8);
  if (shown.length === 0) return null;
  const current = open === null ? undefined : shown[open];

  return (
    <>
      <ul className="flex flex-wrap gap-2" aria-label={messages.results.profileImages}>
        {shown.map((image, index) => (
          <li key={image.url}>
            <button
              type="button"
              onClick={() => setOpen(index)}
              aria-label={messages.results.openImage(index + 1, image.source)}
              className={`block overflow-hidden rounded-xl border border-line transition hover:border-accent ${
                index === 0 ? 'size-24' : 'size-14'
              }`}
            >
              <RemoteImage src={image.url} alt="" className="size-full object-cover" />
            </button>
          </li>
        ))}
      </ul>
      {current && open !== null && (
        <Modal
          variant="bare"
          title={messages.results.imageTitle(name, open + 1, shown.length)}
          onClose={() => setOpen(null)}
        >
          <figure className="flex min-h-0 flex-col items-center gap-3">
            <RemoteImage
              key={current.url}
              src={current.url}
              alt={messages.results.imageAlt(name, open + 1, current.source)}
              className="max-h-[78dvh] w-auto max-w-full min-w-[min(18rem,80vw)] rounded-xl object-contain shadow-2xl"
            />
            <figcaption className="flex items-center gap-2 text-xs text-muted">
              <SourceChip source={current.source} />
              {shown.length > 1 && (
                <span className="flex gap-1">
                  <button
                    type="button"
                    className="btn-chip"
                    onClick={() => setOpen((open + shown.length - 1) % shown.length)}
                  >
                    {messages.results.previousImage}
                  </button>
                  <button
                    type="button"
                    className="btn-chip"
                    onClick={() => setOpen((open + 1) % shown.length)}
                  >
                    {messages.results.nextImage}
                  </button>
                </span>
              )}
            </figcaption>
          </figure>
        </Modal>
      )}
    </>
  );
}
