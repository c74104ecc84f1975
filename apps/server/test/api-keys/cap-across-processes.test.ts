// A key's monthly credit cap holds across server processes on one PostgreSQL database: two apps, each
// with its own pool and its own in-process queue (as two processes have), take 30 paid calls of one
// key capped at 10 credits at once, and exactly 10 are charged. (It overshot to 11 before the check and
// the charge were held under one lock across processes.) PGlite serves one process: nothing to test.
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DatabaseHandle, openDatabase } from '../../src/db/client.ts';
import { lookups, users } from '../../src/db/schema.ts';
import { createTestApp, createUser, signIn, type TestApp } from '../support/app.ts';
import { createTestDatabase } from '../support/db.ts';

const postgres = Boolean(process.env.TEST_DATABASE_URL);
const CAP = 10;
const CALLS = 30;

describe.runIf(postgres)('an API key’s monthly cap across two processes (PostgreSQL)', () => {
  let database: DatabaseHandle & { url?: string };
  let second: DatabaseHandle;
  const apps: TestApp[] = [];

  beforeAll(async () => {
    database = await createTestDatabase();
    second = await openDatabase({ url: database.url!, poolSize: 20 });
    const env = { RATE_LIMIT_ENABLED: 'false', COST_TEL: '1', SANDBOX_LATENCY: '*=0' };
    apps.push(await createTestApp({ database, env }), await createTestApp({ database: second, env }));
  }, 60_000);
  afterAll(async () => {
    for (const app of apps) await app.close();
    await second?.close();
    await database?.close();
  });

  it(`charges exactly ${CAP} of ${CALLS} concurrent calls of a key capped at ${CAP}`, async () => {
    const [one, two] = apps as [TestApp, TestApp];
    const user = await createUser(one.db, { appMode: 'live', credits: 100 });
    const { token } = await signIn(one, user.email, user.password);
    const made = await one.app.inject({
      method: 'POST',
      url: '/api/api-keys',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      payload: JSON.stringify({ name: 'Shared', scopes: ['lookups'], monthly_credit_cap: CAP }),
    });
    expect(made.statusCode).toBe(201);
    const { key, id } = made.json() as { key: string; id: string };
    const answers = await Promise.all(
      Array.from({ length: CALLS }, (_, i) =>
        (i % 2 === 0 ? one : two).app.inject({
          method: 'GET',
          url: `/api/tel?number=9198111${String(i).padStart(5, '0')}`,
          headers: { authorization: `Bearer ${key}` },
        }),
      ),
    );
    const statuses = answers.map((a) => a.statusCode);
    expect(statuses.filter((s) => s === 200)).toHaveLength(CAP);
    expect(statuses.filter((s) => s === 402)).toHaveLength(CALLS - CAP);
    const [spent] = await one.db
      .select({ n: sql<number>`coalesce(sum(${lookups.cost}), 0)::int` })
      .from(lookups)
      .where(eq(lookups.apiKeyId, id));
    expect(spent!.n).toBe(CAP);
    const [after] = await one.db.select({ credits: users.credits }).from(users).where(eq(users.id, user.id));
    expect(after!.credits).toBe(100 - CAP);
  }, 60_000);
});
