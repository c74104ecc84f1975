import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import fastifySwagger from '@fastify/swagger';
import { API_KEY_SCOPES, openApiDocumentResponse, textPage } from '@footprint/domain';
import type { FastifyInstance } from 'fastify';
import { createJsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import type { OpenAPIV3_1 } from 'openapi-types';
import { withExamples, withRealisticBounds, withSuccessDescriptions } from './openapi-document.ts';
import { operationFactsOf, withOperationFacts } from './responses.ts';

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
      withExamples(
        withRealisticBounds(
          withSuccessDescriptions(
            withoutUnusedSchemas(
              withOperationFacts(jsonSchemaTransformObject(document), operationFactsOf(app)),
            ),
          ),
        ),
      ),
  });
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
  let styles: Buffer | undefined;
  let script: Buffer | undefined;
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
        description:
          'A searchable reference with examples and linked schemas, drawn in the browser from ' +
          '/api/openapi.json by a renderer served from this server (nothing is fetched from elsewhere).',
        tags,
        response: { 200: textPage('text/html', 'The reference page.') },
      },
    },
    async (_request, reply) => {
      page ??= renderReference(rendererVersion());
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
    async (_request, reply) => {
      styles ??= readFileSync(join(rendererDir(), 'style.css'));
      return reply.type('text/css; charset=utf-8').header('cache-control', LONG_CACHE).send(styles);
    },
  );

  app.get(
    `${DOCS_PATH}/docs.js`,
    {
      schema: {
        summary: "The reference page's script (the renderer)",
        tags,
        response: { 200: textPage('text/javascript', 'The script.') },
      },
    },
    async (_request, reply) => {
      script ??= Buffer.from(
        `${CSP_SHIM}\n${readFileSync(join(rendererDir(), 'browser', 'standalone.js'), 'utf8')}\n${START}`,
      );
      return reply.type('text/javascript; charset=utf-8').header('cache-control', LONG_CACHE).send(script);
    },
  );
}

/** The reference's own script, run before the renderer: see docs/api.md, "The reference page". */
const CSP_SHIM = `(() => {
  // The renderer's bundle writes its styles as <style> elements and style attributes, which the
  // CSP (style-src 'self', no inline style) refuses. They are applied through the CSSOM instead
  // (constructed style sheets and element.style), which the CSP allows; nothing else changes.
  globalThis.__zod_globalConfig = { jitless: true };
  const sheets = new WeakMap();
  const sync = (style) => {
    let sheet = sheets.get(style);
    if (!sheet) {
      sheet = new CSSStyleSheet();
      sheets.set(style, sheet);
      document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
      observer.observe(style, { childList: true, characterData: true, subtree: true });
    }
    sheet.replaceSync(style.textContent || '');
  };
  const observer = new MutationObserver((records) => {
    for (const record of records) {
      let node = record.target;
      while (node && !(node instanceof HTMLStyleElement)) node = node.parentNode;
      if (node) sync(node);
    }
  });
  for (const name of ['appendChild', 'insertBefore']) {
    const original = Node.prototype[name];
    Node.prototype[name] = function (node, ...rest) {
      if (node instanceof HTMLStyleElement) {
        sync(node);
        return node;
      }
      return original.call(this, node, ...rest);
    };
  }
  for (const name of ['append', 'prepend']) {
    const original = Element.prototype[name];
    Element.prototype[name] = function (...nodes) {
      const kept = nodes.filter((node) => !(node instanceof HTMLStyleElement) || (sync(node), false));
      return original.apply(this, kept);
    };
  }
  const setAttribute = Element.prototype.setAttribute;
  Element.prototype.setAttribute = function (name, value) {
    if (String(name).toLowerCase() === 'style' && this.style) {
      this.style.cssText = String(value);
      return;
    }
    return setAttribute.call(this, name, value);
  };
  const inner = Object.getOwnPropertyDescriptor(Element.prototype, 'innerHTML');
  Object.defineProperty(Element.prototype, 'innerHTML', {
    configurable: true,
    get() {
      return inner.get.call(this);
    },
    set(html) {
      const text = String(html);
      if (!/\\sstyle\\s*=/i.test(text)) return inner.set.call(this, text);
      inner.set.call(this, text.replace(/(<[^>]*?\\s)style\\s*=/gi, '$1data-csp-style='));
      for (const element of (this.content ?? this).querySelectorAll('[data-csp-style]')) {
        element.style.cssText = element.getAttribute('data-csp-style');
        element.removeAttribute('data-csp-style');
      }
    },
  });
})();
`;

/** Starts the renderer on the document of this origin: no fonts, AI, client or telemetry from elsewhere. */
const START = `Scalar.createApiReference('#reference', ${JSON.stringify({
  url: OPENAPI_PATH,
  withDefaultFonts: false,
  hideClientButton: true,
  showDeveloperTools: 'never',
  showToolbar: 'never',
  agent: { disabled: true },
  mcp: { disabled: true },
  telemetry: false,
  darkMode: true,
  hideDarkModeToggle: true,
  documentDownloadType: 'json',
  defaultOpenAllTags: false,
})});
`;

const require = createRequire(import.meta.url);
/** The renderer: @scalar/api-reference's standalone browser bundle and its stylesheet, served from here. */
const rendererDir = () => dirname(require.resolve('@scalar/api-reference/style.css'));
const rendererVersion = (): string =>
  (JSON.parse(readFileSync(join(rendererDir(), '..', 'package.json'), 'utf8')) as { version: string })
    .version;

/** Versioned URLs, so the files can be cached for a year. */
const LONG_CACHE = 'public, max-age=31536000, immutable';

/** The reference page: the renderer's stylesheet and script, both from this origin; no inline code. */
export function renderReference(version: string): string {
  return (
    '<!doctype html><html lang="en"><head><meta charset="utf-8">' +
    '<title>Footprint API reference</title>' +
    '<meta name="viewport" content="width=device-width, initial-scale=1">' +
    `<link rel="stylesheet" href="${DOCS_PATH}/docs.css?v=${version}"></head>` +
    `<body><noscript><p>The reference needs JavaScript. The document itself: <a href="${OPENAPI_PATH}">${OPENAPI_PATH}</a>.</p></noscript>` +
    `<div id="reference"></div><script src="${DOCS_PATH}/docs.js?v=${version}"></script></body></html>`
  );
}
