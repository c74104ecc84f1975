// The build's server-side entry (scripts/prerender.ts): renders a page of the app to HTML, as a
// signed-out visitor sees it, or the frame of a signed-in page, so that its first paint needs no
// JavaScript.
import './lib/zod-jitless.ts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from 'react-router';
import { LayoutSkeleton } from './app/layouts/main/LayoutSkeleton.tsx';
import { routes } from './app/router.tsx';
import { PageSpinner } from './components/Spinner.tsx';

/** The markup of `path` (for #root) and its <title>. */
export async function render(path: string): Promise<{ html: string; title: string | null }> {
  const handler = createStaticHandler(routes);
  const context = await handler.query(new Request(`http://prerender${path}`));
  if (context instanceof Response) throw new Error(`${path} redirects: nothing to prerender`);
  const router = createStaticRouter(handler.dataRoutes, context);
  const queryClient = new QueryClient();
  let html = renderToString(
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        {/* No hydration data: the browser renders the page itself and takes this markup's place. */}
        <StaticRouterProvider router={router} context={context} hydrate={false} />
      </QueryClientProvider>
    </StrictMode>,
  );
  // React 19 writes a page's <title> at the start of the markup; it belongs in <head>.
  let title: string | null = null;
  html = html.replace(/<title>([^<]*)<\/title>/, (_, text: string) => {
    title = text;
    return '';
  });
  return { html, title };
}

/**
 * The markup of a signed-in page at `path` while its user loads (MainLayout's loading state): the
 * same for everyone, signed in or not.
 */
export function renderShell(path: string): string {
  return renderToString(<LayoutSkeleton pathname={path} />);
}

/** What the router shows before any page's code has loaded (its HydrateFallback): the spinner. */
export function renderFallback(): string {
  return renderToString(<PageSpinner />);
}
