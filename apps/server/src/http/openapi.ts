import fastifySwagger from '@fastify/swagger';
import { API_KEY_SCOPES, openApiDocumentResponse, textPage } from '@footprint/domain';
import type { FastifyInstance } from 'fastify';
import { createJsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import type { OpenAPIV3_1 } from 'openapi-types';
import { escapeHtml } from './html.ts';

export const OPENAPI_PATH = '/api/openapi.json';

/** The `apiKey` security scheme (docs/api.md): each operation that accepts keys names its scope. */
const API_KEY_SCHEME_DESCRIPTION =
  'An API key, `fp_` and 43 random characters, sent as `Authorization: Bearer fp_…`. A key reaches ' +
  `only operations of its scopes (${API_KEY_SCOPES.join(', ')}): lookups = phone, e-mail and detail ` +
  'lookups, GET /api/sources and GET /api/history/{id}; leaks = the Leak Data Finder; intel = corporate ' +
  'and verification searches; reports = report PDFs and their check; bulk = bulk lookups. Any other ' +
  'operation, or one outside its scopes, answers 403. Revoked or expired: 401. Each key has its own ' +
  'rate limit (429 with Retry-After) and an optional monthly credit cap (402 before any charge).';
export const DOCS_PATH = '/api/docs';

/**
 * Collects every route's contract into an OpenAPI 3.1 document. Register before the routes: the
 * document is built from the routes registered after it.
 */
export async function registerOpenApi(app: FastifyInstance): Promise<void> {
  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Footprint API',
        version: '1.0.0',
        description:
          'The API of the Footprint web app. Signed-in calls send `Authorization: Bearer <token>` ' +
          "(from POST /api/login or /api/verify-email-otp) and the browser's `X-Device-Id`. Scripts send " +
          'an API key instead (`Authorization: Bearer fp_…`, made on the API keys page): it reaches only the ' +
          'operations that list the `apiKey` scheme, and only those of its scopes. Every error is JSON with ' +
          '`message` and, for invalid input, `errors` per field.',
      },
      servers: [{ url: '/', description: 'This server' }],
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer', description: 'A session token.' },
          apiKey: {
            type: 'http',
            scheme: 'bearer',
            bearerFormat: 'fp_…',
            description: API_KEY_SCHEME_DESCRIPTION,
          },
        },
      },
    },
    transform: createJsonSchemaTransform({ skipList: [] }),
    transformObject: (document) =>
      withErrorDescriptions(withoutUnusedSchemas(jsonSchemaTransformObject(document))),
  });
}

const ERROR_DESCRIPTIONS: Record<string, string> = {
  '4XX':
    'Refused: the error body, with `errors` per field for invalid input. Nothing was changed or charged.',
  '5XX': 'Server or upstream failure: the error body, with `credits` where a charge was refunded.',
};

/** The shared 4XX and 5XX answers say what they are instead of the generator's 'Default Response'. */
function withErrorDescriptions<T>(doc: T): T {
  const paths = (doc as { paths?: Record<string, Record<string, { responses?: Record<string, unknown> }>> })
    .paths;
  for (const item of Object.values(paths ?? {})) {
    for (const operation of Object.values(item)) {
      for (const [status, description] of Object.entries(ERROR_DESCRIPTIONS)) {
        const response = operation?.responses?.[status] as { description?: string } | undefined;
        if (response && (!response.description || response.description === 'Default Response')) {
          response.description = description;
        }
      }
    }
  }
  return doc;
}

/**
 * Shared schemas come out twice, as request and as response shapes: keep those some operation (or
 * another kept schema) refers to.
 */
