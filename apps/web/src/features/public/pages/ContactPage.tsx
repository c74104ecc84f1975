import { messages } from '@footprint/domain';

const { email, website } = messages.public.contact;

/** '/contact-us' (spec §2.1): heading, an invitation to write, the e-mail address and the website. */
export default function ContactPage() {
  return (
    <>
      <title>{`Contact us — ${messages.brand}`}</title>
      <article className="page-shell" aria-labelledby="contact-title">
        <p className="eyebrow">{messages.public.nav.contact}</p>
        <h1 id="contact-title" className="page-title">
          {messages.public.contact.title}
        </h1>
        <p className="page-lead">{messages.public.contact.invite}</p>

        <ul className="mt-10 grid max-w-3xl gap-4 sm:grid-cols-2">
          <li className="card flex flex-col gap-3 p-6">
            <span className="inline-flex size-11 items-center justify-center rounded-xl bg-accent-soft/70 text-accent">
              <svg
                viewBox="0 0 24 24"
                fill="none"
                stroke="currentColor"
                strokeWidth="1.6"
                strokeLinecap="round"
                strokeLinejoin="round"
                aria-hidden="true"
                className="size-6"
              >
                <rect x="3" y="5" width="18" height="14" rx="2" />
                <path d="m3.5 6.5 8.5 6.5 8.5-6.5" />
              </svg>
            </span>
            <h2 className="text-sm font-semibold tracking-wide text-muted">E-mail</h2>
            <a
              href={`mailto:${email}`}
              className="text-lg font-semibold break-all text-accent underline-offset-4 hover:underline"
            >
              {email}
            </a>
            <p className="text-sm text-muted">
              Access requests, licensing, account provisioning and support. Please write from your official
              address and tell us which organisation you represent.
            </p>
          </li>
          <li className="card flex flex-col gap-3 p-6">
            <span className="inline-flex size-11 items-center justify-center rounded-xl bg-accent-soft/70 text-accent">
              <svg
                viewBox="0 0 24 24"
                fill="none"
                stroke="currentColor"
                strokeWidth="1.6"
                strokeLinecap="round"
                strokeLinejoin="round"
                aria-hidden="true"
                className="size-6"
              >
                <circle cx="12" cy="12" r="9" />
                <path d="M3 12h18M12 3c2.5 2.6 3.7 5.6 3.7 9s-1.2 6.4-3.7 9c-2.5-2.6-3.7-5.6-3.7-9S9.5 5.6 12 3" />
              </svg>
            </span>
            <h2 className="text-sm font-semibold tracking-wide text-muted">Website</h2>
            <a
              href={website}
              rel="noopener"
              className="text-lg font-semibold break-all text-accent underline-offset-4 hover:underline"
            >
              {website.replace(/^https?:\/\//, '')}
            </a>
            <p className="text-sm text-muted">
              Product information, our policies and the latest news about {messages.brand}.
            </p>
          </li>
        </ul>
      </article>
    </>
  );
}
