// Holds answers to the OpenAPI document (GET /api/openapi.json): each answer's status must be one its
// operation documents, its media type one that status documents, and a JSON body must be valid
// against that status's schema (ajv, JSON Schema 2020-12, the document's components resolved).
// Reusable: give it any answer (from inject, fetch or openapi-fetch) with its method and URL.
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { OpenAPIV3_1 } from 'openapi-types';

export interface Answer {
  method: string;
  /** The URL or path as called: /api/history/0190…?page=2. */
  url: string;
  status: number;
  contentType: string | undefined;
  /** The parsed JSON body, for JSON answers. */
  body?: unknown;
}

export interface Violation {
  operation: string;
  status: number;
  problem: string;
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;
const DOC_ID = 'https://footprint.test/openapi.json';

type Doc = OpenAPIV3_1.Document;

/** Every `METHOD /path/{param}` of the document. */
export function operationsOf(
  doc: Doc,
): Array<{ method: (typeof METHODS)[number]; path: string; op: OpenAPIV3_1.OperationObject }> {
  const out = [];
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const method of METHODS) {
      const op = item?.[method];
      if (op) out.push({ method, path, op });
    }
  }
  return out;
}

/** Points the document's `#/components/...` references at the document registered in ajv. */
function rebased(schema: unknown): unknown {
  return JSON.parse(JSON.stringify(schema), (key, value) =>
    key === '$ref' && typeof value === 'string' && value.startsWith('#/') ? `${DOC_ID}${value}` : value,
  );
}

export function createResponseValidator(doc: Doc) {
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
  addFormats.default(ajv);
  ajv.addSchema({ $id: DOC_ID, components: rebased(doc.components ?? {}) as object });
  const compiled = new Map<string, ValidateFunction>();
  const templates = operationsOf(doc).map(({ method, path, op }) => ({
    method,
    path,
    op,
    pattern: new RegExp(`^${path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`),
  }));

  /** The operation a concrete call reached, by its method and path. */
  const match = (method: string, url: string) => {
    const pathname = new URL(url, 'http://x').pathname;
    return templates.find((t) => t.method === method.toLowerCase() && t.pattern.test(pathname));
  };

  function validate(answer: Answer): Violation[] {
    const found = match(answer.method, answer.url);
    const operation = found
      ? `${found.method.toUpperCase()} ${found.path}`
      : `${answer.method} ${answer.url}`;
    const violation = (problem: string): Violation[] => [{ operation, status: answer.status, problem }];
    if (!found) return violation('no operation of the document has this method and path');
    const responses = found.op.responses ?? {};
    const response = (responses[String(answer.status)] ?? responses[`${String(answer.status)[0]}XX`]) as
      | OpenAPIV3_1.ResponseObject
      | undefined;
    if (!response)
      return violation(`status ${answer.status} is not documented (${Object.keys(responses).join(', ')})`);
    const content = response.content ?? {};
    const media = (answer.contentType ?? '').split(';')[0]!.trim();
    if (Object.keys(content).length === 0) {
      return media && answer.body !== undefined && answer.body !== ''
        ? violation(`a ${media} body where none is documented`)
        : [];
    }
    const documented = Object.keys(content).find(
      (type) => type === media || (type.endsWith('/*') && media.startsWith(type.slice(0, -1))),
    );
    if (!documented)
      return violation(
        `media type ${media || '(none)'} is not documented (${Object.keys(content).join(', ')})`,
      );
    if (!/json/.test(documented)) return [];
    const key = `${operation} ${answer.status} ${documented}`;
    let check = compiled.get(key);
    if (!check) {
      check = ajv.compile(rebased(content[documented]?.schema ?? {}) as object);
      compiled.set(key, check);
    }
    if (check(answer.body)) return [];
    return (check.errors ?? []).map((e) => ({
      operation,
      status: answer.status,
      problem: `${e.instancePath || '(body)'} ${e.message ?? 'is invalid'}`,
    }));
  }

  return { validate, match };
}
