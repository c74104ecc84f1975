// The sign-up's profile for an approver (organisation, designation, official identity reference):
// which fields are required is an admin setting; the server enforces it and stores what was given.
import { fieldMessages, messages } from '@footprint/domain';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../src/db/schema.ts';
import { createTestApp, createUser, json, signIn, type TestApp } from '../support/app.ts';

let t: TestApp;
let admin: { token: string; deviceId: string };
beforeAll(async () => {
  // The product's defaults: approval, organisation and designation required.
  t = await createTestApp({ env: { RATE_LIMIT_ENABLED: 'false' } });
  const row = await createUser(t.db, { role: 'admin', appMode: 'live' });
  admin = await signIn(t, row.email, row.password);
});
afterAll(() => t.close());

let n = 0;
const email = () => `signup-${process.pid}-${++n}@example.test`;
const password = 'a long signup passphrase';
const base = () => ({ name: 'Kavya Iyer', email: email(), password, password_confirmation: password });
const register = (body: unknown) => t.app.inject({ method: 'POST', url: '/api/register', ...json(body) });
const status = async () => (await t.app.inject({ method: 'GET', url: '/api/registration-status' })).json();
const patchSettings = (body: unknown) =>
  t.app.inject({ method: 'PATCH', url: '/api/admin/settings', ...json(body, admin.deviceId, admin.token) });
const rowOf = async (address: string) => (await t.db.select().from(users).where(eq(users.email, address)))[0];
const pendingList = async () =>
  (
    await t.app.inject({
      method: 'GET',
      url: '/api/admin/users?status=pending&per_page=100',
      ...json(undefined, admin.deviceId, admin.token),
    })
  ).json().data as Array<Record<string, unknown>>;

