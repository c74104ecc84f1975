import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createUser, json, signIn, type TestApp } from '../support/app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('/api/admin/settings', () => {
  it('lets an admin switch registration off and on, which /api/registration-status reports', async () => {
    const admin = await createUser(t.db, { role: 'admin', appMode: 'live' });
    const { token } = await signIn(t, admin.email, admin.password);
    const off = await t.app.inject({
      method: 'PATCH',
      url: '/api/admin/settings',
      ...json({ registration_enabled: false }, undefined, token),
    });
    expect(off.statusCode).toBe(200);
    expect(off.json()).toEqual({
      registration_enabled: false,
      registration_mode: 'closed',
      case_reference_required: false,
      second_factor_required: false,
      legal_basis_required: false,
      registration_organisation_required: true,
      registration_designation_required: true,
      registration_identity_reference_required: false,
      lookup_retention_days: 90,
      review_share_percent: 0,
      approval_kinds: [],
      approval_hours: 48,
      approval_bulk_rows: 0,
    });
    expect((await t.app.inject({ method: 'GET', url: '/api/registration-status' })).json()).toEqual({
      registration_enabled: false,
      registration_mode: 'closed',
      required_fields: ['organisation', 'designation'],
    });
    const bad = await t.app.inject({
      method: 'PATCH',
      url: '/api/admin/settings',
      ...json({ registration_enabled: 'yes' }, undefined, token),
    });
    expect(bad.statusCode).toBe(422);
    expect((await t.app.inject({ method: 'GET', url: '/api/registration-status' })).json()).toEqual({
      registration_enabled: false,
      registration_mode: 'closed',
      required_fields: ['organisation', 'designation'],
    });
    await t.app.inject({
      method: 'PATCH',
      url: '/api/admin/settings',
      ...json({ registration_enabled: true }, undefined, token),
    });
    expect((await t.app.inject({ method: 'GET', url: '/api/registration-status' })).json()).toEqual({
      registration_enabled: true,
      registration_mode: 'approval',
      required_fields: ['organisation', 'designation'],
    });
  });

  it('refuses anyone else: 401 without a token, 403 for a live non-admin', async () => {
    const user = await createUser(t.db, { appMode: 'live' });
    const { token } = await signIn(t, user.email, user.password);
    expect((await t.app.inject({ method: 'GET', url: '/api/admin/settings' })).statusCode).toBe(401);
    const res = await t.app.inject({
      method: 'PATCH',
      url: '/api/admin/settings',
      ...json({ registration_enabled: false }, undefined, token),
    });
    expect(res.statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: '/api/registration-status' })).json()).toEqual({
      registration_enabled: true,
      registration_mode: 'approval',
      required_fields: ['organisation', 'designation'],
    });
  });
});
