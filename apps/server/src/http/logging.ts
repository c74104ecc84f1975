import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance } from 'fastify';
import pino, { type DestinationStream, type LoggerOptions } from 'pino';

/** Fields that hold a password or a password hash wherever they appear in a logged object. */
const SECRET_FIELDS = [
  'password',
  'password_confirmation',
  'current_password',
  'new_password',
  'temporary_password',
  'passwordHash',
  'password_hash',
  'token',
  'otp',
];

/** pino redaction paths: the fields at the top, one and two levels down (req.body.password). */
export const REDACT_PATHS = SECRET_FIELDS.flatMap((field) => [field, `*.${field}`, `*.*.${field}`]);

/** An argon2 encoded hash ($argon2id$v=19$m=…,t=…,p=…$salt$hash), wherever it shows up in a string. */
const ARGON2 = /\$argon2(?:id|i|d)\$[^\s"'()]*/g;
/** The parameter line Drizzle puts in a failed query's message and stack. */
const PARAMS_LINE = /\nparams: [^\n]*/g;

const scrubText = (text: string) =>
  text.replace(PARAMS_LINE, '\nparams: [redacted]').replace(ARGON2, '[redacted]');

/**
 * Keys of a database error that repeat what was written: Drizzle's `params` (every bound value of the
 * failed query, a password hash among them when a user row failed) and PostgreSQL's `detail`
 * ("Failing row contains (…)").
 */
const ROW_KEYS = new Set(['params', 'parameters', 'detail']);

function scrub(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return scrubText(value);
  if (value === null || typeof value !== 'object' || depth > 8) return value;
  if (Array.isArray(value)) return value.map((item) => scrub(item, depth + 1));
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => !ROW_KEYS.has(key))
      .map(([key, item]) => [key, scrub(item, depth + 1)]),
  );
}

/** pino's error serializer, without the data of the row a failed query carried. */
export function serializeError(error: unknown): unknown {
  return scrub(pino.stdSerializers.err(error as Error));
}

/**
 * The server's logger: the level from LOG_LEVEL, passwords and their hashes never written (neither
 * in a logged body nor in a database error's message, parameters or failing row).
 */
export function loggerOptions(
  level: string,
  stream?: DestinationStream,
): LoggerOptions & { stream?: DestinationStream } {
  return {
    level,
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    serializers: { err: serializeError, error: serializeError },
    ...(stream ? { stream } : {}),
  };
}

/** The request id a caller (or a proxy in front) may send, and every answer carries. */
export const REQUEST_ID_HEADER = 'x-request-id';
const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * Fastify's `genReqId`: the caller's X-Request-Id when it is a sane token (so a proxy's id follows the
 * request into our log), else a new UUID. Anything else a caller sends there is never logged.
 */
export function requestIdOf(req: IncomingMessage): string {
  const sent = req.headers[REQUEST_ID_HEADER];
  return typeof sent === 'string' && SANE_REQUEST_ID.test(sent) ? sent : randomUUID();
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** A path segment that could be a searched identifier: an e-mail address or a run of digits (a number). */
const IDENTIFIER_SEGMENT = /[^/]*(?:@|%40|\d{6,})[^/]*/gi;

/**
 * The path an access line may carry: never the query string (searches take their identifiers there);
 * for a route whose parameters are not all UUIDs (map tiles, passkey ids) only the route pattern; for a
 * path no route matched, the path with any segment that could be an identifier cut out.
 */
function loggablePath(url: string, route: string | undefined, params: unknown): string | undefined {
  const query = url.indexOf('?');
  const path = query === -1 ? url : url.slice(0, query);
  if (route === undefined) return path.replace(IDENTIFIER_SEGMENT, '[redacted]');
  if (!route.includes(':') && !route.includes('*')) return undefined;
  const values = Object.values((params ?? {}) as Record<string, unknown>);
  return values.every((value) => typeof value === 'string' && UUID.test(value)) ? path : undefined;
}

/**
 * One access line per request, in place of Fastify's own two (`disableRequestLogging`), which log the
 * raw URL with its query string and so the phone numbers and e-mail addresses searched: method, route
 * pattern, status, duration, the request id (pino's `reqId`) and who asked (user id, API key id;
 * never an e-mail). Every answer carries its X-Request-Id. `observe` is told of each answer (metrics).
 */
export function registerRequestLog(
  app: FastifyInstance,
  observe?: (method: string, route: string, status: number, ms: number) => void,
): void {
  // Below info (LOG_LEVEL=warn, silent) no line is written, so none is put together either.
  const lines = ['trace', 'debug', 'info'].includes(app.log.level);
  app.addHook('onRequest', (request, reply, done) => {
    reply.header(REQUEST_ID_HEADER, request.id);
    done();
  });
  app.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url;
    const status = reply.statusCode;
    const ms = reply.elapsedTime;
    observe?.(request.method, route ?? 'unmatched', status, ms);
    if (!lines) return done();
    const path = loggablePath(request.url, route, request.params);
    request.log.info(
      {
        method: request.method,
        route: route ?? null,
        ...(path !== undefined ? { path } : {}),
        status,
        ms: Math.round(ms * 10) / 10,
        ...(request.user ? { userId: request.user.id } : {}),
        ...(request.apiKey ? { apiKeyId: request.apiKey.id } : {}),
      },
      'request completed',
    );
    done();
  });
}
