import { messages } from '@footprint/domain';
import { Link, useLocation } from 'react-router';
import { paths } from '../../../config/paths.ts';

const titles: Record<string, string> = {
  [paths.product]: 'Product',
  [paths.pricing]: 'Pricing',
  [paths.shipping]: 'Shipping Policy',
  [paths.returns]: 'Return Policy',
};

/** '/shipping-policy' → 'Shipping Policy', for any path not in the table. */
const titleFromPath = (pathname: string): string =>
  pathname
    .split('/')
    .filter(Boolean)
    .join(' ')
    .split('-')
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join(' ');

/**
 * Public routes whose content the spec does not show (/product, /pricing, /shipping-policy,
 * /return-policy): a heading and a pointer to the contact page, no invented prices or terms.
 */
export default function PlaceholderPage() {
  const { pathname } = useLocation();
  const title = titles[pathname] ?? titleFromPath(pathname);
  return (
    <>
      <title>{`${title} — ${messages.brand}`}</title>
      <article className="page-shell" aria-labelledby="placeholder-title">
        <p className="eyebrow">{messages.brand}</p>
        <h1 id="placeholder-title" className="page-title">
          {title}
        </h1>
        <p className="page-lead">
          Details for this page are provided on request. Please get in touch and our team will share the
          information that applies to your organisation.
        </p>
        <div className="mt-8">
          <Link to={paths.contact} className="btn-primary">
            Contact us
          </Link>
        </div>
      </article>
    </>
  );
}
