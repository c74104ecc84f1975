/**
 * True when this page load began with prerendered markup in #root (scripts/prerender.ts writes `/` and
 * `/login` at build time), so the first page on screen is already drawn and must not fade in again.
 * Read once, when the entry chunk loads, before the app replaces that markup.
 */
export const prerendered: boolean =
  typeof document !== 'undefined' &&
  document.getElementById('root')?.hasAttribute('data-prerendered') === true;

/**
 * True when this page load began with the prerendered frame of a signed-in page in #root
 * (scripts/prerender.ts: the layout's loading state, app/layouts/main/LayoutSkeleton.tsx), which the
 * app's first render draws again, box for box.
 */
export const shell: boolean =
  typeof document !== 'undefined' && document.getElementById('root')?.hasAttribute('data-shell') === true;
