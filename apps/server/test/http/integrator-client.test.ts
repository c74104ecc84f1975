// What an integrator does with /api/openapi.json: generate a client (openapi-typescript types, the
// committed test/support/openapi-types.generated.ts, and openapi-fetch over real HTTP), call every
// operation the document lists, and hold every answer to the document (test/support/response-validator.ts):
// a status it documents, a media type it documents, a JSON body valid against that status's schema.
// The list of calls comes from the document itself, so a new route cannot be left out.

import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import {
  type Answer,
  createResponseValidator,
  operationsOf,
  type Violation,
} from '@footprint/contract-check';
import createClient from 'openapi-fetch';
import type { OpenAPIV3_1 } from 'openapi-types';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exampleOf } from '../../src/http/openapi-document.ts';
import { INTEL_DEMO } from '../../src/sandbox/index.ts';
import { answered } from '../support/answered.ts';
import { createTestApp, createUser, signIn, type TestApp } from '../support/app.ts';
import type { components, paths } from '../support/openapi-types.generated.ts';

let t: TestApp;
let client: ReturnType<typeof createClient<paths>>;
let doc: OpenAPIV3_1.Document;
let validator: ReturnType<typeof createResponseValidator>;
let session: { authorization: string; 'x-device-id': string };
let admin: Awaited<ReturnType<typeof createUser>>;
const answers: Answer[] = [];

/** A session of its own: for the calls that end every session of their account. */
async function freshSession(user?: Awaited<ReturnType<typeof createUser>>) {
  const account = user ?? (await createUser(t.db, { appMode: 'live' }));
  const signed = await signIn(t, account.email, account.password);
  return { authorization: `Bearer ${signed.token}`, 'x-device-id': signed.deviceId };
}

beforeAll(async () => {
  t = await createTestApp({ env: { RATE_LIMIT_ENABLED: 'false' } });
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = t.app.server.address() as AddressInfo;
  client = createClient<paths>({ baseUrl: `http://127.0.0.1:${port}` });
  // Every answer the client gets is kept for the validator (the body read from a copy).
  client.use({
    async onResponse({ request, response }) {
      const contentType = response.headers.get('content-type') ?? undefined;
      const text = await response.clone().text();
      const body = /json/.test(contentType ?? '') && text ? JSON.parse(text) : text;
      answers.push({ method: request.method, url: request.url, status: response.status, contentType, body });
      return response;
    },
  });
  admin = await createUser(t.db, { appMode: 'live', role: 'admin', credits: 10_000 });
  session = await freshSession(admin);
  const { data } = await client.GET('/api/openapi.json');
  doc = data as unknown as OpenAPIV3_1.Document;
  validator = createResponseValidator(doc);
}, 60_000);
afterAll(() => t?.close());

