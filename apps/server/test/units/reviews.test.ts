// Sampled review: the admin's share of searches drawn after the fact into the review queue of the
// searcher's supervisors; a verdict once, audited, and visible to the searcher; nobody reviews their
// own searches, and a supervisor of an unrelated unit sees nothing.
import { randomUUID } from 'node:crypto';
import { reviewsMessages } from '@footprint/domain';
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents, lookups, reviewSamples } from '../../src/db/schema.ts';
import { sampleForReview } from '../../src/modules/reviews/sampler.ts';
import { deploymentDefaults } from '../../src/modules/settings/service.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { caller, type Session, signedInAccount } from '../support/units.ts';

let t: TestApp;
const people = {} as Record<
  'admin' | 'investigator' | 'supervisor' | 'districtSupervisor' | 'stranger',
  { id: string; email: string; session: Session }
>;

const call = caller(() => t);

const HOUR = 3_600_000;
const sample = () =>
  sampleForReview(t.db, deploymentDefaults(t.config), {
    now: new Date(Date.now() + HOUR),
    from: new Date(Date.now() - HOUR),
  });

beforeAll(async () => {
  t = await createTestApp({ env: { RATE_LIMIT_ENABLED: 'false' } });
  for (const who of ['admin', 'investigator', 'supervisor', 'districtSupervisor', 'stranger'] as const) {
    const account = await signedInAccount(t, { role: who === 'admin' ? 'admin' : 'user', credits: 20 });
    people[who] = { id: account.id, email: account.email, session: account.session };
  }
  const unit = async (name: string, parent_id: string | null) =>
    (
      await call('POST', '/api/units', people.admin.session, {
        name: `${name} ${randomUUID().slice(0, 6)}`,
        parent_id,
      })
    ).body.id as string;
  const district = await unit('District', null);
  const station = await unit('Station', district);
  const other = await unit('Elsewhere', null);
  for (const [unitId, who, role] of [
    [station, 'investigator', 'investigator'],
    [station, 'supervisor', 'supervisor'],
    [district, 'districtSupervisor', 'supervisor'],
    [other, 'stranger', 'supervisor'],
  ] as const) {
    const res = await call('POST', `/api/units/${unitId}/members`, people.admin.session, {
      email: people[who].email,
      role,
    });
    expect(res.status).toBe(201);
  }
}, 120_000);
afterAll(() => t?.close());

