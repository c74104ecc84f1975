import { messages } from '@footprint/domain';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../src/lib/api.ts';
import {
  CASE_REFERENCE_MAX_LENGTH,
  caseReferenceError,
  caseReferenceParam,
  caseReferenceRefusal,
  caseReferenceRefusalOf,
  fetchCaseReferencePolicy,
} from '../src/lib/case-reference.ts';

describe('caseReferenceParam', () => {
  it('sends the trimmed reference, or no key at all', () => {
    expect(caseReferenceParam('  FIR 214/2025 ')).toBe('FIR 214/2025');
    expect(caseReferenceParam('   ')).toBeUndefined();
    expect(caseReferenceParam(null)).toBeUndefined();
    expect(caseReferenceParam(undefined)).toBeUndefined();
  });
});

describe('caseReferenceError', () => {
  it("says the server's messages before a search", () => {
    expect(CASE_REFERENCE_MAX_LENGTH).toBe(100);
    expect(caseReferenceError('  ', true)).toBe('A case reference is required for every search.');
    expect(caseReferenceError('  ', false)).toBeNull();
    expect(caseReferenceError(`  ${'x'.repeat(100)}  `, true)).toBeNull();
    expect(caseReferenceError('x'.repeat(101), false)).toBe(messages.caseReference.tooLong);
  });
});

describe('caseReferenceRefusalOf', () => {
  it('finds the refusal under errors.case_reference of a 422', () => {
    expect(caseReferenceRefusalOf(422, { errors: { case_reference: ['Needed for this deployment.'] } })).toBe(
      'Needed for this deployment.',
    );
  });

  it('recognizes the refusal by its message too', () => {
    expect(caseReferenceRefusalOf(422, { message: messages.caseReference.required })).toBe(
      messages.caseReference.required,
    );
    expect(caseReferenceRefusalOf(422, { message: messages.caseReference.tooLong })).toBe(
      messages.caseReference.tooLong,
    );
  });

  it('is null for other refusals and other statuses', () => {
    expect(
      caseReferenceRefusalOf(422, { message: 'The number is invalid.', errors: { number: ['Bad'] } }),
    ).toBeNull();
    expect(caseReferenceRefusalOf(400, { errors: { case_reference: ['x'] } })).toBeNull();
    expect(caseReferenceRefusalOf(422, { errors: { case_reference: [''] } })).toBeNull();
  });

  it('reads a caught error the same way', () => {
    expect(caseReferenceRefusal(new ApiError(422, { message: messages.caseReference.required }))).toBe(
      messages.caseReference.required,
    );
    expect(caseReferenceRefusal(new Error(messages.caseReference.required))).toBeNull();
  });
});

describe('fetchCaseReferencePolicy', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  const answer = (status: number, body: unknown) =>
    vi.fn(
      async () =>
        new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } }),
    );

  it('reads { required } and requires nothing unless it is exactly true', async () => {
    vi.stubGlobal('window', { localStorage: { getItem: () => 'device-1', setItem: () => {} } });
    vi.stubGlobal('document', { cookie: '' });
    vi.stubGlobal('fetch', answer(200, { required: true }));
    expect(await fetchCaseReferencePolicy()).toEqual({ required: true });
    vi.stubGlobal('fetch', answer(200, { required: 'yes' }));
    expect(await fetchCaseReferencePolicy()).toEqual({ required: false });
  });

  it('treats a server without the endpoint as not requiring one, and passes other failures on', async () => {
    vi.stubGlobal('window', { localStorage: { getItem: () => 'device-1', setItem: () => {} } });
    vi.stubGlobal('fetch', answer(404, { message: 'Not found' }));
    expect(await fetchCaseReferencePolicy()).toEqual({ required: false });
    vi.stubGlobal('fetch', answer(500, { message: 'Boom' }));
    await expect(fetchCaseReferencePolicy()).rejects.toMatchObject({ status: 500, message: 'Boom' });
  });
});
