/**
 * The finishing passes over the generated OpenAPI document: success answers described in words
 * instead of the generator's 'Default Response', integer bounds that say what a value can be instead
 * of ±(2^53 − 1), and an example for every request and success answer. Examples are synthetic: drawn
 * from the schemas, the sandbox's demo identities and the demo accounts (README).
 */

import { SEARCH_KIND_DECLARATIONS, SEARCH_KINDS } from '@footprint/domain';

type Json = Record<string, unknown>;
const SAFE = Number.MAX_SAFE_INTEGER;
const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

const STATUS_WORDS: Record<string, string> = {
  '200': 'OK',
  '201': 'Created',
  '202': 'Accepted: queued',
  '204': 'No content',
};

interface Operation {
  summary?: string;
  requestBody?: {
    content?: Record<string, { schema?: Json; example?: unknown; examples?: Record<string, unknown> }>;
  };
  parameters?: Array<{ name: string; in: string; example?: unknown }>;
  responses?: Record<
    string,
    { description?: string; content?: Record<string, { schema?: Json; example?: unknown }> }
  >;
}

const operationsOf = (doc: Json) => {
  const out: Operation[] = [];
  for (const item of Object.values((doc.paths ?? {}) as Record<string, Record<string, Operation>>)) {
    for (const method of METHODS) if (item[method]) out.push(item[method]);
  }
  return out;
};

/** A success answer without a description of its own is described by its operation's summary. */
export function withSuccessDescriptions<T>(doc: T): T {
  for (const op of operationsOf(doc as Json)) {
    for (const [status, response] of Object.entries(op.responses ?? {})) {
      if (response.description && response.description !== 'Default Response') continue;
      const word = STATUS_WORDS[status] ?? `Status ${status}`;
      response.description = op.summary
        ? `${word}: ${op.summary.charAt(0).toLowerCase()}${op.summary.slice(1)}.`
        : word;
    }
  }
  return doc;
}

/** Counts, credits, prices, sizes and positions: never negative. Pages count from 1. */
const NON_NEGATIVE =
  /^(credits|cost|price|total|done|charged|failed|valid|duplicates|line|balance|per_page|rows|count|size|retry_after|monthly_credit_cap|credits_this_month|credits_spent|cost_per_row|spent|hits|matches|remaining|limit|attempts|members|notes|entities|searches|lookups|reports)$|_(count|total|credits|rows|size|bytes|seconds|ms|days|hours|minutes)$/;

/**
 * Integers come out of zod bounded by ±(2^53 − 1); those bounds say nothing. They are dropped, and a
 * property whose name says it counts gets `minimum: 0` (a page, 1).
 */
export function withRealisticBounds<T>(doc: T): T {
  const visit = (node: unknown, name?: string): void => {
    if (Array.isArray(node)) {
      for (const item of node) visit(item, name);
      return;
    }
    if (!node || typeof node !== 'object') return;
    const schema = node as Json;
    if (
      (schema.type === 'integer' || schema.type === 'number') &&
      (schema.minimum === -SAFE || schema.maximum === SAFE)
    ) {
      if (schema.minimum === -SAFE) delete schema.minimum;
      if (schema.maximum === SAFE) delete schema.maximum;
      if (schema.minimum === undefined && name) {
        if (name === 'page') schema.minimum = 1;
        else if (NON_NEGATIVE.test(name)) schema.minimum = 0;
      }
    }
    for (const [key, value] of Object.entries(schema)) {
      if (key === 'properties' && value && typeof value === 'object') {
        for (const [prop, sub] of Object.entries(value as Json)) visit(sub, prop);
      } else if (key === 'items' || key === 'anyOf' || key === 'oneOf' || key === 'allOf') visit(value, name);
      else if (typeof value === 'object') visit(value);
    }
  };
  visit(doc);
  return doc;
}

/** Synthetic values for well-known property names (the sandbox's demo identities, README). */
const BY_NAME: Record<string, unknown> = {
  email: 'demo-live@footprint.test',
  name: 'Rohan Deshmukh',
  number: '919876543210',
  phone: '919876543210',
  query: '919876543210',
  input: '9876543210',
  userInput: '9876543210',
  password: 'footprint-demo',
  password_confirmation: 'footprint-demo',
  token: 'demo-session-token',
  otp: '123456',
  code: '123456',
  id_number: 'MH12FP1234',
  rc_number: 'MH12FP1234',
  upi_id: 'rohan.deshmukh@oksbi',
  case_reference: 'CASE-2026-0042',
  sha256: 'a'.repeat(64),
  message: 'Done.',
  status: 'ok',
  url: 'https://example.test/avatar.png',
};

