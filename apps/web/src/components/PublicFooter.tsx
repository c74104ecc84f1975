import { messages } from '@footprint/domain';
import { Link } from 'react-router';
import { paths } from '../config/paths.ts';
import { Logo } from './Logo.tsx';

const links = [
  { to: paths.contact, label: messages.public.footerLinks.support },
  { to: paths.about, label: messages.public.footerLinks.company },
  { to: paths.terms, label: messages.public.footerLinks.terms },
  { to: paths.refund, label: messages.public.footerLinks.refund },
  { to: paths.verifyReport, label: messages.public.footerLinks.verify },
  { to: paths.attributions, label: messages.public.footerLinks.attributions },
] as const;

/**
 * Footer of the marketing and policy pages (spec §2.1): Support, Company, Terms, Refund, the public
 * report check, and the notices of the works the product ships.
 */
export function PublicFooter() {
  const year = new Date().getFullYear();
  return (
    <footer className="border-t border-line/80 bg-ink/60 backdrop-blur-sm">
      <div className="mx-auto flex max-w-5xl flex-col gap-6 px-5 py-8 sm:px-8 md:flex-row md:items-center md:justify-between">
        <div className="flex flex-col gap-2">
          <Logo to={paths.home} size="sm" />
          <p className="text-xs text-muted">{messages.taglines.proactive}</p>
        </div>
        <nav aria-label={messages.layout.footerNav}>
          <ul className="flex flex-wrap gap-x-6 gap-y-2 text-sm">
            {links.map((link) => (
              <li key={link.to}>
                <Link
                  to={link.to}
                  className="rounded text-muted underline-offset-4 transition-colors hover:text-accent hover:underline"
                >
                  {link.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
      </div>
      <div className="border-t border-line/60">
        <p className="mx-auto max-w-5xl px-5 py-4 text-xs text-muted sm:px-8">
          © {year} {messages.brand}. {messages.footer.rights}.
        </p>
      </div>
    </footer>
  );
}

export default PublicFooter;
