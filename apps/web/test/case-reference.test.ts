import { casesMessages, messages } from '@footprint/domain';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../src/lib/api.ts';
import {
  CASE_REFERENCE_MAX_LENGTH,
  caseReferenceError,
  caseReferenceParam,
  caseReferenceRefusal,
  caseReferenceRefusalOf,
  fetchCaseReferencePolicy,
  isLegalBasisMissing,
  legalBasisRefusalOf,
  parseLegalBasisDraft,
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
    expect(await fetchCaseReferencePolicy()).toEqual({ required: true, legal_basis_required: false });
    vi.stubGlobal('fetch', answer(200, { required: 'yes', legal_basis_required: 'yes' }));
    expect(await fetchCaseReferencePolicy()).toEqual({ required: false, legal_basis_required: false });
    vi.stubGlobal('fetch', answer(200, { required: false, legal_basis_required: true }));
    expect(await fetchCaseReferencePolicy()).toEqual({ required: false, legal_basis_required: true });
  });

  it('treats a server without the endpoint as not requiring one, and passes other failures on', async () => {
    vi.stubGlobal('window', { localStorage: { getItem: () => 'device-1', setItem: () => {} } });
    vi.stubGlobal('fetch', answer(404, { message: 'Not found' }));
    expect(await fetchCaseReferencePolicy()).toEqual({ required: false, legal_basis_required: false });
    vi.stubGlobal('fetch', answer(500, { message: 'Boom' }));
    await expect(fetchCaseReferencePolicy()).rejects.toMatchObject({ status: 500, message: 'Boom' });
  });
});

describe('the legal basis a search states', () => {
  it("keys the server's messages about it by input", () => {
    expect(
      legalBasisRefusalOf(422, {
        errors: {
          'legal_basis.acknowledgement_number': ['14 digits.'],
          legal_basis: ['Whole.'],
          number: ['x'],
        },
      }),
    ).toEqual({ acknowledgement_number: ['14 digits.'], legal_basis: ['Whole.'] });
    // The intel searches refuse a bad body with a 400.
    expect(legalBasisRefusalOf(400, { errors: { 'legal_basis.purpose': ['Required.'] } })).toEqual({
      purpose: ['Required.'],
    });
    expect(legalBasisRefusalOf(422, { errors: { case_reference: ['x'] } })).toBeNull();
    expect(legalBasisRefusalOf(500, { errors: { legal_basis: ['x'] } })).toBeNull();
  });

  it('counts a refusal about it, or one for lack of it, as one the form shows under its inputs', () => {
    expect(caseReferenceRefusalOf(400, { errors: { 'legal_basis.purpose': ['Required.'] } })).toBe(
      'Required.',
    );
    expect(caseReferenceRefusalOf(422, { message: casesMessages.legalBasisRequired })).toBe(
      casesMessages.legalBasisRequired,
    );
  });

  it("recognizes a case's missing basis whatever its reference", () => {
    expect(isLegalBasisMissing(casesMessages.legalBasisMissing('FIR 9/2026'))).toBe(true);
    expect(isLegalBasisMissing(casesMessages.legalBasisRequired)).toBe(false);
    expect(isLegalBasisMissing(null)).toBe(false);
  });

  it('reads a stored draft defensively', () => {
    expect(parseLegalBasisDraft(null)).toEqual({ kind: '', values: {} });
    expect(parseLegalBasisDraft('not json')).toEqual({ kind: '', values: {} });
    expect(
      parseLegalBasisDraft(JSON.stringify({ kind: 'ncrp_complaint', values: { purpose: 'Why', n: 3 } })),
    ).toEqual({ kind: 'ncrp_complaint', values: { purpose: 'Why' } });
    expect(parseLegalBasisDraft(JSON.stringify({ kind: 'warrant', values: {} }))).toEqual({
      kind: '',
      values: {},
    });
  });
});
