import { fieldMessages, messages } from '@footprint/domain';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { creditEntries, users } from '../../src/db/schema.ts';
import { findLedgerMismatches } from '../../src/modules/credits/service.ts';
import { writeSetting } from '../../src/modules/settings/service.ts';
import { createTestApp, json, type TestApp } from '../support/app.ts';

let t: TestApp;
beforeAll(async () => {
  // The spec's behaviour: an account that may sign in at once (approval: test/auth/approval.test.ts).
  t = await createTestApp({ env: { TRIAL_CREDITS: '7', REGISTRATION_MODE: 'open' } });
});
afterAll(() => t.close());

const register = (body: unknown) => t.app.inject({ method: 'POST', url: '/api/register', ...json(body) });
const valid = (email: string) => ({
  name: 'Priya Raman',
  email,
  password: 'long enough password',
  password_confirmation: 'long enough password',
  organisation: 'Chennai Cyber Crime Wing',
  designation: 'Inspector',
});

describe('POST /api/register', () => {
  it('creates a trial account with the configured trial credits written to the ledger', async () => {
    const res = await register(valid('Priya.Raman@Example.test'));
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      message: messages.register.created,
      approval_required: false,
      user: {
        name: 'Priya Raman',
        email: 'priya.raman@example.test',
        app_mode: 'trial',
        role: 'user',
        credits: 7,
      },
    });
    const [row] = await t.db.select().from(users).where(eq(users.email, 'priya.raman@example.test'));
    expect(row?.passwordHash).toMatch(/^\$argon2id\$/);
    expect(row?.status).toBe('active');
    const ledger = await t.db.select().from(creditEntries).where(eq(creditEntries.userId, row!.id));
    expect(ledger).toEqual([expect.objectContaining({ delta: 7, balanceAfter: 7, kind: 'grant' })]);
    expect(await findLedgerMismatches(t.db)).toEqual([]);
  });

  it('answers an address already taken, whatever its case, like a new one, and makes no second account', async () => {
    const first = await register(valid('dup@example.test'));
    expect(first.statusCode).toBe(201);
    const again = await register(valid('DUP@example.test'));
    expect(again.statusCode).toBe(201);
    expect(Object.keys(again.json().user).sort()).toEqual(Object.keys(first.json().user).sort());
    expect(again.json()).toMatchObject({
      ...first.json(),
      user: { ...first.json().user, id: expect.any(String), created_at: expect.any(String) },
    });
    expect(again.json().user.id).not.toBe(first.json().user.id);
    expect(await t.db.select().from(users).where(eq(users.email, 'dup@example.test'))).toHaveLength(1);
  });

  it('answers concurrent sign-ups for one address with one account and the same 201s', async () => {
    const results = await Promise.all(Array.from({ length: 5 }, () => register(valid('race@example.test'))));
    expect(results.map((r) => r.statusCode)).toEqual([201, 201, 201, 201, 201]);
    expect(await t.db.select().from(users).where(eq(users.email, 'race@example.test'))).toHaveLength(1);
  });

  it('reports every invalid field with the message the form shows', async () => {
    const res = await register({
      name: ' ',
      email: 'bad',
      password: 'short',
      password_confirmation: 'other',
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual({
      name: [fieldMessages.required('name')],
      email: [fieldMessages.email('email')],
      password: ['The password field must be at least 12 characters.', fieldMessages.confirmed('password')],
      organisation: [fieldMessages.required('organisation')],
      designation: [fieldMessages.required('designation')],
    });
    const missing = await register({});
    expect(Object.keys(missing.json().errors).sort()).toEqual([
      'designation',
      'email',
      'name',
      'organisation',
      'password',
      'password_confirmation',
    ]);
  });

  it('is closed while registration is disabled, and the status endpoint says so', async () => {
    await writeSetting(t.db, 'registration_mode', 'closed');
    const status = await t.app.inject({ method: 'GET', url: '/api/registration-status' });
    expect(status.json()).toEqual({
      registration_enabled: false,
      registration_mode: 'closed',
      required_fields: ['organisation', 'designation'],
    });
    const before = (await t.db.select().from(users)).length;
    const res = await register(valid('closed@example.test'));
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ message: messages.register.disabled });
    expect(await t.db.select().from(users)).toHaveLength(before);
    await writeSetting(t.db, 'registration_mode', 'open');
    expect((await t.app.inject({ method: 'GET', url: '/api/registration-status' })).json()).toEqual({
      registration_enabled: true,
      registration_mode: 'open',
      required_fields: ['organisation', 'designation'],
    });
  });
});
