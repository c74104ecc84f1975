import { errorResponse } from '@footprint/domain';
import type { FastifyInstance, FastifySchema, FastifyTypeProvider, RouteOptions } from 'fastify';
import { serializerCompiler } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import {
  documentPath,
  operationFactsOf,
  REFUSALS,
  RefusalList,
  type Refusals,
  type ResponseHeaders,
  SERVER_FAILURE,
} from './responses.ts';
import { isApplicationRoute } from './route-table.ts';

/**
 * Every route declares its contract in `schema`: the domain's request schemas (`body`, `querystring`,
 * `params`) and a response schema per status. The responses are enforced: each JSON answer is encoded
 * with its schema, so an answer that breaks its contract is a 500 and keys it does not declare are
 * dropped. The request schemas document the route and type nothing at run time: the handler parses
 * with the same schema (`parseInput`), after the guards, so that an anonymous caller gets 401 before
 * any 422 and every message stays the spec's.
 */
export interface ContractTypeProvider extends FastifyTypeProvider {
  validator: unknown;
  serializer: this['schema'] extends z.ZodType ? z.output<this['schema']> : unknown;
}

declare module 'fastify' {
  interface FastifySchema {
    /** See RouteContract: read by registerContracts for the document, then removed. */
    refusals?: Refusals;
    responseHeaders?: ResponseHeaders;
    multipart?: unknown;
  }
}

/** A route schema with the OpenAPI extras @fastify/swagger reads. */
export type RouteContract = FastifySchema & {
  summary?: string;
  description?: string;
  tags?: readonly string[];
  operationId?: string;
  security?: ReadonlyArray<Record<string, readonly string[]>>;
  hide?: boolean;
  /**
   * The statuses the handler answers beyond what its guards and parsed input imply (http/responses.ts):
   * documented, never enforced.
   */
  refusals?: Refusals;
  /** Headers of the success answer (name → description), for the document. */
  responseHeaders?: ResponseHeaders;
  /** The body may also come as multipart/form-data of this shape (documentation only). */
  multipart?: z.ZodType | undefined;
};

/** The guards whose refusals the document derives: `authenticate` alone, or the whole set. */
export type ContractGuards =
  | unknown
  | { authenticate: unknown; requireLive?: unknown; requireAdmin?: unknown };

type Handlers = RouteOptions['preHandler'];

const capital = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);

/** GET /api/history/:id → getApiHistoryById; a trailing slash is spelled out, so the id stays unique. */
export function operationIdOf(method: string, url: string): string {
  const words = url
    .split('/')
    .filter(Boolean)
    .map((part) => (part.startsWith(':') ? `By-${part.slice(1)}` : part))
    .flatMap((part) => part.split(/[^A-Za-z0-9]+/))
    .filter(Boolean);
  return method.toLowerCase() + words.map(capital).join('') + (url.endsWith('/') ? 'Slash' : '');
}
const handlersOf = (value: Handlers): unknown[] => (value ? (Array.isArray(value) ? value : [value]) : []);

/**
 * Sets the compilers and completes every route's contract as it is registered: the shared error body
 * for 4xx and 5xx, an operation id, and the bearer requirement on routes behind `authenticate` (the
 * others are marked public); a route with an API-key scope also lists the `apiKey` scheme and its scope.
 * It records the statuses the route can answer (from its guards, its input and its `refusals`) for the
 * document (http/responses.ts). An application route registered without response schemas fails at
 * start-up.
 */
export function registerContracts(app: FastifyInstance, guards: ContractGuards): void {
  const { authenticate, requireLive, requireAdmin } =
    typeof guards === 'function' || guards === null || typeof guards !== 'object'
      ? { authenticate: guards, requireLive: undefined, requireAdmin: undefined }
      : (guards as { authenticate: unknown; requireLive?: unknown; requireAdmin?: unknown });
  const facts = operationFactsOf(app);
  // Documentation only; see ContractTypeProvider.
  app.setValidatorCompiler(() => (data) => ({ value: data }));
  app.setSerializerCompiler(serializerCompiler);

  app.addHook('onRoute', (route) => {
    if (!isApplicationRoute(route.url)) return;
    const { refusals, responseHeaders, multipart, ...schema } = (route.schema ?? {}) as RouteContract;
    if (!schema.response) {
      throw new Error(`${String(route.method)} ${route.url} has no response schema`);
    }
    const response = { ...(schema.response as Record<string, unknown>) };
    response['4xx'] ??= errorResponse;
    response['5xx'] ??= errorResponse;
    const handlers = handlersOf(route.preHandler);
    const authenticated = handlers.includes(authenticate);
    // A route with an API-key scope (http/auth.ts) takes a session or a key holding that scope.
    const scope = authenticated ? (route.config as { scope?: string } | undefined)?.scope : undefined;

    // What the module declares first (its words lead), then what the guards and the input imply.
    const list = new RefusalList().addAll(refusals);
    // Any request can be malformed (control characters, a broken query or body: the input guard
    // answers 400), and any request with a body can be too large or of a media type not taken.
    list.add(400, REFUSALS.malformed);
    if (schema.body || schema.querystring || schema.params) list.add(422, REFUSALS.invalid);
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (methods.some((m) => m !== 'GET' && m !== 'HEAD')) {
      list.add(413, REFUSALS.tooLarge).add(415, REFUSALS.mediaType);
    }
    if (authenticated) list.add(401, REFUSALS.unauthenticated).add(403, REFUSALS.secondFactor);
    if (requireLive !== undefined && handlers.includes(requireLive)) list.add(403, REFUSALS.live);
    if (requireAdmin !== undefined && handlers.includes(requireAdmin)) list.add(403, REFUSALS.admin);
    if (authenticated) list.add(403, REFUSALS.keyScope);
    if (scope) list.add(429, REFUSALS.keyRateLimit);
    if (schema.params) list.add(404, REFUSALS.notFound);
    list.add(500, SERVER_FAILURE);
    for (const method of methods) {
      facts.set(`${String(method)} ${documentPath(route.url)}`, {
        refusals: list.map,
        headers: responseHeaders ?? {},
        multipart,
      });
    }

    route.schema = {
      operationId: operationIdOf(String(route.method), route.url),
      security: scope ? [{ bearer: [] }, { apiKey: [scope] }] : authenticated ? [{ bearer: [] }] : [],
      ...schema,
      response,
    };
  });
}
