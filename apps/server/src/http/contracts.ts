import { errorResponse } from '@footprint/domain';
import type { FastifyInstance, FastifySchema, FastifyTypeProvider, RouteOptions } from 'fastify';
import { serializerCompiler } from 'fastify-type-provider-zod';
import type { z } from 'zod';
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

/** A route schema with the OpenAPI extras @fastify/swagger reads. */
export type RouteContract = FastifySchema & {
  summary?: string;
  description?: string;
  tags?: readonly string[];
  operationId?: string;
  security?: ReadonlyArray<Record<string, readonly string[]>>;
  hide?: boolean;
};

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
 * others are marked public); a route with an API-key scope also lists the `apiKey` scheme and its scope. An application route
 * registered without response schemas fails at start-up.
 */
export function registerContracts(app: FastifyInstance, authenticate: unknown): void {
  // Documentation only; see ContractTypeProvider.
  app.setValidatorCompiler(() => (data) => ({ value: data }));
  app.setSerializerCompiler(serializerCompiler);

  app.addHook('onRoute', (route) => {
    if (!isApplicationRoute(route.url)) return;
    const schema = (route.schema ?? {}) as RouteContract;
    if (!schema.response) {
      throw new Error(`${String(route.method)} ${route.url} has no response schema`);
    }
    const response = { ...(schema.response as Record<string, unknown>) };
    response['4xx'] ??= errorResponse;
    response['5xx'] ??= errorResponse;
    const authenticated = handlersOf(route.preHandler).includes(authenticate);
    // A route with an API-key scope (http/auth.ts) takes a session or a key holding that scope.
    const scope = authenticated ? (route.config as { scope?: string } | undefined)?.scope : undefined;
    route.schema = {
      operationId: operationIdOf(String(route.method), route.url),
      security: scope ? [{ bearer: [] }, { apiKey: [scope] }] : authenticated ? [{ bearer: [] }] : [],
      ...schema,
      response,
    };
  });
}
