// The API description: the OpenAPI document generated from the routes' contracts passes an outside
// validator and names every route; responses are held to their schemas; the reference page is served.
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { SEARCH_KIND_DECLARATIONS, SEARCH_KINDS } from '@footprint/domain';
import Fastify from 'fastify';
import type { OpenAPIV3_1 } from 'openapi-types';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { registerContracts } from '../../src/http/contracts.ts';
import { registerErrorHandler } from '../../src/http/errors.ts';
import { isApplicationRoute, routeTableOf } from '../../src/http/route-table.ts';
import { createTestApp, type TestApp } from '../support/app.ts';

const serverRoot = fileURLToPath(new URL('../..', import.meta.url));

interface LintProblem {
  ruleId: string;
  severity: 'error' | 'warn';
  message: string;
}

/** `redocly lint` on the document, with the rules of apps/server/redocly.yaml; its problems. */
async function redoclyLint(doc: unknown): Promise<LintProblem[]> {
  const dir = await mkdtemp(join(tmpdir(), 'openapi-'));
  try {
    const file = join(dir, 'openapi.json');
    await writeFile(file, JSON.stringify(doc));
    const bin = join(serverRoot, '../../node_modules/.bin/redocly');
    const run = promisify(execFile);
    const args = ['lint', file, '--config', join(serverRoot, 'redocly.yaml'), '--format', 'json'];
    const output = await run(bin, args, {
      cwd: dir,
      env: { ...process.env, REDOCLY_TELEMETRY: 'off' },
    }).catch(
      // A failed lint exits non-zero; its report is on stdout all the same.
      (error: { stdout?: string }) => ({ stdout: error.stdout ?? '' }),
    );
    const report = JSON.parse(output.stdout) as { problems: LintProblem[] };
    return report.problems.map(({ ruleId, severity, message }) => ({ ruleId, severity, message }));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

let t: TestApp;
let document: OpenAPIV3_1.Document;

beforeAll(async () => {
  t = await createTestApp({ env: { RATE_LIMIT_ENABLED: 'false' } });
  const res = await t.app.inject({ method: 'GET', url: '/api/openapi.json' });
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  document = res.json();
});
afterAll(() => t.close());

describe('GET /api/openapi.json', () => {
  it("is an OpenAPI 3.1 document that Redocly's linter passes (recommended rules)", async () => {
    expect(document.openapi).toBe('3.1.0');
    const problems = await redoclyLint(document);
    expect(problems.filter((p) => p.severity === 'error')).toEqual([]);
    // Warnings do not fail the lint, but there are none today; keep it that way.
    expect(problems).toEqual([]);
  });

  it('has a linter that does fail a broken document', async () => {
    const broken = structuredClone(document);
    const op = broken.paths?.['/api/history/{id}']?.get;
    if (op) op.parameters = [];
    const problems = await redoclyLint(broken);
    expect(problems.map((p) => p.ruleId)).toContain('path-parameters-defined');
  });

  it('describes every route of the route table, each with its error answers', () => {
    const described = new Set<string>();
    for (const [path, item] of Object.entries(document.paths ?? {})) {
      for (const method of ['get', 'post', 'put', 'patch', 'delete'] as const) {
        if (item?.[method]) described.add(`${method.toUpperCase()} ${path}`);
      }
    }
    const routes = routeTableOf(t.app)
      .filter((r) => isApplicationRoute(r.url))
      .map((r) => `${r.method} ${r.url.replace(/:([a-zA-Z_]+)/g, '{$1}')}`);
    expect(routes.length).toBeGreaterThan(40);
    expect(routes.filter((key) => !described.has(key))).toEqual([]);
    for (const key of routes) {
      const [method, path] = key.split(' ') as [string, string];
      const op = document.paths?.[path]?.[method.toLowerCase() as 'get'];
      expect(op?.summary, key).toEqual(expect.any(String));
      // Each status it can answer, not ranges; every answer described in words.
      const statuses = Object.keys(op?.responses ?? {});
      expect(statuses, key).not.toContain('4XX');
      expect(statuses, key).not.toContain('5XX');
      expect(statuses, key).toContain('500');
      for (const [status, response] of Object.entries(op?.responses ?? {})) {
        const { description } = response as { description?: string };
        expect(description, `${key} ${status}`).toMatch(/\w/);
        expect(description, `${key} ${status}`).not.toBe('Default Response');
      }
      if (op?.security?.length) expect(statuses, key).toContain('401');
    }
  });

  it('derives each status from the route: guards, input and what the module declares', () => {
    const responses = (path: string, method: 'get' | 'post') =>
      (document.paths?.[path]?.[method]?.responses ?? {}) as Record<string, OpenAPIV3_1.ResponseObject>;
    expect(Object.keys(responses('/api/tel', 'get'))).toEqual([
      '200',
      '202',
      '400',
      '401',
      '402',
      '403',
      '409',
      '422',
      '429',
      '500',
      '502',
      '503',
    ]);
    const paid = responses('/api/tel', 'get')['402']?.content?.['application/json']?.schema;
    expect(paid).toEqual({ $ref: '#/components/schemas/PaymentRequired' });
    expect(document.components?.schemas?.PaymentRequired).toMatchObject({
      properties: { credits: {}, monthly_credit_cap: {}, credits_this_month: {} },
      required: expect.arrayContaining(['message', 'credits']),
    });
    expect(responses('/api/tel', 'get')['429']?.headers).toHaveProperty('Retry-After');
    expect(responses('/api/tel', 'get')['200']?.headers).toHaveProperty('Server-Timing');
    expect(responses('/api/generate-report', 'post')['503']?.headers).toHaveProperty('Retry-After');
    expect(Object.keys(responses('/api/generate-report', 'post')['200']?.headers ?? {})).toEqual(
      expect.arrayContaining(['X-Report-Id', 'X-Report-Sha256', 'Content-Disposition']),
    );
    expect(responses('/api/corporate-intelligence', 'post')['200']?.headers).toHaveProperty('X-Credits');
    expect(responses('/api/history.csv', 'get')['200']?.headers).toHaveProperty('X-History-Rows');
    // Admin routes: 403 for anyone not an admin; public routes: no 401.
    expect(responses('/api/admin/users', 'get')['403']?.description).toMatch(/Admins only/);
    expect(Object.keys(responses('/api/login', 'post'))).not.toContain('401');
  });

  it('describes every request body: uploads, per-type searches and the report request', () => {
    const bodyOf = (path: string) =>
      (document.paths?.[path]?.post?.requestBody as OpenAPIV3_1.RequestBodyObject | undefined)?.content;
    for (const path of ['/api/bulk', '/api/bulk/preview']) {
      expect(Object.keys(bodyOf(path) ?? {}), path).toEqual(['application/json', 'multipart/form-data']);
      expect(bodyOf(path)?.['multipart/form-data']?.schema).toMatchObject({
        properties: { file: { format: 'binary' }, type: {} },
      });
    }
    const corporate = JSON.stringify(bodyOf('/api/corporate-intelligence'));
    const schemas = JSON.stringify(document.components?.schemas);
    expect(corporate + schemas).toContain('"corporate_gstin"');
    const gstin = Object.values(document.components?.schemas ?? {})
      .flatMap((schema) => (schema as { oneOf?: OpenAPIV3_1.SchemaObject[] }).oneOf ?? [])
      .find((variant) => JSON.stringify(variant.properties?.type).includes('"corporate_gstin"'));
    expect((gstin?.properties?.data as OpenAPIV3_1.SchemaObject | undefined)?.required).toEqual([
      'id_number',
      'year',
    ]);
    const report = bodyOf('/api/generate-report')?.['application/json']?.schema as OpenAPIV3_1.SchemaObject;
    expect(report.properties?.results).toMatchObject({ properties: { lookup_id: { type: 'string' } } });
    const results = document.paths?.['/api/bulk/{id}/results']?.get?.responses?.[
      '200'
    ] as OpenAPIV3_1.ResponseObject;
    expect(results.content?.['application/json']?.schema).toEqual({
      $ref: '#/components/schemas/BulkResults',
    });
  });

  it('names the shared schemas, bounds its integers and gives every JSON body an example', () => {
    expect(Object.keys(document.components?.schemas ?? {})).toEqual(
      expect.arrayContaining([
        'Error',
        'PaymentRequired',
        'RetryLater',
        'BulkJob',
        'BulkRow',
        'User',
        'PhoneLookup',
      ]),
    );
    const text = JSON.stringify(document);
    expect(text).not.toContain(String(Number.MAX_SAFE_INTEGER));
    expect(text.match(/"\$ref":"#\/components\/schemas\/BulkJob"/g)?.length).toBeGreaterThanOrEqual(5);
    // The paid searches' request examples are their kinds' declared examples: every corporate and
    // verification type's demo subject on its endpoint.
    for (const kind of SEARCH_KINDS) {
      const { example } = SEARCH_KIND_DECLARATIONS[kind];
      const item = (document.paths ?? {})[example.path] as Record<string, OpenAPIV3_1.OperationObject>;
      const op = item[example.method.toLowerCase()];
      if (example.body) {
        const json = (op?.requestBody as OpenAPIV3_1.RequestBodyObject | undefined)?.content[
          'application/json'
        ];
        expect(json?.examples?.[kind.replace(':', '-')], kind).toEqual({
          summary: kind,
          value: example.body,
        });
      } else {
        const parameters = (op?.parameters ?? []) as OpenAPIV3_1.ParameterObject[];
        for (const [name, value] of Object.entries(example.query ?? {})) {
          expect(parameters.find((p) => p.name === name)?.example, `${kind} ${name}`).toBe(value);
        }
      }
    }
    for (const [path, item] of Object.entries(document.paths ?? {})) {
      for (const [method, op] of Object.entries(item ?? {})) {
        const operation = op as OpenAPIV3_1.OperationObject;
        const media = [
          (operation.requestBody as OpenAPIV3_1.RequestBodyObject | undefined)?.content?.['application/json'],
          ...Object.entries(operation.responses ?? {})
            .filter(([status]) => status.startsWith('2'))
            .map(([, r]) => (r as OpenAPIV3_1.ResponseObject).content?.['application/json']),
        ].filter(Boolean);
        for (const entry of media) {
          // A file download (format binary) has no JSON example.
          if ((entry?.schema as { format?: string } | undefined)?.format === 'binary') continue;
          expect(entry?.example ?? entry?.examples, `${method} ${path}`).toBeDefined();
        }
      }
    }
  });

  it('marks the routes behind a bearer token and leaves the public ones open', () => {
    expect(document.paths?.['/api/user']?.get?.security).toEqual([{ bearer: [] }]);
    expect(document.paths?.['/api/admin/users']?.get?.security).toEqual([{ bearer: [] }]);
    expect(document.paths?.['/api/login']?.post?.security).toEqual([]);
    expect(document.components?.securitySchemes?.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
  });

  it('documents request bodies, query parameters, path parameters and shared schemas', () => {
    const login = document.paths?.['/api/login']?.post;
    const body = (login?.requestBody as OpenAPIV3_1.RequestBodyObject | undefined)?.content[
      'application/json'
    ]?.schema;
    expect(body).toMatchObject({ type: 'object', properties: { email: {}, password: {} } });
    const tel = document.paths?.['/api/tel']?.get?.parameters as OpenAPIV3_1.ParameterObject[];
    expect(tel.map((p) => `${p.in}:${p.name}`)).toEqual(
      expect.arrayContaining(['query:number', 'query:case_reference']),
    );
    const history = document.paths?.['/api/history/{id}']?.get?.parameters as OpenAPIV3_1.ParameterObject[];
    expect(history).toEqual([expect.objectContaining({ in: 'path', name: 'id', required: true })]);
    expect(Object.keys(document.components?.schemas ?? {})).toEqual(
      expect.arrayContaining(['Error', 'User', 'AdminUser', 'StatementEntry']),
    );
    const report = document.paths?.['/api/generate-report']?.post?.responses?.['200'];
    expect(Object.keys((report as OpenAPIV3_1.ResponseObject).content ?? {})).toEqual(['application/pdf']);
  });
});

describe('GET /api/docs', () => {
  it('answers a reference page whose renderer is served from this origin, with no inline code', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/docs' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.headers['content-security-policy']).toContain("script-src 'self'");
    expect(res.body).toContain('/api/openapi.json');
    // One script and one stylesheet, both local and versioned; nothing inline, nothing from elsewhere.
    const scripts = [...res.body.matchAll(/<script([^>]*)>([^<]*)<\/script>/g)];
    expect(scripts.map(([, attrs]) => attrs)).toEqual([
      expect.stringMatching(/ src="\/api\/docs\/docs\.js\?v=[\d.]+"/),
    ]);
    expect(scripts.every(([, , body]) => body === '')).toBe(true);
    expect(res.body).not.toMatch(/<style|\sstyle=|https?:\/\//i);
    const css = await t.app.inject({ method: 'GET', url: '/api/docs/docs.css' });
    expect(css.statusCode).toBe(200);
    expect(css.headers['content-type']).toMatch(/^text\/css/);
    expect(css.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const js = await t.app.inject({ method: 'GET', url: '/api/docs/docs.js' });
    expect(js.statusCode).toBe(200);
    expect(js.headers['content-type']).toMatch(/^text\/javascript/);
    expect(js.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    // The renderer, started on this origin's document with no outside fonts, client or assistant.
    expect(js.body).toContain('Scalar.createApiReference');
    expect(js.body).toContain('"withDefaultFonts":false');
    expect(js.body).toContain('"url":"/api/openapi.json"');
  });
});

describe('response contracts', () => {
  async function appWith(send: () => unknown) {
    const app = Fastify();
    registerErrorHandler(app);
    registerContracts(app, () => {});
    app.get(
      '/api/thing',
      { schema: { response: { 200: z.object({ id: z.string(), count: z.number() }) } } },
      async () => send(),
    );
    await app.ready();
    return app;
  }

  it('drops keys the schema does not declare', async () => {
    const app = await appWith(() => ({ id: 'a', count: 1, password_hash: 'secret' }));
    const res = await app.inject({ method: 'GET', url: '/api/thing' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ id: 'a', count: 1 });
    await app.close();
  });

  it('answers a 500 without internals when an answer breaks its schema', async () => {
    const app = await appWith(() => ({ id: 'a', count: 'many' }));
    const res = await app.inject({ method: 'GET', url: '/api/thing' });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({ message: expect.any(String) });
    expect(res.body).not.toContain('many');
    await app.close();
  });

  it('keeps every key of an error body', async () => {
    const app = await appWith(() => {
      throw Object.assign(new Error('x'), { statusCode: 418 });
    });
    const res = await app.inject({ method: 'GET', url: '/api/thing' });
    expect(res.statusCode).toBe(418);
    expect(res.json()).toEqual({ message: 'x' });
    await app.close();
  });

  it('refuses an application route registered without response schemas', async () => {
    const app = Fastify();
    registerContracts(app, () => {});
    expect(() => app.get('/api/bare', async () => ({}))).toThrow(/no response schema/);
    await app.close();
  });
});
