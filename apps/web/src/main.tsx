// First: settings zod reads when it loads (no eval under the CSP).
import './lib/zod-jitless.ts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode, startTransition, useLayoutEffect } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter, RouterProvider } from 'react-router';
import { routes } from './app/router.tsx';
import { prerendered, shell } from './lib/prerendered.ts';
import 'react-toastify/dist/ReactToastify.css';
import './styles.css';

const queryClient = new QueryClient({
  defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false } },
});

const root = document.getElementById('root');
if (!root) throw new Error('#root is missing from index.html');

/**
 * A prerendered page (scripts/prerender.ts) arrives drawn but inert: nothing in it can be focused,
 * typed into or pressed until the app has taken its place, so no keystroke is lost to it. The app's
 * first commit replaces the markup with the same page, live, and lifts that.
 */
function TakeOver() {
  useLayoutEffect(() => root?.removeAttribute('inert'), []);
  return null;
}

const router = createBrowserRouter(routes);

function start() {
  const app = createRoot(root as HTMLElement);
  // A transition renders in slices that give the main thread back every few milliseconds, so a slow
  // phone can still scroll and paint while the first page is built (and the prerendered one, already
  // on screen, stays until it is done).
  startTransition(() =>
    app.render(
      <StrictMode>
        <QueryClientProvider client={queryClient}>
          <RouterProvider router={router} />
          <TakeOver />
        </QueryClientProvider>
      </StrictMode>,
    ),
  );
}

if (!(prerendered || shell) || router.state.initialized) start();
else {
  // Rendered before its page's code has loaded, the router would show its fallback (a spinner) in
  // place of the prerendered page or frame: wait for the page's chunks first. (Not a top-level
  // await: the bundler would then split the entry's modules out into many chunks, so that lazy
  // chunks cannot wait on an entry that waits on them.)
  const stop = router.subscribe((state) => {
    if (!state.initialized) return;
    stop();
    start();
  });
}
