import { messages } from '@footprint/domain';
import { Link } from 'react-router';
import { paths } from '../../../config/paths.ts';

const commitments = [
  {
    title: 'A lawful basis for every search',
    body: 'Footprint is for investigations that have a legitimate purpose: a criminal case, a fraud inquiry, due diligence, or a story in the public interest. Users confirm our terms before they search, and accounts used for anything else are suspended.',
  },
  {
    title: 'Named, licensed accounts',
    body: 'Accounts are issued to specific authorised personnel of verified organisations. They cannot be shared, transferred or resold, so every result can be traced to the person who asked for it.',
  },
  {
    title: 'A complete audit trail',
    body: 'Every lookup, export and report is recorded with who ran it and when. Organisations can review how the platform was used, and we can answer for it when asked by a court or regulator.',
  },
  {
    title: 'No resale of data',
    body: 'We do not sell, rent or broker the data that passes through Footprint, and we do not use your searches for marketing. We collect only what we need to run, secure and bill the service.',
  },
  {
    title: 'Findings, not verdicts',
    body: 'Open sources are incomplete and sometimes wrong. Footprint keeps every source visible beside the merged profile, so investigators can corroborate before they act or publish.',
  },
] as const;

/** '/about' (spec §2.1): the platform, its mission and its commitment to ethical intelligence gathering. */
export default function AboutPage() {
  return (
    <>
      <title>{`About us — ${messages.brand}`}</title>
      <article className="page-shell" aria-labelledby="about-title">
        <p className="eyebrow">{messages.public.nav.who}</p>
        <h1 id="about-title" className="page-title">
          {messages.public.about.title}
        </h1>
        <p className="page-lead">
          {messages.brand} is an open-source intelligence platform for verified law-enforcement departments,
          investigators and journalists. From a phone number or an e-mail address it gathers what social
          networks, messaging apps, public records, carrier data and breach lists reveal, and merges it into a
          single profile that can be checked, exported and cited.
        </p>

        <div className="mt-12 grid gap-6 md:grid-cols-2">
          <section className="card p-6 sm:p-8" aria-labelledby="about-platform">
            <h2 id="about-platform" className="text-lg font-semibold text-text">
              The platform
            </h2>
            <p className="mt-3 text-sm leading-relaxed text-muted">
              Phone and e-mail lookups, a Leak Data Finder, corporate intelligence and identity verification
              for India, and PDF and AI-written reports — in one workspace, metered by credits so that every
              search is deliberate and accounted for.
            </p>
          </section>
          <section className="card p-6 sm:p-8" aria-labelledby="about-mission">
            <h2 id="about-mission" className="text-lg font-semibold text-text">
              Our mission
            </h2>
            <p className="mt-3 text-sm leading-relaxed text-muted">
              {messages.taglines.proactive} We want the people who protect the public to find what they need
              in minutes instead of days — and to do it in a way that stands up to scrutiny.
            </p>
          </section>
        </div>

        <section className="mt-16" aria-labelledby="about-ethics">
          <p className="eyebrow">Ethical intelligence gathering</p>
          <h2 id="about-ethics" className="mt-3 text-2xl font-bold tracking-tight sm:text-3xl">
            Our commitments
          </h2>
          <ol className="mt-8 grid gap-4">
            {commitments.map((item, index) => (
              <li
                key={item.title}
                className="flex gap-5 rounded-2xl border border-line/80 bg-night/60 p-5 sm:p-6"
              >
                <span
                  className="flex size-9 shrink-0 items-center justify-center rounded-full bg-accent-soft text-sm font-semibold text-accent"
                  aria-hidden="true"
                >
                  {index + 1}
                </span>
                <div>
                  <h3 className="font-semibold text-text">{item.title}</h3>
                  <p className="mt-1.5 text-sm leading-relaxed text-muted">{item.body}</p>
                </div>
              </li>
            ))}
          </ol>
        </section>

        <p className="mt-12 text-sm text-muted">
          Questions about how we work, or about access for your organisation?{' '}
          <Link
            to={paths.contact}
            className="font-semibold text-accent underline underline-offset-4 hover:decoration-2"
          >
            Contact us
          </Link>
          .
        </p>
      </article>
    </>
  );
}
