import { messages } from '@footprint/domain';
import { Link, useLocation } from 'react-router';
import { paths } from '../../../config/paths.ts';

const { placeholder } = messages.public;

const titles: Record<string, string> = {
  [paths.product]: placeholder.titles.product,
  [paths.pricing]: placeholder.titles.pricing,
  [paths.shipping]: placeholder.titles.shipping,
  [paths.returns]: placeholder.titles.returns,
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
        <p className="page-lead">{placeholder.lead}</p>
        <div className="mt-8">
          <Link to={paths.contact} className="btn-primary">
            {placeholder.contact}
          </Link>
        </div>
      </article>
    </>
  );
}
