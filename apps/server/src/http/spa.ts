import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

/**
 * Serves the built web app from the same origin as the API. Unknown non-API GETs get index.html so
 * that the browser's router decides (and shows its own 404 page); the build draws the router's
 * spinner into it. The pages the build prerendered (apps/web/scripts/prerender.ts: `/` and `/login`,
 * as a signed-out visitor sees them, and the frame of each signed-in page with a path of its own,
 * `/dashboard`, `/results`, …) get their own file instead, drawn before any script runs.
 *
 * Returns the file to send for a page path, or null when there is no web build.
 */
export async function registerSpa(
  app: FastifyInstance,
  webDist: string,
  options: { sourceMaps: boolean } = { sourceMaps: true },
) {
  const index = join(webDist, 'index.html');
  if (!existsSync(index)) {
    app.log.warn({ webDist }, 'web build not found; serving the API only (run npm run build)');
    return null;
  }
  const prerendered = new Map<string, string>();
  const dir = join(webDist, 'prerendered');
  if (existsSync(dir)) {
    for (const name of readdirSync(dir)) {
      if (!name.endsWith('.html')) continue;
      const page = name === 'index.html' ? '/' : `/${name.slice(0, -'.html'.length)}`;
      prerendered.set(page, `prerendered/${name}`);
    }
  }
  await app.register(fastifyStatic, {
    root: webDist,
    wildcard: false,
    index: false,
    // Off, so that setHeaders below decides: send's own header (max-age=0) would otherwise win.
    cacheControl: false,
    // The build writes every text asset beside itself as .br and .gz (vite.config.ts): send the one
    // the browser's Accept-Encoding asks for, brotli first, the plain file otherwise.
    preCompressed: true,
    // Source maps help in development; in production they would publish the whole source. The
    // compressed copies are only ever chosen by negotiation, never asked for by name.
    allowedPath: (path) =>
      (options.sourceMaps || !path.endsWith('.map')) && !path.endsWith('.br') && !path.endsWith('.gz'),
    // The plugin itself adds `Vary: accept-encoding` with preCompressed, so caches keep the brotli,
    // gzip and plain answers apart.
    setHeaders(reply, path) {
      reply.header(
        'cache-control',
        path.includes('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache',
      );
    },
  });
  return (path: string): string => prerendered.get(path) ?? 'index.html';
}
