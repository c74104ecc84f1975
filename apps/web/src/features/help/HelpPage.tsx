import { messages } from '@footprint/domain';
import { Link } from 'react-router';
import { paths } from '../../config/paths.ts';

const supportEmail = messages.public.contact.email;

const sections = [
  {
    title: 'Searching',
    body: [
      'Choose Phone Search or Email Search in the menu. For a phone number, pick the country code and enter the 10-digit number; for an e-mail, enter the full address.',
      'Tick the terms acknowledgement and submit. Results from every source are merged into one profile, which you can save as a PDF report.',
    ],
  },
  {
    title: 'Credits',
    body: [
      'Every lookup spends credits from your account. Your balance is always shown in the header and on the results page.',
      'When the balance runs out, searches are refused until credits are added. Contact support to top up your account.',
    ],
  },
  {
    title: 'Other tools',
    body: [
      'Leak Data Finder searches leaked records by name, e-mail, phone or username.',
      'Corporate Intelligence and Verified ID are available to live accounts; trial accounts are shown an upgrade notice.',
    ],
  },
  {
    title: 'Your account',
    body: [
      'Accounts are licensed to specific authorised personnel and cannot be shared or transferred.',
      'Signing in from a new device asks for a one-time code sent to your e-mail. Sessions end automatically when they expire.',
    ],
  },
] as const;

/** /help (spec §2.3, linked from the mobile sidebar): how to search, credits, and whom to contact. */
export default function HelpPage() {
  return (
    <div className="mx-auto w-full max-w-3xl px-4 py-10 sm:px-6 lg:py-14">
      <h1 className="text-3xl font-bold tracking-tight text-text">Help</h1>
      <p className="mt-3 text-muted">A short guide to {messages.brand}.</p>

      <div className="mt-8 grid gap-4 sm:grid-cols-2">
        {sections.map((section) => (
          <section key={section.title} className="card p-5">
            <h2 className="text-base font-semibold text-text">{section.title}</h2>
            {section.body.map((line) => (
              <p key={line} className="mt-2 text-sm leading-relaxed text-muted">
                {line}
              </p>
            ))}
          </section>
        ))}
      </div>

      <section className="card mt-4 flex flex-col gap-4 p-5 sm:flex-row sm:items-center sm:justify-between">
        <div>
          <h2 className="text-base font-semibold text-text">Contact support</h2>
          <p className="mt-1 text-sm text-muted">
            Write to{' '}
            <a href={`mailto:${supportEmail}`} className="text-accent underline-offset-4 hover:underline">
              {supportEmail}
            </a>{' '}
            for access, credits or anything else.
          </p>
        </div>
        <Link to={paths.dashboard} className="btn-ghost shrink-0">
          Back to dashboard
        </Link>
      </section>
    </div>
  );
}
