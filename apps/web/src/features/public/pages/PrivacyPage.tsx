import { messages } from '@footprint/domain';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { paths } from '../../../config/paths.ts';

const { email } = messages.public.contact;
const [collect, use, protect, sharing, rights, compliance, changes, contact] =
  messages.public.privacy.sections;

/** The eight sections of spec §2.1, in order; their headings live in the domain messages. */
const sections: { title: string; body: ReactNode }[] = [
  {
    title: collect,
    body: (
      <>
        <p>We collect only what we need to provide, secure and bill the service:</p>
        <ul>
          <li>
            <strong>Account details</strong> — your name, e-mail address and the organisation you represent,
            supplied when your account is created.
          </li>
          <li>
            <strong>Technical data</strong> — your IP address, browser type and device details, recorded when
            you sign in and while you use the platform.
          </li>
          <li>
            <strong>Usage records</strong> — the searches, exports and reports you run, with their date and
            time, kept as the audit trail of your account.
          </li>
        </ul>
      </>
    ),
  },
  {
    title: use,
    body: (
      <>
        <p>We use this information to:</p>
        <ul>
          <li>sign you in, recognise trusted devices and send one-time passwords;</li>
          <li>run the lookups you request and keep your credit balance accurate;</li>
          <li>detect misuse, fraud and attempts at unauthorised access;</li>
          <li>keep an audit trail your organisation, and lawful authorities, can review;</li>
          <li>answer your support requests and tell you about changes to the service.</li>
        </ul>
      </>
    ),
  },
  {
    title: protect,
    body: (
      <p>
        Passwords are stored only as salted hashes, sessions use short-lived tokens, and traffic to the
        platform is encrypted in transit. Access to stored data is limited to staff who need it to operate the
        service, and new devices must confirm a one-time password before they are trusted. No system is
        perfectly secure, but we review our safeguards regularly and act promptly on any incident.
      </p>
    ),
  },
  {
    title: sharing,
    body: (
      <>
        <p>
          <strong>We do not sell your personal data</strong>, and we do not share it with advertisers. We
          disclose it only:
        </p>
        <ul>
          <li>
            to the data sources and service providers that process a lookup or run our infrastructure, under
            obligations of confidentiality;
          </li>
          <li>
            to law-enforcement agencies, courts or regulators when we receive a valid legal request — we
            comply with such requests as the law requires;
          </li>
          <li>to the organisation that licensed your account, for the records of that account.</li>
        </ul>
      </>
    ),
  },
  {
    title: rights,
    body: (
      <p>
        You may ask to see the personal data we hold about you, to correct it if it is inaccurate, or to
        delete it where we are not required to keep it. Audit records of searches are retained for as long as
        the law and our accountability obligations require. Write to us at the address below and we will
        respond within a reasonable time.
      </p>
    ),
  },
  {
    title: compliance,
    body: (
      <p>
        We process data in line with the Information Technology Act, 2000, the rules made under it and the
        Digital Personal Data Protection Act, 2023 of India, and with other laws that apply to our service.
        Users are responsible for making sure that each search they run has a lawful basis.
      </p>
    ),
  },
  {
    title: changes,
    body: (
      <p>
        We may update this policy as the service or the law changes. The current version is always published
        on this page; significant changes are announced to account holders before they take effect. Continued
        use of the platform after a change means you accept the updated policy.
      </p>
    ),
  },
  {
    title: contact,
    body: (
      <p>
        Questions about this policy or about your data: write to <a href={`mailto:${email}`}>{email}</a> or
        use our <Link to={paths.contact}>contact page</Link>.
      </p>
    ),
  },
];

/** '/privacy' (spec §2.1, §9): the privacy policy in eight numbered sections. */
export default function PrivacyPage() {
  return (
    <>
      <title>{`Privacy policy — ${messages.brand}`}</title>
      <article className="page-shell" aria-labelledby="privacy-title">
        <p className="eyebrow">{messages.public.nav.privacy}</p>
        <h1 id="privacy-title" className="page-title">
          {messages.public.privacy.title}
        </h1>
        <p className="page-lead">
          This policy explains what {messages.brand} collects when you use the platform, why, and what we do
          to protect it.
        </p>
        <div className="prose-policy mt-10">
          {sections.map((section, index) => (
            <section key={section.title} aria-labelledby={`privacy-${index + 1}`}>
              <h2 id={`privacy-${index + 1}`}>
                <span className="mr-2 text-accent">{index + 1}.</span>
                {section.title}
              </h2>
              {section.body}
            </section>
          ))}
        </div>
      </article>
    </>
  );
}