describe('a client generated from the document', () => {
  it('types each request from the document: per-type searches, uploads as JSON, report requests', async () => {
    const gstin = await client.POST('/api/corporate-intelligence', {
      body: { type: 'corporate_gstin', data: { id_number: INTEL_DEMO.gstin, year: '2024' } },
      headers: session,
    });
    expect(gstin.response.status).toBe(200);
    // The document tells the client that GSTIN needs its year: leaving it out does not compile.
    const refused = await client.POST('/api/corporate-intelligence', {
      // @ts-expect-error data.year is required for corporate_gstin
      body: { type: 'corporate_gstin', data: { id_number: INTEL_DEMO.gstin } },
      headers: session,
    });
    expect(refused.response.status).toBe(400);
    expect(refused.error?.errors).toEqual({ 'data.year': [expect.any(String)] });

    const lookup = await client.GET('/api/tel', {
      params: { query: { number: '919876543210' } },
      headers: session,
    });
    expect(lookup.response.status).toBe(200);
    const report = await client.POST('/api/generate-report', {
      body: { userInput: '9876543210', type: 'tel', results: { lookup_id: answered(lookup.data).lookup_id } },
      headers: session,
      parseAs: 'blob',
    });
    expect(report.response.status).toBe(200);
    expect(report.response.headers.get('x-report-id')).toEqual(expect.any(String));

    const bulk = await client.POST('/api/bulk/preview', {
      body: { type: 'tel', values: ['9876543210', 'not a number'] },
      headers: session,
    });
    expect(bulk.data).toMatchObject({ valid: 1, invalid: [expect.objectContaining({ line: 2 })] });

    // The upload and the refusals are typed too: a bulk file as multipart, a 402 with the key cap fields.
    const upload: paths['/api/bulk']['post']['requestBody']['content']['multipart/form-data'] = {
      file: 'numbers.csv',
      type: 'tel',
    };
    const capped: components['schemas']['PaymentRequired'] = {
      message: 'This key has reached its monthly credit cap.',
      credits: 40,
      monthly_credit_cap: 100,
      credits_this_month: 100,
    };
    const busy: paths['/api/generate-report']['post']['responses'][503]['content']['application/json'] = {
      message: 'Reports are busy right now.',
      retry_after: 5,
    };
    expect([upload.type, capped.monthly_credit_cap, busy.retry_after]).toEqual(['tel', 100, 5]);
  });

  it('calls every operation of the document, and every answer keeps to it', async () => {
    // Ids of real resources for the operations that read them; any other id is a fresh one (404).
    const lookup = await client.GET('/api/tel', {
      params: { query: { number: '919876543210' } },
      headers: session,
    });
    const lookupId = answered(lookup.data).lookup_id;
    const job = await client.POST('/api/bulk', {
      body: { type: 'tel', values: ['9876543210'] },
      headers: session,
    });
    const jobId = job.data!.id;
    for (let i = 0; i < 100; i += 1) {
      const { data } = await client.GET('/api/bulk/{id}', {
        params: { path: { id: jobId } },
        headers: session,
      });
      if (data && ['done', 'stopped', 'cancelled'].includes(data.status)) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const pdf = await client.POST('/api/generate-report', {
      body: { userInput: '9876543210', type: 'tel', results: { lookup_id: lookupId } },
      headers: session,
      parseAs: 'blob',
    });
    const reportId = pdf.response.headers.get('x-report-id')!;
    const created = await client.POST('/api/cases', {
      body: exampleOf(doc as never, casesBody()) as never,
      headers: session,
    });
    const caseId = (created.data as { id?: string } | undefined)?.id ?? randomUUID();
    const other = await createUser(t.db, { appMode: 'trial' });

    const ids: Array<[RegExp, string]> = [
      [/^\/api\/history\/\{id\}/, lookupId],
      [/^\/api\/bulk\/\{id\}/, jobId],
      [/^\/api\/reports\/\{id\}/, reportId],
      [/^\/api\/cases\/\{id\}/, caseId],
      [/^\/api\/admin\/users\/\{id\}/, other.id],
    ];
    const query: Record<string, Record<string, string>> = {
      // Nothing leaves this machine: an address the media proxy refuses.
      '/api/media': { url: 'ftp://example.test/x.png' },
      '/api/history/{id}/export': { format: 'json' },
      '/api/bulk/{id}/results': { format: 'json' },
    };
    // These end the caller's sessions, so each is called by an account of its own.
    const endsSession = /^\/api\/(logout|security\/sign-out-everywhere)$/;

    const called: string[] = [];
    for (const { method, path, op } of operationsOf(doc)) {
      const params: { path: Record<string, string>; query: Record<string, unknown> } = {
        path: {},
        query: {},
      };
      for (const p of (op.parameters ?? []) as OpenAPIV3_1.ParameterObject[]) {
        if (p.in === 'path')
          params.path[p.name] = ids.find(([pattern]) => pattern.test(path))?.[1] ?? randomUUID();
        if (p.in === 'query' && p.required)
          params.query[p.name] = exampleOf(doc as never, p.schema as never, p.name);
      }
      Object.assign(params.query, query[path]);
      const json = (op.requestBody as OpenAPIV3_1.RequestBodyObject | undefined)?.content?.[
        'application/json'
      ];
      // The example, or the first of several (the paid searches: one per kind of the endpoint).
      const first = Object.values(json?.examples ?? {})[0] as OpenAPIV3_1.ExampleObject | undefined;
      const body = json?.example ?? first?.value;
      const headers = endsSession.test(path) ? await freshSession() : session;
      const before = answers.length;
      // One call per operation, through the generated client; the document chose the path and method.
      await client.request(
        method as 'get',
        path as '/api/health',
        {
          params,
          headers,
          ...(body === undefined ? {} : { body }),
          parseAs: 'stream',
        } as never,
      );
      expect(answers.length, `${method} ${path}`).toBe(before + 1);
      called.push(`${method.toUpperCase()} ${path}`);
    }

    // Every operation, and every answer of this file (the typed calls above included) keeps to the document.
    expect(called).toEqual(operationsOf(doc).map(({ method, path }) => `${method.toUpperCase()} ${path}`));
    expect(called.length).toBeGreaterThan(90);
    const violations: Violation[] = answers.flatMap((answer) => validator.validate(answer));
    expect(violations).toEqual([]);
    // Most operations answered with success, so their success schemas were checked, not only errors.
    const succeeded = new Set(
      answers.filter((a) => a.status < 300).map((a) => validator.match(a.method, a.url)?.path),
    );
    expect(succeeded.size).toBeGreaterThanOrEqual(45);
  }, 180_000);

  it('has a validator that does fail an answer the document does not describe', () => {
    const url = 'http://127.0.0.1/api/tel?number=919876543210';
    const json = 'application/json; charset=utf-8';
    expect(
      validator.validate({ method: 'GET', url, status: 402, contentType: json, body: { message: 'x' } }),
    ).toEqual([
      expect.objectContaining({
        operation: 'GET /api/tel',
        problem: "(body) must have required property 'credits'",
      }),
    ]);
    expect(
      validator.validate({ method: 'GET', url, status: 418, contentType: json, body: {} })[0]?.problem,
    ).toMatch(/status 418 is not documented/);
    expect(
      validator.validate({ method: 'GET', url, status: 200, contentType: 'text/html', body: '' })[0]?.problem,
    ).toMatch(/media type text\/html is not documented/);
    expect(
      validator.validate({ method: 'GET', url: '/api/nowhere', status: 200, contentType: json }),
    ).toHaveLength(1);
  });
});

/** The request body schema of POST /api/cases, for its example. */
function casesBody() {
  const body = doc.paths?.['/api/cases']?.post?.requestBody as OpenAPIV3_1.RequestBodyObject;
  return body.content['application/json']!.schema as Record<string, unknown>;
}
