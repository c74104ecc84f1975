import { describe, expect, it } from 'vitest';
import {
  adminCreateUserRequest,
  adminCreditsRequest,
  adminSettingsPatch,
  adminUpdateUserRequest,
  auditExportQuery,
  auditQuery,
  caseReferenceField,
  challanRequest,
  emailQuery,
  historyQuery,
  leakSearchBody,
  messages,
  rcDetailsRequest,
  telQuery,
  upiDetailsRequest,
} from '../src/index.ts';

const firstMessage = (result: { success: boolean; error?: { issues: Array<{ message: string }> } }) =>
  result.error?.issues[0]?.message;

describe('case reference', () => {
  it('is optional, trimmed, and empty means none', () => {
    expect(caseReferenceField.parse(undefined)).toBeNull();
    expect(caseReferenceField.parse(null)).toBeNull();
    expect(caseReferenceField.parse('   ')).toBeNull();
    expect(caseReferenceField.parse('  FIR 214/2025 ')).toBe('FIR 214/2025');
    expect(caseReferenceField.parse('x'.repeat(100))).toHaveLength(100);
  });

  it('refuses more than 100 characters with the contract message, and control characters', () => {
    expect(firstMessage(caseReferenceField.safeParse('x'.repeat(101)))).toBe(
      'The case reference may not be greater than 100 characters.',
    );
    expect(messages.caseReference.tooLong).toBe('The case reference may not be greater than 100 characters.');
    expect(caseReferenceField.safeParse('a\nb').success).toBe(false);
    expect(caseReferenceField.safeParse(42).success).toBe(false);
  });

  it('is accepted by every search request', () => {
    const ref = { case_reference: 'CASE-7' };
    expect(telQuery.parse({ number: '919876543210', ...ref }).case_reference).toBe('CASE-7');
    expect(emailQuery.parse({ email: 'a@b.co', ...ref }).case_reference).toBe('CASE-7');
    expect(rcDetailsRequest.parse({ id_number: 'MH12AB1234', ...ref }).case_reference).toBe('CASE-7');
    expect(upiDetailsRequest.parse({ upi_id: 'ab@ybl', ...ref }).case_reference).toBe('CASE-7');
    expect(challanRequest.parse({ rc_number: 'MH12AB1234', ...ref }).case_reference).toBe('CASE-7');
    expect(leakSearchBody.parse({ fields: [{ type: 'name', value: 'Ann' }], ...ref }).case_reference).toBe(
      'CASE-7',
    );
  });
});

describe('admin requests', () => {
  it('credit changes: a non-zero whole number within bounds and a reason', () => {
    expect(adminCreditsRequest.parse({ amount: -5, reason: ' correction ' })).toEqual({
      amount: -5,
      reason: 'correction',
    });
    expect(firstMessage(adminCreditsRequest.safeParse({ amount: 2.5, reason: 'x' }))).toBe(
      'The amount must be a whole number.',
    );
    expect(firstMessage(adminCreditsRequest.safeParse({ amount: '5', reason: 'x' }))).toBe(
      'The amount must be a whole number.',
    );
    expect(firstMessage(adminCreditsRequest.safeParse({ amount: 0, reason: 'x' }))).toBe(
      'The amount may not be zero.',
    );
    expect(adminCreditsRequest.safeParse({ amount: 2_000_000, reason: 'x' }).success).toBe(false);
    expect(firstMessage(adminCreditsRequest.safeParse({ amount: 5 }))).toBe('The reason field is required.');
  });

  it('new users default to trial users; bad roles and modes are refused', () => {
    expect(adminCreateUserRequest.parse({ name: 'A', email: 'A@X.TEST' })).toEqual({
      name: 'A',
      email: 'a@x.test',
      role: 'user',
      app_mode: 'trial',
    });
    expect(adminCreateUserRequest.safeParse({ name: 'A', email: 'a\u0000@x.test' }).success).toBe(false);
    expect(adminCreateUserRequest.safeParse({ name: 'A\u0000', email: 'a@x.test' }).success).toBe(false);
    expect(adminCreateUserRequest.safeParse({ name: 'A', email: 'a@x.test', role: 'root' }).success).toBe(
      false,
    );
    expect(
      adminCreateUserRequest.safeParse({ name: 'A', email: 'a@x.test', password: 'short' }).success,
    ).toBe(false);
    expect(
      adminCreateUserRequest.safeParse({ name: 'A', email: 'a@x.test', password: 'eleven char' }).success,
    ).toBe(false);
  });

  it('a user update needs at least one field and knows only its own', () => {
    expect(firstMessage(adminUpdateUserRequest.safeParse({}))).toBe('Send at least one field to change.');
    expect(adminUpdateUserRequest.safeParse({ credits: 5 }).success).toBe(false);
    expect(adminUpdateUserRequest.safeParse({ revoke_sessions: false }).success).toBe(false);
    expect(adminUpdateUserRequest.parse({ status: 'disabled' })).toEqual({ status: 'disabled' });
  });

  it('settings: booleans and a retention of 1 to 3650 days', () => {
    expect(adminSettingsPatch.safeParse({ lookup_retention_days: 0 }).success).toBe(false);
    expect(adminSettingsPatch.safeParse({ lookup_retention_days: 30.5 }).success).toBe(false);
    expect(adminSettingsPatch.safeParse({ case_reference_required: 'true' }).success).toBe(false);
    expect(adminSettingsPatch.parse({ case_reference_required: true, lookup_retention_days: 30 })).toEqual({
      case_reference_required: true,
      lookup_retention_days: 30,
    });
  });

  it('audit filters: real days, the end not before the start', () => {
    expect(auditQuery.parse({ from: '2026-01-01', to: '2026-01-01' })).toMatchObject({
      page: 1,
      per_page: 25,
    });
    expect(firstMessage(auditQuery.safeParse({ from: '2026-01-02', to: '2026-01-01' }))).toBe(
      'The end date must be on or after the start date.',
    );
    expect(auditExportQuery.safeParse({ from: '2026-02-30' }).success).toBe(false);
    expect(auditExportQuery.safeParse({ from: '2026-13-01' }).success).toBe(false);
    expect(auditExportQuery.safeParse({ to: '01/02/2026' }).success).toBe(false);
    expect(auditQuery.safeParse({ per_page: '101' }).success).toBe(false);
    expect(auditQuery.safeParse({ page: '0' }).success).toBe(false);
  });

  it('history filters by a lookup kind', () => {
    expect(historyQuery.parse({ kind: 'corporate:gst' }).kind).toBe('corporate:gst');
    expect(historyQuery.safeParse({ kind: "tel' or 1=1" }).success).toBe(false);
  });
});
