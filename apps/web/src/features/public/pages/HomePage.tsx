import { messages } from '@footprint/domain';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { paths } from '../../../config/paths.ts';

const glyph = (d: ReactNode) => (
  <svg
    viewBox="0 0 24 24"
    fill="none"
    stroke="currentColor"
    strokeWidth="1.6"
    strokeLinecap="round"
    strokeLinejoin="round"
    aria-hidden="true"
    focusable="false"
    className="size-6"
  >
    {d}
  </svg>
);

const capabilities = [
  {
    title: 'Phone and e-mail lookups',
    body: 'Start from a mobile number or an e-mail address. Footprint queries social networks, messaging apps, government records, carrier data, breach lists and professional profiles at once, and merges the answers into one profile — each source kept visible.',
    icon: glyph(
      <path d="M5 4h3l2 5-2.5 1.5a11 11 0 0 0 6 6L15 14l5 2v3a2 2 0 0 1-2 2A16 16 0 0 1 3 6a2 2 0 0 1 2-2" />,
    ),
  },
  {
    title: 'Leak Data Finder',
    body: 'Search indexed breach and leak data by name, e-mail, phone number or username, and combine up to four criteria in one query to confirm that an exposed record really belongs to your subject.',
    icon: glyph(
      <>
        <ellipse cx="12" cy="6" rx="7" ry="3" />
        <path d="M5 6v6c0 1.7 3.1 3 7 3M19 6v4M5 12v6c0 1.7 3.1 3 7 3" />
        <circle cx="17.5" cy="16.5" r="2.5" />
        <path d="m19.4 18.4 1.8 1.8" />
      </>,
    ),
  },
  {
    title: 'Corporate intelligence',
    body: 'For India: company tax and registry records, employment records and a consented credit report — the due-diligence picture behind a business and the people who run it.',
    icon: glyph(
      <>
        <path d="M4 21V5a1 1 0 0 1 1-1h8a1 1 0 0 1 1 1v16M14 9h5a1 1 0 0 1 1 1v11M3 21h18" />
        <path d="M8 8h2M8 12h2M8 16h2M17 13h0M17 17h0" />
      </>,
    ),
  },
  {
    title: 'Identity verification',
    body: 'Check Indian identity documents and accounts against the issuing records: PAN, driving licence, voter ID, passport, bank account and IFSC, vehicle registration and employment.',
    icon: glyph(
      <>
        <rect x="3" y="5" width="18" height="14" rx="2" />
        <circle cx="9" cy="11" r="2.2" />
        <path d="M5.8 16c.5-1.6 1.7-2.5 3.2-2.5s2.7.9 3.2 2.5M14.5 10h4M14.5 13.5h3" />
      </>,
    ),
  },
  {
    title: 'PDF and AI reports',
    body: 'Export any result as a structured PDF for the case file, or generate an AI-written narrative report that summarises the findings, the sources behind them and the gaps still open.',
    icon: glyph(
      <>
        <path d="M14 3H7a2 2 0 0 0-2 2v14a2 2 0 0 0 2 2h10a2 2 0 0 0 2-2V8z" />
        <path d="M14 3v5h5M9 13h6M9 17h4" />
      </>,
    ),
  },
  {
    title: 'Credit-metered, fully audited',
    body: 'Every lookup draws from your account’s credit balance, so usage is deliberate and measurable. Every search, export and report is written to an audit trail your organisation can review.',
    icon: glyph(
      <>
        <path d="M12 3 4.5 6v5.5c0 4.6 3.1 8.3 7.5 9.5 4.4-1.2 7.5-4.9 7.5-9.5V6z" />
        <path d="M9 11.5h6M9 14.5h4" />
      </>,
    ),
  },
] as const;

const audiences = [
  {
    title: 'Law enforcement',
    body: 'Turn a number from a complaint or a seized handset into a lead within minutes, and file a report that documents where every detail came from.',
  },
  {
    title: 'Investigators',
    body: 'Fraud, due-diligence and corporate investigators verify identities and documents, check the companies behind them, and catch inconsistencies before they become losses.',
  },
  {
    title: 'Journalists',
    body: 'Verify who is behind an account, a company or a leaked document before you publish — and keep a record of how you verified it.',
  },
] as const;

const safeguards = [
  'Accounts are licensed to named, authorised personnel of verified organisations and cannot be transferred.',
  'Every lookup, export and report is logged against the person who ran it.',
  'Searches are made for a lawful purpose; results are treated as leads to corroborate, not as verdicts.',
  'Data is never sold or resold, and searches are never used for marketing.',
] as const;

