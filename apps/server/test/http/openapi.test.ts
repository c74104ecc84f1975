// The API description: the OpenAPI document generated from the routes' contracts passes an outside
// validator and names every route; responses are held to their schemas; the reference page is served.
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
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
      expect(Object.keys(op?.responses ?? {}), key).toEqual(expect.arrayContaining(['4XX', '5XX']));
      expect(op?.summary, key).toEqual(expect.any(String));
      for (const status of ['4XX', '5XX']) {
        const { description } = (op?.responses?.[status] ?? {}) as { description?: string };
        expect(description, `${key} ${status}`).toMatch(
          /^(Refused|Server or upstream failure): the error body/,
        );
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
  it('answers a reference page that needs no script and no inline style', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/docs' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.headers['content-security-policy']).toContain("script-src 'self'");
    expect(res.body).toContain('/api/openapi.json');
    expect(res.body).toContain('<code>/api/tel</code>');
    // The descriptions' `code` spans are drawn as code, not as backticks.
    expect(res.body).toContain('<code>Authorization: Bearer &lt;token&gt;</code>');
    expect(res.body).not.toContain('`Authorization');
    expect(res.body).not.toMatch(/<script|<style|\sstyle=/i);
    const css = await t.app.inject({ method: 'GET', url: '/api/docs/docs.css' });
    expect(css.statusCode).toBe(200);
    expect(css.headers['content-type']).toMatch(/^text\/css/);
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
