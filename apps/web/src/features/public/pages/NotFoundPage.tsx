import { messages } from '@footprint/domain';
import { Link } from 'react-router';
import { paths } from '../../../config/paths.ts';

/** A trail of footprints that stops at a magnifying glass with nothing under it. */
function LostTrail() {
  // Same footprint as the logo mark, drawn around the origin; a negative x scale makes it a left foot.
  const step = (x: number, y: number, left: boolean, opacity: number) => (
    <g transform={`translate(${x} ${y}) rotate(61) scale(${left ? -1.6 : 1.6} 1.6)`} opacity={opacity}>
      <path d="M0-6C3-6 4.2-3 3.8 0 3.5 2.5 2.6 3.5 2.7 5.5 2.8 7.8 1.5 9 0 9S-2.8 7.8-2.6 5.8C-2.4 3.8-3.6 2.4-3.8 0-4.1-3-3-6 0-6Z" />
      <circle cx="-2.3" cy="-8.9" r="1.5" />
      <circle cx="0.4" cy="-9.7" r="1.15" />
      <circle cx="2.3" cy="-9.1" r="1" />
      <circle cx="3.8" cy="-7.8" r="0.85" />
    </g>
  );
  return (
    <svg
      viewBox="0 0 320 200"
      role="img"
      aria-label={messages.notFound.image}
      className="h-auto w-full max-w-sm"
    >
      <defs>
        <radialGradient id="nf-glow" cx="50%" cy="50%" r="50%">
          <stop offset="0%" stopColor="#22d3ee" stopOpacity="0.25" />
          <stop offset="100%" stopColor="#22d3ee" stopOpacity="0" />
        </radialGradient>
      </defs>
      <circle cx="226" cy="92" r="86" fill="url(#nf-glow)" />
      <g fill="#22d3ee">
        {step(43, 166, false, 0.2)}
        {step(75, 133, true, 0.4)}
        {step(120, 124, false, 0.6)}
        {step(152, 90, true, 0.85)}
      </g>
      <g stroke="#22d3ee" strokeWidth="6" strokeLinecap="round" fill="none">
        <circle cx="222" cy="86" r="42" fill="#0a1020" fillOpacity="0.85" />
        <path d="M252 118 286 152" strokeWidth="10" />
      </g>
      <text
        x="222"
        y="100"
        textAnchor="middle"
        fill="#e2e8f0"
        fontFamily="ui-monospace, SFMono-Regular, Menlo, Consolas, monospace"
        fontSize="38"
        fontWeight="700"
      >
        404
      </text>
    </svg>
  );
}

/** Any unknown path (spec §2.1): an image, the title, the explanation and a way back to '/'. */
export default function NotFoundPage() {
  return (
    <>
      <title>{`${messages.notFound.title} — ${messages.brand}`}</title>
      <section
        className="page-shell flex flex-1 flex-col items-center justify-center text-center"
        aria-labelledby="not-found-title"
      >
        <LostTrail />
        <h1 id="not-found-title" className="page-title mt-8">
          {messages.notFound.title}
        </h1>
        <p className="mt-3 max-w-md text-muted">{messages.notFound.body}</p>
        <Link to={paths.home} className="btn-primary mt-8 px-6 py-3">
          <svg
            viewBox="0 0 20 20"
            fill="none"
            stroke="currentColor"
            strokeWidth="2"
            strokeLinecap="round"
            strokeLinejoin="round"
            aria-hidden="true"
            className="size-4"
          >
            <path d="M16 10H4m5-5-5 5 5 5" />
          </svg>
          {messages.public.notFoundBack}
        </Link>
      </section>
    </>
  );
}
