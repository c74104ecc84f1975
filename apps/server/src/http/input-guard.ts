import type { FastifyInstance, FastifyRequest } from 'fastify';
import { controlCharacters, type DomainError } from '../errors.ts';

/**
 * C0 control characters and DEL, except tab, line feed and carriage return. None belongs in a field a
 * person types; NUL cannot even be stored (PostgreSQL refuses it in text and jsonb, which used to turn
 * such a request into a 500 whose log carried the failing row).
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding them is what this is for.
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;

/** Nesting deeper than this is not walked further (the body limit bounds the size anyway). */
const MAX_DEPTH = 64;

/** The first key (or array index) path of `value` whose key or string holds a control character. */
export function findControl(value: unknown, path: string[] = [], depth = 0): string[] | undefined {
  if (typeof value === 'string') return CONTROL.test(value) ? path : undefined;
  if (value === null || typeof value !== 'object' || depth > MAX_DEPTH) return undefined;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findControl(value[i], [...path, String(i)], depth + 1);
      if (found) return found;
    }
    return undefined;
  }
  if (Buffer.isBuffer(value)) return undefined;
  for (const [key, item] of Object.entries(value)) {
    if (CONTROL.test(key)) return [...path, key];
    const found = findControl(item, [...path, key], depth + 1);
    if (found) return found;
  }
  return undefined;
}

/** A field name fit for a message: the top-level key, without the control character itself. */
const fieldOf = (path: string[]) => (path[0] ?? 'input').replace(new RegExp(CONTROL.source, 'g'), '?');

function check(request: FastifyRequest): DomainError | undefined {
  // Node's HTTP parser already refuses most of these in headers; inject() and proxies do not.
  for (const [name, value] of Object.entries(request.headers)) {
    if (findControl(value)) return controlCharacters(name, `The ${name} header`);
  }
  const cookie = findControl(request.cookies ?? {});
  if (cookie) return controlCharacters(fieldOf(cookie), `The ${fieldOf(cookie)} cookie`);
  const param = findControl(request.params ?? {});
  if (param) return controlCharacters(fieldOf(param), 'The request path');
  const query = findControl(request.query ?? {});
  if (query) return controlCharacters(fieldOf(query), `The ${fieldOf(query)} field`);
  const body = findControl(request.body);
  if (body)
    return controlCharacters(
      fieldOf(body),
      body.length > 0 ? `The ${fieldOf(body)} field` : 'The request body',
    );
  return undefined;
}

/**
 * Refuses, before any route runs, a request whose headers, cookies, path parameters, query or JSON
 * body hold a control character other than tab, line feed and carriage return: a 400 naming the field,
 * and nothing is read from or written to the database.
 */
export function registerInputGuard(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    const refused = check(request);
    if (refused) throw refused;
  });
}
