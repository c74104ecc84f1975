// The self-check's schedule: with SITE_CHECK_SELF_CHECK_HOURS set, a run is queued on start when none
// has been made (the hourly tick, once across processes), and not again until the interval is nearly up;
// a process that starts on a database with quarantined sites reads them before its first lookup.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { siteSelfCheckRuns } from '../../src/db/schema.ts';
import { selfCheckDue } from '../../src/modules/site-health/service.ts';
import { CLAIMED, type FakeSites, startFakeSites } from '../providers/sites/fake-sites.ts';
import { createTestApp, createUser, signIn } from '../support/app.ts';
import { createTestDatabase } from '../support/db.ts';
import { writeSiteCatalogue } from '../support/site-catalogue.ts';

let fake: FakeSites;
let env: Record<string, string>;
beforeAll(async () => {
  fake = await startFakeSites();
  env = {
    RATE_LIMIT_ENABLED: 'false',
    SANDBOX: 'false',
    SITE_CHECK_ENABLED: 'true',
    SITE_CHECK_USER_AGENT: 'Footprint-SiteCheck/test (+http://127.0.0.1/contact)',
    SITE_CHECK_CATALOGUE: writeSiteCatalogue([
      fake.site('status', 'status_code'),
      fake.site('evidence', 'status_code'),
    ]),
    SITE_CHECK_ALLOW_ADDRESSES: `127.0.0.1:${fake.port}`,
    SITE_CHECK_INTERVAL_MS: '0',
    SITE_CHECK_SELF_CHECK_HOURS: '24',
  };
});
afterAll(async () => {
  await fake?.close();
});

const HOUR = 3_600_000;

describe('the scheduled self-check', () => {
  it('runs once on a first start, is not due again before its interval, and a restart reads the quarantine', async () => {
    const database = await createTestDatabase();
    try {
      const first = await createTestApp({ database, env });
      try {
        let runs: Array<typeof siteSelfCheckRuns.$inferSelect> = [];
        for (let i = 0; i < 100; i++) {
          runs = await first.db.select().from(siteSelfCheckRuns);
          if (runs[0]?.finishedAt) break;
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
        expect(runs).toHaveLength(1);
        expect(runs[0]).toMatchObject({ trigger: 'schedule', sites: 2, passed: 1, failed: 1 });
        expect(await first.app.siteHealth.due()).toBe(false);
        const started = runs[0]!.startedAt.getTime();
        expect(await selfCheckDue(first.db, 24, new Date(started + 23 * HOUR))).toBe(false);
        expect(await selfCheckDue(first.db, 24, new Date(started + 23.6 * HOUR))).toBe(true);
        expect(await selfCheckDue(first.db, 0, new Date(started + 100 * HOUR))).toBe(false);
        // A run that covered fewer sites than the catalogue holds (cut short by a stop) does not count.
        expect(await selfCheckDue(first.db, 24, new Date(started + HOUR), 2)).toBe(false);
        expect(await selfCheckDue(first.db, 24, new Date(started + HOUR), 3)).toBe(true);
        const body = (
          await first.app.inject({
            method: 'GET',
            url: '/api/admin/site-health',
            headers: await adminHeaders(first),
          })
        ).json();
        expect(body).toMatchObject({ schedule_hours: 24, running: false, totals: { ok: 1, quarantined: 1 } });
      } finally {
        await first.close();
      }

      const hits = fake.hits('evidence').length;
      const second = await createTestApp({ database, env });
      try {
        // Not due: the restart queues no run; the quarantine is read at start.
        const user = await createUser(second.db, { credits: 5, appMode: 'live' });
        const { token } = await signIn(second, user.email, user.password);
        const res = await second.app.inject({
          method: 'GET',
          url: `/api/username?username=${CLAIMED}`,
          headers: { authorization: `Bearer ${token}` },
        });
        expect(res.statusCode, res.body).toBe(200);
        const line = res.json().sitesData.sites.find((s: { site: string }) => s.site === 'evidence');
        expect(line).toMatchObject({ state: 'not_checked' });
        expect(line.reason).toMatch(/^not checked — site check failing since \d{4}-\d{2}-\d{2}$/);
        expect(fake.hits('evidence')).toHaveLength(hits);
        expect(await second.db.select().from(siteSelfCheckRuns)).toHaveLength(1);
      } finally {
        await second.close();
      }
    } finally {
      await database.close();
    }
  });
});

async function adminHeaders(t: Awaited<ReturnType<typeof createTestApp>>) {
  const admin = await createUser(t.db, { role: 'admin', appMode: 'live' });
  const { token } = await signIn(t, admin.email, admin.password);
  return { authorization: `Bearer ${token}` };
}