const resolve = (doc: Json, schema: Json): Json => {
  const ref = schema.$ref;
  if (typeof ref !== 'string' || !ref.startsWith('#/components/schemas/')) return schema;
  const name = ref.slice('#/components/schemas/'.length);
  const found = ((doc.components as Json | undefined)?.schemas as Json | undefined)?.[name];
  return (found as Json | undefined) ?? {};
};

/** An example of a schema: its own example if it has one, else one made from its type and name. */
export function exampleOf(doc: Json, input: Json, name?: string, depth = 0): unknown {
  const schema = resolve(doc, input);
  if (schema.example !== undefined) return schema.example;
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0];
  if (schema.const !== undefined) return schema.const;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  if (schema.default !== undefined) return schema.default;
  if (depth > 8) return null;
  for (const key of ['oneOf', 'anyOf'] as const) {
    const options = schema[key];
    if (Array.isArray(options)) {
      const first = (options as Json[]).find((o) => o.type !== 'null') ?? options[0];
      return first ? exampleOf(doc, first as Json, name, depth + 1) : null;
    }
  }
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  if (name && name in BY_NAME && (type === 'string' || type === undefined)) return BY_NAME[name];
  switch (type) {
    case 'object': {
      const out: Json = {};
      const props = (schema.properties ?? {}) as Record<string, Json>;
      const required = new Set((schema.required as string[] | undefined) ?? Object.keys(props));
      for (const [prop, sub] of Object.entries(props)) {
        if (required.has(prop)) out[prop] = exampleOf(doc, sub, prop, depth + 1);
      }
      return out;
    }
    case 'array':
      return schema.items ? [exampleOf(doc, schema.items as Json, name, depth + 1)] : [];
    case 'integer':
    case 'number':
      return typeof schema.minimum === 'number' ? Math.max(schema.minimum, name === 'page' ? 1 : 0) : 1;
    case 'boolean':
      return true;
    case 'null':
      return null;
    case 'string':
      if (schema.format === 'date-time') return '2026-01-15T09:30:00.000Z';
      if (schema.format === 'date') return '1990-04-17';
      if (schema.format === 'binary') return undefined;
      if (name === 'id' || name?.endsWith('_id')) return '0190a5f2-7c1e-7b3a-9d4e-2f6a8b1c3d5e';
      return name ? `example ${name.replaceAll('_', ' ')}` : 'example';
    default:
      // No type: any value (an open payload).
      return null;
  }
}

/**
 * The paid searches' requests as their kinds declare them (packages/domain, kinds/): one example per
 * kind, so the corporate and verification endpoints show every type's demo subject.
 */
function withKindExamples(root: Json): void {
  const paths = (root.paths ?? {}) as Record<string, Record<string, Operation>>;
  for (const kind of SEARCH_KINDS) {
    const { example } = SEARCH_KIND_DECLARATIONS[kind];
    const op = paths[example.path]?.[example.method.toLowerCase()];
    if (!op) continue;
    if (example.query) {
      for (const parameter of op.parameters ?? []) {
        if (parameter.in === 'query' && example.query[parameter.name] !== undefined) {
          parameter.example = example.query[parameter.name];
        }
      }
    }
    const json = op.requestBody?.content?.['application/json'];
    if (example.body && json) {
      json.examples = { ...json.examples, [kind.replace(':', '-')]: { summary: kind, value: example.body } };
      delete json.example;
    }
  }
}

/** Gives every JSON request body and JSON success answer an example. */
export function withExamples<T>(doc: T): T {
  const root = doc as Json;
  withKindExamples(root);
  for (const op of operationsOf(root)) {
    const media = [
      // An upload's file has no example value; its JSON twin carries the example.
      ...Object.entries(op.requestBody?.content ?? {})
        .filter(([type]) => type !== 'multipart/form-data')
        .map(([, entry]) => entry),
      ...Object.entries(op.responses ?? {})
        .filter(([status]) => status.startsWith('2'))
        .flatMap(([, response]) => Object.values(response.content ?? {})),
    ];
    for (const entry of media) {
      if (!entry.schema || entry.example !== undefined || 'examples' in entry) continue;
      const example = exampleOf(root, entry.schema);
      if (example !== undefined) entry.example = example;
    }
  }
  return doc;
}