/** Landing page (spec §2.1 '/'): welcome, the OSINT pitch, both taglines and a way in. */
export default function HomePage() {
  return (
    <>
      <title>{`${messages.brand} — ${messages.taglines.footprint}`}</title>

      <section className="page-shell pt-12 sm:pt-16 lg:pt-24" aria-labelledby="home-title">
        <p className="inline-flex items-center gap-2 rounded-full border border-accent/30 bg-accent-soft/40 px-3 py-1 text-[0.7rem] font-semibold tracking-[0.22em] text-accent">
          <span className="size-1.5 rounded-full bg-accent" aria-hidden="true" />
          {messages.taglines.footprint}
        </p>
        <h1
          id="home-title"
          className="mt-6 max-w-3xl text-4xl leading-[1.1] font-bold tracking-tight text-balance text-text sm:text-5xl lg:text-6xl"
        >
          {messages.taglines.proactive}
        </h1>
        <p className="page-lead">
          Welcome to {messages.brand}, the open-source intelligence workspace for verified law-enforcement
          departments, investigators and journalists. Start from a phone number or an e-mail address and get
          one merged profile, drawn from many sources, that you can verify, export and defend.
        </p>
        <div className="mt-8 flex flex-wrap gap-3">
          <Link to={paths.login} className="btn-primary w-full px-6 py-3 text-base sm:w-auto">
            Sign in to {messages.brand}
          </Link>
          <Link to={paths.contact} className="btn-ghost w-full px-6 py-3 text-base sm:w-auto">
            Request access
          </Link>
        </div>
        <dl className="mt-12 grid max-w-3xl grid-cols-1 gap-px overflow-hidden rounded-2xl border border-line bg-line sm:grid-cols-3">
          {[
            ['One query', 'many sources, merged into one profile'],
            ['Named accounts', 'licensed to authorised personnel'],
            ['Every lookup', 'recorded in an audit trail'],
          ].map(([term, detail]) => (
            <div key={term} className="bg-night/90 px-5 py-4">
              <dt className="text-sm font-semibold text-accent">{term}</dt>
              <dd className="mt-1 text-sm text-muted">{detail}</dd>
            </div>
          ))}
        </dl>
      </section>

      <section className="page-shell py-12 lg:py-16" aria-labelledby="capabilities-title">
        <p className="eyebrow">What you can do</p>
        <h2 id="capabilities-title" className="mt-3 text-2xl font-bold tracking-tight sm:text-3xl">
          From a single identifier to a documented profile
        </h2>
        <p className="page-lead">
          OSINT work means checking the same person across dozens of places and reconciling what they say.
          {` ${messages.brand}`} does the fan-out for you and shows where the sources agree — and where they
          do not.
        </p>
        <ul className="mt-10 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {capabilities.map((item) => (
            <li key={item.title} className="card flex flex-col gap-3 p-6">
              <span className="inline-flex size-11 items-center justify-center rounded-xl bg-accent-soft/70 text-accent">
                {item.icon}
              </span>
              <h3 className="text-base font-semibold text-text">{item.title}</h3>
              <p className="text-sm leading-relaxed text-muted">{item.body}</p>
            </li>
          ))}
        </ul>
      </section>

      <section className="page-shell py-12 lg:py-16" aria-labelledby="audience-title">
        <p className="eyebrow">Who it is for</p>
        <h2 id="audience-title" className="mt-3 text-2xl font-bold tracking-tight sm:text-3xl">
          Built for people who have to get it right
        </h2>
        <div className="mt-10 grid gap-8 md:grid-cols-3">
          {audiences.map((item) => (
            <div key={item.title} className="border-l-2 border-accent/60 pl-5">
              <h3 className="text-base font-semibold text-text">{item.title}</h3>
              <p className="mt-2 text-sm leading-relaxed text-muted">{item.body}</p>
            </div>
          ))}
        </div>
      </section>

      <section className="page-shell pt-12 pb-16 lg:pt-16 lg:pb-24" aria-labelledby="trust-title">
        <div className="card grid gap-8 p-6 sm:p-10 lg:grid-cols-[1fr_1.2fr]">
          <div>
            <p className="eyebrow">Accountable by design</p>
            <h2 id="trust-title" className="mt-3 text-2xl font-bold tracking-tight sm:text-3xl">
              Powerful searches, in the right hands
            </h2>
            <p className="mt-4 text-sm leading-relaxed text-muted">
              Access is granted by licence, not by sign-up form alone. Already have an account? Sign in. New
              to {messages.brand}? Tell us about your organisation and we will be in touch.
            </p>
            <div className="mt-6 flex flex-wrap gap-3">
              <Link to={paths.login} className="btn-primary">
                Sign in
              </Link>
              <Link to={paths.about} className="btn-ghost">
                How we work
              </Link>
              <Link to={paths.verifyReport} className="btn-ghost">
                {messages.public.footerLinks.verify}
              </Link>
            </div>
          </div>
          <ul className="flex flex-col gap-4">
            {safeguards.map((line) => (
              <li key={line} className="flex gap-3 text-sm leading-relaxed text-text/90">
                <svg
                  viewBox="0 0 20 20"
                  aria-hidden="true"
                  className="mt-0.5 size-5 shrink-0 fill-none stroke-accent"
                  strokeWidth="2"
                  strokeLinecap="round"
                  strokeLinejoin="round"
                >
                  <path d="m5 10.5 3.2 3L15 6.5" />
                </svg>
                {line}
              </li>
            ))}
          </ul>
        </div>
      </section>
    </>
  );
}
