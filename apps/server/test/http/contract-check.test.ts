// Every answer the API tests receive is held to the OpenAPI document (test/support/app.ts), and the
// browser tests hold theirs to it too (e2e/support/contract.ts). This file shows the check can fail:
// an undocumented status, an undocumented media type and a body its schema refuses are each caught.
import { createResponseValidator } from '@footprint/contract-check';
import type { OpenAPIV3_1 } from 'openapi-types';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.ts';

let t: TestApp;
let check: ReturnType<typeof createResponseValidator>;

beforeAll(async () => {
  t = await createTestApp();
  check = createResponseValidator(
    (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json() as OpenAPIV3_1.Document,
  );
}, 120_000);
afterAll(async () => {
  await t?.close();
});

describe('the contract check', () => {
  it('passes a documented answer', () => {
    expect(
      check.validate({
        method: 'GET',
        url: '/api/registration-status',
        status: 200,
        contentType: 'application/json; charset=utf-8',
        body: { registration_enabled: true, registration_mode: 'open', required_fields: ['organisation'] },
      }),
    ).toEqual([]);
  });

  it('catches an undocumented status, an undocumented media type and a body its schema refuses', () => {
    const base = { method: 'GET', url: '/api/registration-status', contentType: 'application/json' };
    expect(check.validate({ ...base, status: 418, body: {} })[0]?.problem).toMatch(
      /status 418 is not documented/,
    );
    expect(
      check.validate({ ...base, status: 200, contentType: 'text/html', body: '<p>' })[0]?.problem,
    ).toMatch(/media type text\/html is not documented/);
    expect(check.validate({ ...base, status: 200, body: { registration_mode: 7 } })).not.toEqual([]);
  });

  it('has seen no violation in this file so far (every other file closes its app on the same check)', async () => {
    await t.app.inject({ method: 'GET', url: '/api/registration-status' });
    await t.app.inject({ method: 'GET', url: '/api/user' });
    expect(t.contractViolations).toEqual([]);
  });
});
