import type { FastifyInstance, HTTPMethods } from 'fastify';

export interface RouteEntry {
  method: string;
  url: string;
}

const tables = new WeakMap<FastifyInstance, RouteEntry[]>();

/**
 * Records every route the application registers, so that tests can hold the whole route table to
 * account (the authorization matrix fails for a route it has no entry for). HEAD routes Fastify adds
 * for GETs are left out; static-file wildcards are kept.
 */
export function recordRoutes(app: FastifyInstance): void {
  const table: RouteEntry[] = [];
  tables.set(app, table);
  app.addHook('onRoute', (route) => {
    const methods = (Array.isArray(route.method) ? route.method : [route.method]) as HTTPMethods[];
    for (const method of methods) {
      if (method === 'HEAD') continue;
      table.push({ method, url: route.url });
    }
  });
}

/** The routes recorded by recordRoutes, in registration order. */
export function routeTableOf(app: FastifyInstance): readonly RouteEntry[] {
  return tables.get(app) ?? [];
}

/** Paths served by the application's own handlers (not the web app's static files). */
export const isApplicationRoute = (url: string) =>
  url.startsWith('/api/') ||
  url.startsWith('/dev/') ||
  url.startsWith('/sanctum/') ||
  url.startsWith('/.well-known/') ||
  url === '/forgot-password';