function withoutUnusedSchemas<T>(doc: T): T {
  const { components } = doc as { components?: { schemas?: Record<string, unknown> } };
  const schemas = components?.schemas;
  if (!schemas) return doc;
  const refsIn = (value: unknown) =>
    new Set([...JSON.stringify(value).matchAll(/"#\/components\/schemas\/([^"]+)"/g)].map((m) => m[1]!));
  const kept = refsIn({ ...doc, components: { ...components, schemas: {} } });
  for (let grew = true; grew; ) {
    grew = false;
    for (const name of [...kept]) {
      for (const ref of refsIn(schemas[name] ?? {})) {
        if (!kept.has(ref)) {
          kept.add(ref);
          grew = true;
        }
      }
    }
  }
  const used = Object.fromEntries(Object.entries(schemas).filter(([name]) => kept.has(name)));
  return { ...doc, components: { ...components, schemas: used } };
}

/**
 * GET /api/openapi.json and GET /api/docs (a reference page rendered on the server: no script and
 * no inline style, so it works under the app's CSP). Both are public: they describe the API and hold
 * no data.
 */
export function openApiRoutes(app: FastifyInstance): void {
  let document: OpenAPIV3_1.Document | undefined;
  let page: string | undefined;
  const read = () => {
    document ??= app.swagger() as OpenAPIV3_1.Document;
    return document;
  };
  const tags = ['API description'];

  app.get(
    OPENAPI_PATH,
    {
      schema: {
        summary: 'This API as an OpenAPI 3.1 document',
        tags,
        response: { 200: openApiDocumentResponse },
      },
    },
    async () => read(),
  );

  app.get(
    DOCS_PATH,
    {
      schema: {
        summary: 'A reference page of this API',
        tags,
        response: { 200: textPage('text/html', 'The reference page.') },
      },
    },
    async (_request, reply) => {
      page ??= renderReference(read());
      return reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(page);
    },
  );

  app.get(
    `${DOCS_PATH}/docs.css`,
    {
      schema: {
        summary: "The reference page's stylesheet",
        tags,
        response: { 200: textPage('text/css', 'The stylesheet.') },
      },
    },
    async (_request, reply) => reply.type('text/css; charset=utf-8').send(STYLES),
  );
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

type Operation = OpenAPIV3_1.OperationObject;

/** Plain text with `code` spans, as the document's descriptions write them. */
const prose = (text: string) => escapeHtml(text).replace(/`([^`]+)`/g, '<code>$1</code>');

const json = (value: unknown) => `<pre>${escapeHtml(JSON.stringify(value, null, 2))}</pre>`;

const anchor = (text: string) => text.toLowerCase().replace(/[^a-z0-9]+/g, '-');

/** Who may call an operation: anyone, a session, or also an API key of a scope. */
function authLine(op: Operation): string {
  if (!op.security?.length) return '<p class="auth">Public.</p>';
  const scopes = op.security.flatMap((requirement) => requirement.apiKey ?? []);
  if (scopes.length === 0) return '<p class="auth">Requires a bearer token (a session).</p>';
  return `<p class="auth">Requires a bearer token: a session, or an API key with the <code>${scopes.map(escapeHtml).join(', ')}</code> scope.</p>`;
}

function renderOperation(method: string, path: string, op: Operation): string {
  const parameters = (op.parameters ?? []) as OpenAPIV3_1.ParameterObject[];
  const parts = [
    `<section class="op" id="${escapeHtml(anchor(`${method} ${path}`))}">`,
    `<h3><span class="method ${method}">${method.toUpperCase()}</span> <code>${escapeHtml(path)}</code></h3>`,
    op.summary ? `<p>${prose(op.summary)}</p>` : '',
    op.description ? `<p>${prose(op.description)}</p>` : '',
    authLine(op),
  ];
  if (parameters.length > 0) {
    parts.push(
      '<h4>Parameters</h4><table><thead><tr><th>Name</th><th>In</th><th>Required</th><th>Schema</th></tr></thead><tbody>',
      ...parameters.map(
        (p) =>
          `<tr><td><code>${escapeHtml(p.name)}</code></td><td>${escapeHtml(p.in)}</td>` +
          `<td>${p.required ? 'yes' : 'no'}</td><td>${json(p.schema ?? {})}</td></tr>`,
      ),
      '</tbody></table>',
    );
  }
  const body = op.requestBody as OpenAPIV3_1.RequestBodyObject | undefined;
  if (body) {
    parts.push('<h4>Request body</h4>');
    for (const [type, media] of Object.entries(body.content ?? {})) {
      parts.push(`<p><code>${escapeHtml(type)}</code></p>`, json(media.schema ?? {}));
    }
  }
  parts.push('<h4>Responses</h4>');
  for (const [status, value] of Object.entries(op.responses ?? {})) {
    const response = value as OpenAPIV3_1.ResponseObject;
    parts.push(`<h5>${escapeHtml(status)} ${prose(response.description ?? '')}</h5>`);
    for (const [type, media] of Object.entries(response.content ?? {})) {
      parts.push(`<p><code>${escapeHtml(type)}</code></p>`, json(media.schema ?? {}));
    }
  }
  parts.push('</section>');
  return parts.join('');
}

/** The whole document as one HTML page: operations grouped by tag, then the shared schemas. */
export function renderReference(doc: OpenAPIV3_1.Document): string {
  const groups = new Map<string, string[]>();
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const method of METHODS) {
      const op = item?.[method];
      if (!op) continue;
      const tag = op.tags?.[0] ?? 'Other';
      groups.set(tag, [...(groups.get(tag) ?? []), renderOperation(method, path, op)]);
    }
  }
  const nav = [...groups.keys()]
    .map((tag) => `<li><a href="#${escapeHtml(anchor(tag))}">${escapeHtml(tag)}</a></li>`)
    .join('');
  const sections = [...groups.entries()]
    .map(([tag, ops]) => `<h2 id="${escapeHtml(anchor(tag))}">${escapeHtml(tag)}</h2>${ops.join('')}`)
    .join('');
  const schemas = Object.entries(doc.components?.schemas ?? {})
    .map(
      ([name, schema]) =>
        `<h3 id="schema-${escapeHtml(anchor(name))}">${escapeHtml(name)}</h3>${json(schema)}`,
    )
    .join('');
  return (
    '<!doctype html><html lang="en"><head><meta charset="utf-8">' +
    `<title>${escapeHtml(doc.info.title)} reference</title>` +
    '<meta name="viewport" content="width=device-width, initial-scale=1">' +
    `<link rel="stylesheet" href="${DOCS_PATH}/docs.css"></head><body><main>` +
    `<h1>${escapeHtml(doc.info.title)} <small>${escapeHtml(doc.info.version)}</small></h1>` +
    `<p>${prose(doc.info.description ?? '')}</p>` +
    `<p>The machine-readable document: <a href="${OPENAPI_PATH}">${OPENAPI_PATH}</a> (OpenAPI ${escapeHtml(doc.openapi)}).</p>` +
    `<nav><ul>${nav}<li><a href="#schemas">Shared schemas</a></li></ul></nav>` +
    `${sections}<h2 id="schemas">Shared schemas</h2>${schemas}</main></body></html>`
  );
}

const STYLES =
  'body{font-family:system-ui,sans-serif;background:#05080f;color:#e2e8f0;margin:0;line-height:1.5}' +
  'main{max-width:980px;margin:0 auto;padding:24px}a{color:#22d3ee}h1 small{color:#94a3b8;font-size:60%}' +
  'h2{border-bottom:1px solid #1f2a44;padding-bottom:4px;margin-top:40px}' +
  '.op{border:1px solid #1f2a44;border-radius:12px;padding:8px 16px;margin:16px 0;background:#0f172a}' +
  '.method{display:inline-block;min-width:64px;text-align:center;border-radius:6px;padding:0 6px;color:#05080f;font-size:85%}' +
  '.get{background:#22d3ee}.post{background:#4ade80}.patch{background:#facc15}.put{background:#fb923c}.delete{background:#f87171}' +
  '.auth{color:#94a3b8}pre{background:#020617;border-radius:8px;padding:8px;overflow:auto;font-size:13px;max-height:420px}' +
  'table{border-collapse:collapse;width:100%}td,th{border:1px solid #1f2a44;padding:4px;vertical-align:top;text-align:left}' +
  'nav ul{display:flex;flex-wrap:wrap;gap:8px 16px;padding:0;list-style:none}' +
  'code{overflow-wrap:anywhere}p code{background:#1e293b;border-radius:4px;padding:0 4px}' +
  '.op{min-width:0;overflow-wrap:anywhere}table{display:block;overflow-x:auto}';