describe('sign-up profile fields', () => {
  it('requires organisation and designation by default, and says so on the status endpoint', async () => {
    expect(await status()).toEqual({
      registration_enabled: true,
      registration_mode: 'approval',
      required_fields: ['organisation', 'designation'],
    });
    const body = base();
    const res = await register(body);
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual({
      organisation: [fieldMessages.required('organisation')],
      designation: [fieldMessages.required('designation')],
    });
    // Blank is missing too, and nothing was created either time.
    const blank = await register({ ...body, organisation: '   ', designation: 'Inspector' });
    expect(blank.statusCode).toBe(422);
    expect(blank.json().errors).toEqual({ organisation: [fieldMessages.required('organisation')] });
    expect(await rowOf(body.email)).toBeUndefined();
  });

  it('accepts the optional identity reference left out, and stores what was given on the account', async () => {
    const body = { ...base(), organisation: '  Cyber Cell, Pune Police ', designation: 'Sub-Inspector' };
    const res = await register(body);
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ message: messages.register.created, approval_required: true });
    const row = await rowOf(body.email);
    expect(row).toMatchObject({
      status: 'pending',
      credits: 0,
      organisation: 'Cyber Cell, Pune Police',
      designation: 'Sub-Inspector',
      identityReference: null,
    });

    const withId = {
      ...base(),
      organisation: 'The Daily Synthetic',
      designation: 'Reporter',
      identity_reference: 'PC-2291',
    };
    expect((await register(withId)).statusCode).toBe(201);
    // The approver sees them on the pending list and on the account itself.
    const listed = (await pendingList()).find((user) => user.email === withId.email);
    expect(listed).toMatchObject({
      organisation: 'The Daily Synthetic',
      designation: 'Reporter',
      identity_reference: 'PC-2291',
    });
    const one = await t.app.inject({
      method: 'GET',
      url: `/api/admin/users/${listed!.id}`,
      ...json(undefined, admin.deviceId, admin.token),
    });
    expect(one.json().user).toMatchObject({
      organisation: 'The Daily Synthetic',
      identity_reference: 'PC-2291',
    });
  });

  it('follows the admin setting: what the admin requires is required, what the admin frees is optional', async () => {
    const changed = await patchSettings({
      registration_identity_reference_required: true,
      registration_designation_required: false,
    });
    expect(changed.statusCode).toBe(200);
    expect(changed.json()).toMatchObject({
      registration_organisation_required: true,
      registration_designation_required: false,
      registration_identity_reference_required: true,
    });
    expect((await status()).required_fields).toEqual(['organisation', 'identity_reference']);

    const missingId = await register({ ...base(), organisation: 'Synthetic Bureau' });
    expect(missingId.statusCode).toBe(422);
    expect(missingId.json().errors).toEqual({
      identity_reference: [fieldMessages.required('official ID reference')],
    });
    const noDesignation = { ...base(), organisation: 'Synthetic Bureau', identity_reference: 'EMP-1' };
    expect((await register(noDesignation)).statusCode).toBe(201);
    expect(await rowOf(noDesignation.email)).toMatchObject({ designation: null, identityReference: 'EMP-1' });

    // Nothing required: the spec's four fields alone register, as before.
    const none = await patchSettings({
      registration_organisation_required: false,
      registration_identity_reference_required: false,
    });
    expect(none.statusCode).toBe(200);
    expect((await status()).required_fields).toEqual([]);
    expect((await register(base())).statusCode).toBe(201);

    // Restored, and the changes are on the audit trail.
    await patchSettings({
      registration_organisation_required: true,
      registration_designation_required: true,
    });
    expect((await status()).required_fields).toEqual(['organisation', 'designation']);
    const audit = await t.app.inject({
      method: 'GET',
      url: '/api/admin/audit?action=admin.settings.update&per_page=100',
      ...json(undefined, admin.deviceId, admin.token),
    });
    const changes = (audit.json().data as Array<{ details: { changes: Record<string, unknown> } }>).map(
      (row) => Object.keys(row.details.changes).sort(),
    );
    expect(changes).toContainEqual([
      'registration_designation_required',
      'registration_identity_reference_required',
    ]);
  });

  it('refuses a setting that is not true or false', async () => {
    const res = await patchSettings({ registration_organisation_required: 'yes' });
    expect(res.statusCode).toBe(422);
    expect(Object.keys(res.json().errors)).toEqual(['registration_organisation_required']);
  });

  it('refuses control characters and over-long values with the field named, never a 5xx', async () => {
    const cases: Array<[string, Record<string, string>, number, string]> = [
      // C0 controls: the input guard's 400, naming the field.
      ['organisation', { organisation: 'Pune\u0000Police', designation: 'SI' }, 400, 'organisation'],
      ['designation', { organisation: 'Pune Police', designation: 'Sub\u001bInspector' }, 400, 'designation'],
      // Other control characters (C1, tab, new line): the field's own 422.
      [
        'identity_reference',
        { organisation: 'Pune Police', designation: 'SI', identity_reference: 'ID\u0085 42' },
        422,
        messages.signupFields.control('official ID reference'),
      ],
      [
        'designation',
        { organisation: 'Pune Police', designation: 'Sub\tInspector' },
        422,
        messages.signupFields.control('designation'),
      ],
      [
        'organisation',
        { organisation: 'x'.repeat(201), designation: 'SI' },
        422,
        fieldMessages.max('organisation', 200),
      ],
      [
        'identity_reference',
        { organisation: 'Pune Police', designation: 'SI', identity_reference: '9'.repeat(101) },
        422,
        fieldMessages.max('official ID reference', 100),
      ],
      [
        'name',
        { name: 'Kavya\u0085Iyer', organisation: 'Pune Police', designation: 'SI' },
        422,
        messages.signupFields.control('name'),
      ],
    ];
    for (const [field, extra, code, message] of cases) {
      const body = { ...base(), ...extra };
      const res = await register(body);
      expect(res.statusCode, `${field}: ${res.body}`).toBe(code);
      const errors = res.json().errors as Record<string, string[]>;
      expect(Object.keys(errors)).toEqual([field]);
      if (code === 422) expect(errors[field]).toEqual([message]);
      expect(await rowOf(body.email)).toBeUndefined();
    }
  });

  it('says nothing about who has an account: a taken address with a missing field gets the same 422', async () => {
    const taken = { ...base(), organisation: 'Synthetic Bureau', designation: 'Analyst' };
    expect((await register(taken)).statusCode).toBe(201);
    const again = await register({ ...taken, organisation: undefined });
    const fresh = await register({ ...base(), designation: 'Analyst' });
    expect(again.statusCode).toBe(422);
    expect(again.json()).toEqual(fresh.json());
  });
});