describe('sampled review', () => {
  it("draws the admin's share into the supervisors' queue, takes one verdict, and shows it to the searcher", async () => {
    const share = await call('PATCH', '/api/admin/settings', people.admin.session, {
      review_share_percent: 100,
    });
    expect(share).toMatchObject({ status: 200, body: { review_share_percent: 100 } });
    const theirs: string[] = [];
    for (const number of ['919876500011', '919876500012']) {
      const res = await call('GET', `/api/tel?number=${number}`, people.investigator.session);
      expect(res.status).toBe(200);
      theirs.push(res.body.lookup_id);
    }
    const own = (await call('GET', '/api/tel?number=919876500013', people.supervisor.session)).body
      .lookup_id as string;
    expect((await sample()).sampled).toBeGreaterThanOrEqual(3);

    const queueOf = async (who: keyof typeof people) =>
      (
        (await call('GET', '/api/reviews', people[who].session)).body.data as Array<{ lookup_id: string }>
      ).map((r) => r.lookup_id);
    for (const who of ['supervisor', 'districtSupervisor'] as const) {
      const queue = await queueOf(who);
      expect(queue, who).toEqual(expect.arrayContaining(theirs));
    }
    expect(await queueOf('supervisor')).not.toContain(own);
    expect(await queueOf('stranger')).toEqual([]);
    expect(await queueOf('investigator')).not.toEqual(expect.arrayContaining(theirs));
    const item = (await call('GET', '/api/reviews', people.supervisor.session)).body.data.find(
      (r: { lookup_id: string }) => r.lookup_id === theirs[0],
    );
    expect(item).toMatchObject({ kind: 'tel', searcher: { id: people.investigator.id }, review: null });
    expect(item.sources_answered.length).toBeGreaterThan(0);

    const [first, second] = theirs as [string, string];
    const noNote = await call('POST', `/api/reviews/${first}`, people.supervisor.session, {
      verdict: 'questioned',
    });
    expect(noNote).toMatchObject({ status: 422, body: { errors: { note: [reviewsMessages.noteRequired] } } });
    expect(
      (await call('POST', `/api/reviews/${first}`, people.stranger.session, { verdict: 'in_order' })).status,
    ).toBe(404);
    expect(
      (await call('POST', `/api/reviews/${first}`, people.investigator.session, { verdict: 'in_order' }))
        .status,
    ).toBe(404);
    expect(
      (await call('POST', `/api/reviews/${own}`, people.supervisor.session, { verdict: 'in_order' })).status,
    ).toBe(404);
    const questioned = await call('POST', `/api/reviews/${first}`, people.supervisor.session, {
      verdict: 'questioned',
      note: 'Which case is this for?',
    });
    expect(questioned).toMatchObject({
      status: 200,
      body: {
        review: {
          verdict: 'questioned',
          note: 'Which case is this for?',
          reviewer: { id: people.supervisor.id },
        },
      },
    });
    const again = await call('POST', `/api/reviews/${first}`, people.districtSupervisor.session, {
      verdict: 'in_order',
    });
    expect(again).toMatchObject({ status: 409, body: { message: reviewsMessages.already } });
    expect(
      (
        await call('POST', `/api/reviews/${second}`, people.districtSupervisor.session, {
          verdict: 'in_order',
        })
      ).status,
    ).toBe(200);

    expect(await queueOf('supervisor')).not.toContain(first);
    const done = await call('GET', '/api/reviews?status=done', people.supervisor.session);
    expect(done.body.data.map((r: { lookup_id: string }) => r.lookup_id)).toEqual(
      expect.arrayContaining([first, second]),
    );
    const mine = await call('GET', '/api/reviews/mine', people.investigator.session);
    const verdicts = new Map(
      mine.body.data.map((r: { lookup_id: string; review: { verdict: string } | null }) => [
        r.lookup_id,
        r.review?.verdict,
      ]),
    );
    expect(verdicts.get(first)).toBe('questioned');
    expect(verdicts.get(second)).toBe('in_order');
    const audit = await t.db
      .select({ target: auditEvents.target })
      .from(auditEvents)
      .where(eq(auditEvents.action, 'review.decide'));
    expect(audit.map((row) => row.target)).toEqual(expect.arrayContaining([first, second]));
  });

  it('draws about the share set, the same searches whoever runs the draw, and none at 0 %', async () => {
    const at = new Date(Date.now() - 2 * HOUR);
    const rows = await t.db
      .insert(lookups)
      .values(
        Array.from({ length: 400 }, (_, i) => ({
          userId: people.investigator.id,
          kind: 'tel',
          query: `9198765${String(i).padStart(5, '0')}`,
          queryTyped: 'x',
          cost: 1,
          status: 'complete' as const,
          createdAt: at,
        })),
      )
      .returning({ id: lookups.id });
    const ids = rows.map((row) => row.id);
    const window = { now: new Date(at.getTime() + HOUR), from: new Date(at.getTime() - 1000) };
    expect(
      (await call('PATCH', '/api/admin/settings', people.admin.session, { review_share_percent: 0 })).status,
    ).toBe(200);
    expect((await sampleForReview(t.db, deploymentDefaults(t.config), window)).sampled).toBe(0);
    await call('PATCH', '/api/admin/settings', people.admin.session, { review_share_percent: 25 });
    const [drawn, twice] = await Promise.all([
      sampleForReview(t.db, deploymentDefaults(t.config), window),
      sampleForReview(t.db, deploymentDefaults(t.config), window),
    ]);
    const stored = await t.db
      .select({ id: reviewSamples.lookupId })
      .from(reviewSamples)
      .where(inArray(reviewSamples.lookupId, ids));
    // Two draws at once store each search once, and between them drew exactly what is stored.
    expect(drawn.sampled + twice.sampled).toBe(stored.length);
    expect(stored.length).toBeGreaterThan(60);
    expect(stored.length).toBeLessThan(140);
  });
});
