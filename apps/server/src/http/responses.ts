import { errorResponse, paymentRequiredResponse, retryLaterResponse } from '@footprint/domain';
import { z } from 'zod';

/**
 * The answers an operation can give besides its success, written in one place: each route's guards,
 * its parsed input and what its module declares (`refusals`) give its status codes; the OpenAPI
 * document then lists each code with its error schema and headers instead of 4XX and 5XX ranges.
 * Nothing here changes an answer: the routes' own schemas still serialize every error.
 */

/** The error schemas, by component name. */
export const ERROR_SCHEMAS = {
  Error: errorResponse,
  PaymentRequired: paymentRequiredResponse,
  RetryLater: retryLaterResponse,
} as const;
export type ErrorSchemaName = keyof typeof ERROR_SCHEMAS;

export interface Refusal {
  description: string;
  /** The error body's schema; Error unless the status implies another (402, 429). */
  schema?: ErrorSchemaName;
  /** The answer carries Retry-After (429 always does). */
  retryAfter?: boolean;
}

/** What a route declares beyond its guards: status → why (a text, or a Refusal). */
export type Refusals = Partial<Record<number, string | Refusal>>;

/** Response headers of a route's success answer: name → description. */
export type ResponseHeaders = Record<string, string>;

/** The facts the document is completed with, per operation (`GET /api/history/{id}`). */
export interface OperationFacts {
  refusals: Map<number, Refusal>;
  headers: ResponseHeaders;
  /** The body as multipart/form-data as well (an upload), beside its JSON. */
  multipart?: z.ZodType | undefined;
}

const DEFAULT_SCHEMA: Partial<Record<number, ErrorSchemaName>> = {
  402: 'PaymentRequired',
  429: 'RetryLater',
};

export const SERVER_FAILURE =
  'Server failure: the error body; nothing was charged, or the charge was refunded.';

/** Refusals shared by several modules. */
export const REFUSALS = {
  unauthenticated: 'No valid session or API key (missing, expired, revoked, or the account is disabled).',
  secondFactor:
    'The deployment requires a second factor and this account has none yet (`second_factor_setup_required`).',
  live: 'Trial accounts cannot use this feature: live accounts only.',
  admin: 'Admins only.',
  keyScope: 'An API key without the scope this operation needs, or an operation keys cannot call.',
  keyRateLimit: "The API key's own rate limit is spent: try again after Retry-After seconds.",
  invalid: 'Input that breaks a rule: `errors` per field, the first message as `message`.',
  malformed:
    'A malformed request: a body that is not valid JSON, or text with control characters in the query, headers or body (`errors` names the field).',
  notFound: 'No such resource of the caller’s (another user’s id is answered the same way).',
  insufficient:
    'The balance does not cover the search (`credits`), or an API key’s monthly credit cap would be passed (`monthly_credit_cap`, `credits_this_month`). Nothing was charged.',
  noSource: 'No source answered: the charge was refunded (`credits`, `errors_by_source`).',
  unavailable: 'No source of this kind is configured in this deployment; nothing was charged.',
  reportsBusy: {
    description:
      'Every report thread is busy and the report queue is full: try again after Retry-After seconds (`retry_after`).',
    schema: 'RetryLater',
    retryAfter: true,
  } satisfies Refusal,
  rateLimited:
    'Too many attempts from this address or for this account: try again after Retry-After seconds.',
  csrf: 'The X-XSRF-TOKEN header does not match the XSRF-TOKEN cookie (GET /sanctum/csrf-cookie first).',
  closedCase: 'The case named by `case_reference` is closed: nothing is filed under it, nothing was charged.',
  tooLarge: 'A body larger than the server accepts.',
  mediaType: 'A body of a media type this operation does not take (send application/json).',
} as const;

/** A paid search: phone, e-mail and detail lookups. */
export const PAID_SEARCH_REFUSALS: Refusals = {
  402: REFUSALS.insufficient,
  409: REFUSALS.closedCase,
  502: REFUSALS.noSource,
  503: REFUSALS.unavailable,
};

const asRefusal = (value: string | Refusal): Refusal =>
  typeof value === 'string' ? { description: value } : value;

