import { messages } from '@footprint/domain';
import { Link } from 'react-router';
import { paths } from '../../config/paths.ts';

const supportEmail = messages.public.contact.email;

const { helpPage } = messages;

/** /help (spec §2.3, linked from the mobile sidebar): how to search, credits, and whom to contact. */
export default function HelpPage() {
  return (
    <div className="mx-auto w-full max-w-3xl px-4 py-10 sm:px-6 lg:py-14">
      <h1 className="text-3xl font-bold tracking-tight text-text">{helpPage.title}</h1>
      <p className="mt-3 text-muted">{helpPage.lead(messages.brand)}</p>

      <div className="mt-8 grid gap-4 sm:grid-cols-2">
        {helpPage.sections.map((section) => (
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
          <h2 className="text-base font-semibold text-text">{helpPage.contactTitle}</h2>
          <p className="mt-1 text-sm text-muted">
            {helpPage.contactBefore}{' '}
            <a
              href={`mailto:${supportEmail}`}
              className="text-accent underline underline-offset-4 hover:decoration-2"
            >
              {supportEmail}
            </a>{' '}
            {helpPage.contactAfter}
          </p>
        </div>
        <Link to={paths.dashboard} className="btn-ghost shrink-0">
          {helpPage.backToDashboard}
        </Link>
      </section>
    </div>
  );
}
