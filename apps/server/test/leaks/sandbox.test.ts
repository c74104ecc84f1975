// SANDBOX decides whether synthetic leak records exist for the Leak Data Finder: off, none is loaded on
// start and the search reads only real sources, so no answer carries a sandbox record; on, both are
// searched and the answer says it holds synthetic data.
import type { LeakRecord } from '@footprint/domain';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../src/db/rows.ts';
import { createTestApp, createUser, signIn, type TestApp } from '../support/app.ts';
import { addLeakRecords } from '../support/leaks.ts';

const NAME = 'Zephyrine Quonsett';

/** A sandbox source and a real one, both holding the same person. */
async function seed(t: TestApp) {
  await addLeakRecords(t.db, { name: 'Synthetic Dump', breachDate: '2020-01-01', sandbox: true }, [
    { name: NAME, email: 'zephyrine@example.test' },
    { name: NAME, email: 'zq.synthetic@example.test' },
    { name: NAME, username: 'zq_synthetic' },
  ]);
  await addLeakRecords(t.db, { name: 'Real Breach', breachDate: '2022-02-02' }, [
    { name: NAME, email: 'zq.real@example.test' },
  ]);
}

async function searchAs(t: TestApp, fields: unknown, query = 'page=1&per_page=10') {
  const user = await createUser(t.db, { credits: 10 });
  const { token } = await signIn(t, user.email, user.password);
  return t.app.inject({
    method: 'POST',
    url: `/api/leak-data-finder/?${query}`,
    payload: { fields } as object,
    headers: { authorization: `Bearer ${token}` },
  });
}

const countOf = async (t: TestApp, table: 'leak_records' | 'leak_sources') =>
  Number(
    rowsOf<{ n: string | number }>(await t.db.execute(sql.raw(`select count(*) as n from ${table}`)))[0]!.n,
  );

describe('Leak Data Finder with the sandbox off', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      env: { RATE_LIMIT_ENABLED: 'false', SANDBOX: 'false', SANDBOX_LEAK_RECORDS: '50' },
    });
  });
  afterAll(() => t.close());

  it('loads no synthetic leak records on start', async () => {
    expect(await countOf(t, 'leak_records')).toBe(0);
    expect(await countOf(t, 'leak_sources')).toBe(0);
  });

  it('finds, counts and pages only the records of real sources', async () => {
    await seed(t);
    const res = await searchAs(t, [{ type: 'name', value: NAME }]);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ total: 1, sandbox: false });
    expect(res.json().data.map((r: LeakRecord) => r.source.name)).toEqual(['Real Breach']);
    expect(res.json().origin_status).toEqual([
      { kind: 'local', name: 'Local index', status: 'ok', records: 1 },
    ]);

    const onlySandbox = await searchAs(t, [{ type: 'email', value: 'zephyrine@example.test' }]);
    expect(onlySandbox.json()).toMatchObject({ total: 0, data: [], sandbox: false });
    const pastReal = await searchAs(t, [{ type: 'name', value: NAME }], 'page=2&per_page=1');
    expect(pastReal.statusCode).toBe(422);
  });
});

describe('Leak Data Finder with the sandbox on', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      env: { RATE_LIMIT_ENABLED: 'false', SANDBOX: 'true', SANDBOX_LEAK_RECORDS: '50' },
    });
  });
  afterAll(() => t.close());

  it('loads the synthetic records on start and searches them with the real ones, saying so', async () => {
    expect(await countOf(t, 'leak_records')).toBeGreaterThanOrEqual(50);
    await seed(t);
    const res = await searchAs(t, [{ type: 'name', value: NAME }]);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ total: 4, sandbox: true });
    expect(
      res
        .json()
        .data.map((r: LeakRecord) => r.source.name)
        .sort(),
    ).toEqual(['Real Breach', 'Synthetic Dump', 'Synthetic Dump', 'Synthetic Dump']);
  });
});