/** Collects one route's refusals: a status met twice keeps both reasons. */
export class RefusalList {
  readonly map = new Map<number, Refusal>();
  add(status: number, value: string | Refusal): this {
    const next = asRefusal(value);
    const known = this.map.get(status);
    if (!known) this.map.set(status, next);
    else if (!known.description.includes(next.description)) {
      this.map.set(status, {
        ...known,
        ...next,
        description: `${known.description} ${next.description}`,
        retryAfter: Boolean(known.retryAfter || next.retryAfter),
      });
    }
    return this;
  }
  addAll(refusals: Refusals | undefined): this {
    for (const [status, value] of Object.entries(refusals ?? {})) {
      if (value) this.add(Number(status), value);
    }
    return this;
  }
}

/** `/api/history/:id` → `/api/history/{id}`, as the document spells paths. */
export const documentPath = (url: string) => url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

const registries = new WeakMap<object, Map<string, OperationFacts>>();

/** The facts recorded for an app's operations, by `METHOD /path/{param}`. */
export function operationFactsOf(app: object): Map<string, OperationFacts> {
  let facts = registries.get(app);
  if (!facts) {
    facts = new Map();
    registries.set(app, facts);
  }
  return facts;
}

type Json = Record<string, unknown>;

const jsonSchemaOf = (schema: z.ZodType): Json => {
  const {
    $schema: _,
    id: __,
    ...rest
  } = z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'output' }) as Json;
  // A schema with an id comes out as a $ref into its own $defs: the definition itself.
  const ref = typeof rest.$ref === 'string' ? rest.$ref.replace('#/$defs/', '') : undefined;
  const defs = rest.$defs as Record<string, Json> | undefined;
  return ref && defs?.[ref] ? defs[ref] : rest;
};

const RETRY_AFTER_HEADER = {
  description: 'Seconds to wait before trying again.',
  schema: { type: 'integer', minimum: 0 },
};

const headerObject = (description: string) => ({ description, schema: { type: 'string' } });

/**
 * Replaces each operation's 4XX and 5XX with the statuses it can answer (each with its error schema,
 * a description and Retry-After where it applies), documents its success headers, and adds the error
 * schemas as components.
 */
export function withOperationFacts<T>(doc: T, facts: Map<string, OperationFacts>): T {
  const document = doc as unknown as {
    paths?: Record<string, Record<string, { responses?: Record<string, Json> }>>;
    components?: { schemas?: Record<string, unknown> };
  };
  document.components ??= {};
  document.components.schemas ??= {};
  const schemas = document.components.schemas;
  const used = new Set<ErrorSchemaName>();
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    for (const [method, operation] of Object.entries(item)) {
      const responses = operation?.responses;
      if (!responses) continue;
      const known = facts.get(`${method.toUpperCase()} ${path}`);
      if (!known) continue;
      if (known.multipart) {
        const op = operation as { requestBody?: { content?: Json; required?: boolean } };
        op.requestBody ??= { required: true, content: {} };
        op.requestBody.content = {
          ...op.requestBody.content,
          'multipart/form-data': { schema: jsonSchemaOf(known.multipart) },
        };
      }
      delete responses['4XX'];
      delete responses['5XX'];
      for (const [status, response] of Object.entries(responses)) {
        if (!status.startsWith('2') || Object.keys(known.headers).length === 0) continue;
        response.headers = Object.fromEntries(
          Object.entries(known.headers).map(([name, description]) => [name, headerObject(description)]),
        );
      }
      const statuses = [...known.refusals.keys()].sort((a, b) => a - b);
      for (const status of statuses) {
        const refusal = known.refusals.get(status)!;
        const own = responses[String(status)];
        if (own) {
          // The route documents this status itself (a schema of its own): keep it, in words.
          if (!own.description || own.description === 'Default Response')
            own.description = refusal.description;
          continue;
        }
        const schema = refusal.schema ?? DEFAULT_SCHEMA[status] ?? 'Error';
        used.add(schema);
        responses[String(status)] = {
          description: refusal.description,
          ...(refusal.retryAfter || status === 429 ? { headers: { 'Retry-After': RETRY_AFTER_HEADER } } : {}),
          content: { 'application/json': { schema: { $ref: `#/components/schemas/${schema}` } } },
        };
      }
    }
  }
  for (const name of used) schemas[name] ??= jsonSchemaOf(ERROR_SCHEMAS[name]);
  return doc;
}
