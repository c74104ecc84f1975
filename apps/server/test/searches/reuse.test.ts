// The cache of the paid search, one rule for every kind: an identical search by the same user is
// served free within the cache window, and the window never reaches past the retention period.
import { createHash } from 'node:crypto';
import { nameTokens } from '@footprint/domain';
import { desc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents, leakSources, lookups } from '../../src/db/schema.ts';
import { findLedgerMismatches } from '../../src/modules/credits/service.ts';
import { reuseWindowStart } from '../../src/modules/searches/reuse.ts';
import { createTestApp, createUser, signIn, type TestApp } from '../support/app.ts';

let t: TestApp;

beforeAll(async () => {
  // A cache window of three days under a retention period of one: the window is one day.
  t = await createTestApp({
    env: { RATE_LIMIT_ENABLED: 'false', LOOKUP_CACHE_HOURS: '72', LOOKUP_RETENTION_DAYS: '1' },
  });
  const [source] = await t.db
    .insert(leakSources)
    .values({ name: 'Orbitly', breachDate: '2021-03-04', description: 'Orbitly (synthetic)' })
    .returning();
  await t.db.execute(sql`
    insert into leak_records (source_id, record_hash, name, email, name_tokens)
    values (${source!.id}, ${createHash('sha256').update('reuse').digest('hex')}, 'Meera Iyer',
      'meera@example.test', array[${sql.join(
        nameTokens('Meera Iyer').map((x) => sql`${x}`),
        sql`, `,
      )}]::text[])`);
});
afterAll(() => t.close());

async function investigator(credits = 10) {
  const user = await createUser(t.db, { credits });
  const { token } = await signIn(t, user.email, user.password);
  return { user, headers: { authorization: `Bearer ${token}` } };
}

const leak = (headers: Record<string, string>) =>
  t.app.inject({
    method: 'POST',
    url: '/api/leak-data-finder/?page=1&per_page=10',
    payload: { fields: [{ type: 'name', value: 'Meera Iyer' }] },
    headers,
  });

const tel = (headers: Record<string, string>) =>
  t.app.inject({ method: 'GET', url: '/api/tel?number=919876543210', headers });

/** Moves a lookup back in time, as if it had been made `hours` ago. */
const age = (id: string, hours: number) =>
  t.db
    .update(lookups)
    .set({ createdAt: new Date(Date.now() - hours * 3_600_000) })
    .where(eq(lookups.id, id));

describe('the cache window of a paid search', () => {
  it('is the shorter of the cache hours and the retention period', () => {
    const now = new Date('2026-01-10T00:00:00Z');
    expect(reuseWindowStart(now, 72, 1)).toEqual(new Date('2026-01-09T00:00:00Z'));
    expect(reuseWindowStart(now, 12, 90)).toEqual(new Date('2026-01-09T12:00:00Z'));
  });

  for (const [kind, search] of [
    ['leak', leak],
    ['tel', tel],
  ] as const) {
    it(`serves a ${kind} search again free inside retention, and charges it again past retention`, async () => {
      const { user, headers } = await investigator(10);
      const paid = await search(headers);
      expect(paid.statusCode, paid.body).toBe(200);
      expect(paid.json()).toMatchObject({ cached: false });
      const afterPaid = paid.json().credits as number;

      // 20 hours old: inside the one-day retention, so inside the window.
      await age(paid.json().lookup_id, 20);
      const repeat = await search(headers);
      expect(repeat.json()).toMatchObject({ cached: true, credits: afterPaid });
      const [row] = await t.db.select().from(lookups).where(eq(lookups.id, repeat.json().lookup_id));
      expect(row).toMatchObject({ cost: 0, status: 'complete', cacheOf: paid.json().lookup_id });

      // 30 hours old: inside the 72 cache hours, but past retention, so charged again.
      await age(paid.json().lookup_id, 30);
      await age(repeat.json().lookup_id, 30);
      const again = await search(headers);
      expect(again.statusCode, again.body).toBe(200);
      expect(again.json().cached).toBe(false);
      expect(again.json().credits).toBeLessThan(afterPaid);

      const rows = await t.db.select().from(lookups).where(eq(lookups.userId, user.id));
      expect(rows.filter((r) => r.cost > 0)).toHaveLength(2);
      expect(await findLedgerMismatches(t.db)).toEqual([]);
    });
  }

  it('points every free repeat at the paid search, so that history reopens its page', async () => {
    const { headers } = await investigator(10);
    const paid = await leak(headers);
    const second = await leak(headers);
    const third = await leak(headers);
    for (const repeat of [second, third]) {
      expect(repeat.json().cached).toBe(true);
      const [row] = await t.db.select().from(lookups).where(eq(lookups.id, repeat.json().lookup_id));
      expect(row!.cacheOf).toBe(paid.json().lookup_id);
      const reopened = await t.app.inject({
        method: 'GET',
        url: `/api/history/${repeat.json().lookup_id}`,
        headers,
      });
      expect(reopened.statusCode, reopened.body).toBe(200);
      expect(reopened.json().result.data).toEqual(paid.json().data);
    }
  });

  it('refuses a free page past the last without a charge, and writes the refusal to the trail', async () => {
    const { user, headers } = await investigator(10);
    const paid = await leak(headers);
    expect(paid.json().cached).toBe(false);
    const past = await t.app.inject({
      method: 'POST',
      url: '/api/leak-data-finder/?page=5&per_page=10',
      payload: { fields: [{ type: 'name', value: 'Meera Iyer' }] },
      headers,
    });
    expect(past.statusCode).toBe(422);
    expect(past.json()).toMatchObject({
      credits: paid.json().credits,
      errors: { page: [expect.any(String)] },
    });
    const [last] = await t.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.userId, user.id))
      .orderBy(desc(auditEvents.id))
      .limit(1);
    expect(last).toMatchObject({ action: 'lookup.leak', outcome: 'failure', cost: 0 });
    expect(last!.details).toMatchObject({ reason: 'page_out_of_range', cache_of: paid.json().lookup_id });
    const rows = await t.db.select().from(lookups).where(eq(lookups.userId, user.id));
    expect(rows).toHaveLength(1);
    expect(await findLedgerMismatches(t.db)).toEqual([]);
  });
});
