import { MAX_WATCHES_PER_USER } from '@footprint/domain';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { auditEvents, lookups, users, watches } from '../../src/db/schema.ts';
import { applyCreditChange } from '../../src/modules/credits/service.ts';
import { type Provider, SourceFailedError, SourceNotFoundError } from '../../src/providers/types.ts';
import { createTestApp, createUser, json, signIn, type TestApp } from '../support/app.ts';
import { addLeakRecords } from '../support/leaks.ts';

/**
 * What the test sources answer: tests change it between runs, as a source's data changes between
 * two days. Phone: a caller name; e-mail: the breaches of a HIBP-like source.
 */
const upstream = {
  callerName: 'Synthetic Person',
  breaches: ['Orbitly'] as string[],
  telDown: false,
};

const providers: Provider[] = [
  {
    id: 'test:wpData',
    source: 'wpData',
    kinds: ['tel'],
    sandbox: true,
    fetch: async (q) => {
      if (upstream.telDown) throw new SourceFailedError('down');
      return { pushname: upstream.callerName, number: q.value, isUser: true };
    },
  },
  {
    id: 'test:telData',
    source: 'telData',
    kinds: ['tel'],
    sandbox: true,
    fetch: async () => {
      if (upstream.telDown) throw new SourceFailedError('down');
      throw new SourceNotFoundError();
    },
  },
  {
    id: 'test:hibpData',
    source: 'hibpData',
    kinds: ['email'],
    sandbox: true,
    fetch: async () => upstream.breaches.map((name) => ({ Name: name, BreachDate: '2021-03-04' })),
  },
];

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ providers, env: { RATE_LIMIT_ENABLED: 'false' }, watchTickSeconds: 0 });
});
afterAll(() => t.close());
beforeEach(() => {
  upstream.callerName = 'Synthetic Person';
  upstream.breaches = ['Orbitly'];
  upstream.telDown = false;
});

async function liveUser(credits: number, extra: Parameters<typeof createUser>[1] = {}) {
  const user = await createUser(t.db, { credits, appMode: 'live', ...extra });
  const { token } = await signIn(t, user.email, user.password);
  return { user, token, auth: { authorization: `Bearer ${token}` } };
}

const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, token: string, body?: unknown) =>
  t.app.inject({
    method,
    url,
    ...(body === undefined
      ? { headers: { authorization: `Bearer ${token}` } }
      : json(body, undefined, token)),
  });

const balanceOf = async (userId: string) =>
  (await t.db.select({ credits: users.credits }).from(users).where(eq(users.id, userId)))[0]?.credits;

/** Mails to one address so far. */
const mailsTo = (email: string) => t.smtp.inbox.filter((mail) => mail.to.includes(email.toLowerCase()));

/** Makes the watch due now (as if its time had come), without waiting a day. */
const makeDue = (id: string) =>
  t.db
    .update(watches)
    .set({ nextRunAt: new Date(Date.now() - 1000) })
    .where(eq(watches.id, id));

describe('a watched phone number', () => {
  it('records a baseline, mails nothing when nothing changed, and mails the change exactly once', async () => {
    const { user, token } = await liveUser(10);
    const created = await call('POST', '/api/watches', token, {
      kind: 'tel',
      query: '919876543210',
      schedule: 'daily',
    });
    expect(created.statusCode).toBe(201);
    const watch = created.json();
    expect(watch).toMatchObject({ kind: 'tel', query: '919876543210', status: 'active', last_run_at: null });

    // First tick: the baseline. Charged like a lookup, no mail, no event.
    expect(await t.app.watchlists.runDue(new Date(Date.now() + 1000))).toBe(1);
    expect(await balanceOf(user.id)).toBe(9);
    expect(mailsTo(user.email).filter((m) => m.subject.includes('watchlist'))).toHaveLength(0);

    // Not due again until tomorrow.
    expect(await t.app.watchlists.runDue(new Date(Date.now() + 1000))).toBe(0);

    // Same answer again: charged (asked afresh, not from the cache), no change, no mail.
    await makeDue(watch.id);
    expect(await t.app.watchlists.runDue(new Date())).toBe(1);
    expect(await balanceOf(user.id)).toBe(8);
    let events = await call('GET', `/api/watches/${watch.id}/events`, token);
    expect(events.json().data).toHaveLength(0);

    // The source now names someone else: one event, one e-mail naming the change and the page.
    upstream.callerName = 'Other Synthetic';
    await makeDue(watch.id);
    const before = t.smtp.inbox.length;
    expect(await t.app.watchlists.runDue(new Date())).toBe(1);
    const mail = await t.smtp.waitFor((m) => m.to.includes(user.email) && m.subject.includes('watchlist'), {
      after: before,
    });
    expect(mail.text).toContain('Other Synthetic');
    expect(mail.text).toContain('http://footprint.test/watchlist');
    expect(mail.html).toContain('Other Synthetic');
    events = await call('GET', `/api/watches/${watch.id}/events`, token);
    const [event] = events.json().data;
    expect(event.changes.items).toEqual(
      expect.arrayContaining([
        { change: 'added', type: 'name', value: 'Other Synthetic' },
        { change: 'removed', type: 'name', value: 'Synthetic Person' },
      ]),
    );
    expect(event.emailed_at).not.toBeNull();
    expect(event.lookup_id).toBeTruthy();
    // Exactly one change mail in all.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(mailsTo(user.email).filter((m) => m.subject.includes('watchlist'))).toHaveLength(1);

    // Every run is a fresh paid search whose audit row names the watch.
    const audited = await t.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.userId, user.id), eq(auditEvents.action, 'lookup.tel')));
    expect(audited).toHaveLength(3);
    for (const row of audited) {
      expect(row.details).toMatchObject({ watch_id: watch.id, via: 'watch', cached: false, fresh: true });
      expect(row.cost).toBe(1);
    }

    const list = await call('GET', '/api/watches', token);
    expect(list.json().data[0]).toMatchObject({
      id: watch.id,
      changes_count: 1,
      last_lookup_id: event.lookup_id,
    });
  });

  it('takes a new baseline, reporting nothing, when the stored snapshot read its facts another way', async () => {
    const { user, token } = await liveUser(5);
    const watch = (
      await call('POST', '/api/watches', token, { kind: 'tel', query: '919812345670', schedule: 'daily' })
    ).json();
    expect((await call('POST', `/api/watches/${watch.id}/run`, token)).json().outcome).toBe('baseline');
    // A snapshot as stored before facts came from the analysis: no basis, and facts cut differently
    // (here a name the answer no longer gives): compared, it would be reported as a change.
    await t.db
      .update(watches)
      .set({
        lastSnapshot: {
          facts: [{ type: 'name', value: 'Older Reading', sources: ['wpData'] }],
          answered: ['wpData'],
        },
      })
      .where(eq(watches.id, watch.id));
    expect((await call('POST', `/api/watches/${watch.id}/run`, token)).json().outcome).toBe('baseline');
    expect((await call('GET', `/api/watches/${watch.id}/events`, token)).json().data).toHaveLength(0);
    // The new baseline is compared from then on.
    upstream.callerName = 'Changed Synthetic';
    expect((await call('POST', `/api/watches/${watch.id}/run`, token)).json().outcome).toBe('changed');
    expect(mailsTo(user.email).filter((m) => m.subject.includes('watchlist'))).toHaveLength(1);
  });

  it('does not count a run whose sources all failed: refunded, not compared, no mail', async () => {
    const { user, token } = await liveUser(5);
    const watch = (
      await call('POST', '/api/watches', token, { kind: 'tel', query: '919123456780', schedule: 'weekly' })
    ).json();
    expect((await call('POST', `/api/watches/${watch.id}/run`, token)).json().outcome).toBe('baseline');
    // A run by hand moves the schedule: the next run is a week after it, not at the next tick.
    const [after] = (await call('GET', '/api/watches', token)).json().data;
    expect(Date.parse(after.next_run_at)).toBeGreaterThan(Date.now() + 6 * 86_400_000);
    upstream.telDown = true;
    const run = await call('POST', `/api/watches/${watch.id}/run`, token);
    expect(run.statusCode).toBe(200);
    expect(run.json()).toMatchObject({ outcome: 'no_source', event: null });
    expect(await balanceOf(user.id)).toBe(4);
    upstream.telDown = false;
    expect((await call('POST', `/api/watches/${watch.id}/run`, token)).json().outcome).toBe('unchanged');
  });
});

describe('a watched e-mail address', () => {
  it('sees a new breach', async () => {
    const { user, token } = await liveUser(5);
    const watch = (
      await call('POST', '/api/watches', token, {
        kind: 'email',
        query: 'Watched.Person@Example.test',
        schedule: 'weekly',
      })
    ).json();
    expect(watch.query).toBe('watched.person@example.test');
    expect((await call('POST', `/api/watches/${watch.id}/run`, token)).json().outcome).toBe('baseline');
    upstream.breaches = ['Orbitly', 'Quillnest'];
    const run = (await call('POST', `/api/watches/${watch.id}/run`, token)).json();
    expect(run.outcome).toBe('changed');
    expect(run.event.changes.items).toEqual([
      { change: 'added', type: 'breach', value: 'Quillnest', label: 'Quillnest (2021-03-04)' },
    ]);
    const mail = await t.smtp.waitFor((m) => m.to.includes(user.email) && m.subject.includes('watchlist'));
    expect(mail.text).toContain('Quillnest');
  });
});

describe('a watched leak search', () => {
  it('runs through the leak search, audited as a watch run (found nothing: not charged)', async () => {
    const { user, token } = await liveUser(5);
    // The index holds a record (an empty one could not answer: 503), not of the watched name.
    await addLeakRecords(t.db, { name: 'Unwatched Breach' }, [{ name: 'Somebody Unwatched' }]);
    const watch = (
      await call('POST', '/api/watches', token, {
        kind: 'leak',
        query: [{ type: 'name', value: 'Nobody Watched' }],
        schedule: 'daily',
      })
    ).json();
    expect(watch.query_typed).toContain('Nobody Watched');
    expect((await call('POST', `/api/watches/${watch.id}/run`, token)).json().outcome).toBe('baseline');
    expect((await call('POST', `/api/watches/${watch.id}/run`, token)).json().outcome).toBe('unchanged');
    // Both runs found no record: refunded, as every "no record" is (README, "Credits").
    expect(await balanceOf(user.id)).toBe(5);
    const audited = await t.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.userId, user.id), eq(auditEvents.action, 'lookup.leak')));
    expect(audited).toHaveLength(2);
    expect(audited[0]?.details).toMatchObject({ watch_id: watch.id });
  });
});

describe('a watched leak search that finds a new record', () => {
  it('mails the new record and its breach, and lists them as an event', async () => {
    const { user, token } = await liveUser(5);
    await addLeakRecords(t.db, { name: 'Breach One', breachDate: '2020-02-02' }, [
      { name: 'Kavya Watchtest', email: 'kavya.one@example.test' },
    ]);
    const watch = (
      await call('POST', '/api/watches', token, {
        kind: 'leak',
        query: [{ type: 'name', value: 'kavya  WATCHTEST' }],
        schedule: 'weekly',
      })
    ).json();
    expect((await call('POST', `/api/watches/${watch.id}/run`, token)).json().outcome).toBe('baseline');
    const [added] = await addLeakRecords(t.db, { name: 'Breach Two', breachDate: '2024-04-04' }, [
      { name: 'Kavya Watchtest', email: 'kavya.two@example.test' },
    ]);
    const before = t.smtp.inbox.length;
    const run = (await call('POST', `/api/watches/${watch.id}/run`, token)).json();
    expect(run.outcome).toBe('changed');
    expect(run.event.changes).toEqual({
      items: [
        { change: 'added', type: 'email', value: 'kavya.two@example.test' },
        { change: 'added', type: 'breach', value: 'Breach Two', label: 'Breach Two (2024-04-04)' },
        { change: 'added', type: 'record', value: String(added), label: 'Breach Two (2024-04-04)' },
      ],
      total: { before: 1, after: 2 },
    });
    const mail = await t.smtp.waitFor((m) => m.to.includes(user.email) && m.subject.includes('watchlist'), {
      after: before,
    });
    expect(mail.text).toContain('Breach Two (2024-04-04)');
    expect(mail.text).toContain('Matching records: 1 → 2');
    // A duplicate of the same rows in another spelling is the same watch.
    const dup = await call('POST', '/api/watches', token, {
      kind: 'leak',
      query: [{ type: 'name', value: 'Watchtest Kavya' }],
      schedule: 'daily',
    });
    expect(dup.statusCode).toBe(409);
  });
});

describe('credits running out', () => {
  it('stops the watch with one e-mail, and it resumes after a top-up', async () => {
    const { user, token } = await liveUser(1);
    const watch = (
      await call('POST', '/api/watches', token, { kind: 'tel', query: '919811111111', schedule: 'daily' })
    ).json();
    expect(await t.app.watchlists.runDue(new Date(Date.now() + 1000))).toBeGreaterThanOrEqual(1);
    expect(await balanceOf(user.id)).toBe(0);

    await makeDue(watch.id);
    const before = t.smtp.inbox.length;
    await t.app.watchlists.runDue(new Date());
    await t.smtp.waitFor((m) => m.to.includes(user.email) && m.subject.includes('out of credits'), {
      after: before,
    });
    const stops = await t.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.target, watch.id), eq(auditEvents.action, 'watch.stopped_no_credits')));
    expect(stops).toHaveLength(1);
    let listed = (await call('GET', '/api/watches', token)).json().data[0];
    expect(listed.status).toBe('stopped_no_credits');

    // A stopped watch is not due; running it by hand does not mail again.
    await makeDue(watch.id);
    expect(await t.app.watchlists.runDue(new Date())).toBe(0);
    expect((await call('POST', `/api/watches/${watch.id}/run`, token)).json().outcome).toBe(
      'stopped_no_credits',
    );
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(mailsTo(user.email).filter((m) => m.subject.includes('out of credits'))).toHaveLength(1);

    // Top up, resume: due at once, and runs.
    await t.db.transaction((tx) =>
      applyCreditChange(tx, { userId: user.id, delta: 3, kind: 'grant', reason: 'top-up' }),
    );
    const resumed = await call('PATCH', `/api/watches/${watch.id}`, token, { status: 'active' });
    expect(resumed.statusCode).toBe(200);
    expect(resumed.json().status).toBe('active');
    listed = (await call('GET', '/api/watches', token)).json().data[0];
    expect(await t.app.watchlists.runDue(new Date(Date.now() + 1000))).toBeGreaterThanOrEqual(1);
    listed = (await call('GET', '/api/watches', token)).json().data[0];
    expect(listed.status).toBe('active');
  });
});

describe('two ticks at once', () => {
  it('run a due watch once', async () => {
    const { user, token } = await liveUser(10);
    const watch = (
      await call('POST', '/api/watches', token, { kind: 'tel', query: '919822222222', schedule: 'daily' })
    ).json();
    // Only this watch is due: the others of this file are pushed out of the way.
    await t.db
      .update(watches)
      .set({ nextRunAt: new Date(Date.now() + 30 * 86_400_000) })
      .where(sql`${watches.id} <> ${watch.id}`);
    await makeDue(watch.id);
    const at = new Date();
    const [a, b] = await Promise.all([t.app.watchlists.runDue(at), t.app.watchlists.runDue(at)]);
    expect(a + b).toBe(1);
    const runs = await t.db.select().from(lookups).where(eq(lookups.userId, user.id));
    expect(runs).toHaveLength(1);
    expect(await balanceOf(user.id)).toBe(9);
  });
});

describe('who may see and change a watch', () => {
  it("answers 404 for another user's watch and for ids that are not watches", async () => {
    const owner = await liveUser(5);
    const other = await liveUser(5);
    const watch = (
      await call('POST', '/api/watches', owner.token, {
        kind: 'tel',
        query: '919833333333',
        schedule: 'daily',
      })
    ).json();
    for (const [method, url, body] of [
      ['GET', `/api/watches/${watch.id}/events`, undefined],
      ['PATCH', `/api/watches/${watch.id}`, { status: 'paused' }],
      ['POST', `/api/watches/${watch.id}/run`, undefined],
      ['DELETE', `/api/watches/${watch.id}`, undefined],
      ['GET', '/api/watches/not-a-uuid/events', undefined],
    ] as const) {
      const res = await call(method, url, other.token, body);
      expect(res.statusCode, `${method} ${url}`).toBe(404);
      expect(res.json().message).toBe('Watch not found.');
    }
    expect((await call('GET', '/api/watches', other.token)).json().data).toEqual([]);
    expect(await balanceOf(owner.user.id)).toBe(5);
    // Still there for its owner, who may pause and delete it.
    expect(
      (
        await call('PATCH', `/api/watches/${watch.id}`, owner.token, { status: 'paused', schedule: 'weekly' })
      ).json(),
    ).toMatchObject({ status: 'paused', schedule: 'weekly' });
    expect((await call('DELETE', `/api/watches/${watch.id}`, owner.token)).statusCode).toBe(204);
    expect((await call('GET', '/api/watches', owner.token)).json().data).toEqual([]);
    // Each change is in the owner's audit trail; the other user's attempts changed nothing.
    const trail = await t.db
      .select({ action: auditEvents.action, details: auditEvents.details })
      .from(auditEvents)
      .where(and(eq(auditEvents.target, watch.id)));
    expect(trail.map((row) => row.action)).toEqual(['watch.create', 'watch.update', 'watch.delete']);
    expect(trail[1]?.details).toMatchObject({
      status: 'paused',
      status_before: 'active',
      schedule_before: 'daily',
    });
  });

  it('is for live accounts only', async () => {
    const trial = await createUser(t.db, { credits: 5, appMode: 'trial' });
    const { token } = await signIn(t, trial.email, trial.password);
    const res = await call('POST', '/api/watches', token, {
      kind: 'tel',
      query: '919876543210',
      schedule: 'daily',
    });
    expect(res.statusCode).toBe(403);
    expect((await call('GET', '/api/watches', token)).statusCode).toBe(403);
  });
});

describe('bad input', () => {
  it('is refused with a clear 4xx and changes nothing', async () => {
    const { user, token } = await liveUser(5);
    const cases: Array<[unknown, number, string]> = [
      [{ kind: 'tel', query: '12345', schedule: 'daily' }, 422, 'phone'],
      [{ kind: 'email', query: 'not-an-email', schedule: 'daily' }, 422, 'email'],
      [{ kind: 'leak', query: [{ type: 'name', value: 'R2D2' }], schedule: 'daily' }, 422, 'name'],
      [{ kind: 'rc', query: 'MH12FP1234', schedule: 'daily' }, 422, 'tel, email, username or leak'],
      [{ kind: 'tel', query: '919876543210', schedule: 'hourly' }, 422, 'daily or weekly'],
      [{ kind: 'tel', query: '9198765\u000043210', schedule: 'daily' }, 400, ''],
      [{ kind: 'email', query: `${'a'.repeat(100_000)}@example.test`, schedule: 'daily' }, 422, 'email'],
      [{ kind: 'tel', query: '919876543210', schedule: 'daily', extra: 1 }, 422, ''],
      [{ kind: 'tel', query: '919876543210', schedule: 'daily', case_reference: 'x'.repeat(500) }, 422, ''],
    ];
    for (const [body, status, words] of cases) {
      const res = await call('POST', '/api/watches', token, body);
      expect(res.statusCode, `${JSON.stringify(body).slice(0, 80)}: ${res.body.slice(0, 200)}`).toBe(status);
      expect(res.json().message.toLowerCase()).toContain(words.toLowerCase());
    }
    const created = await call('POST', '/api/watches', token, {
      kind: 'tel',
      query: '919844444444',
      schedule: 'daily',
    });
    expect(created.statusCode).toBe(201);
    const dup = await call('POST', '/api/watches', token, {
      kind: 'tel',
      query: '919844444444',
      schedule: 'weekly',
    });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().message).toBe('This query is already watched.');
    const patch = await call('PATCH', `/api/watches/${created.json().id}`, token, {});
    expect(patch.statusCode).toBe(422);
    const badStatus = await call('PATCH', `/api/watches/${created.json().id}`, token, {
      status: 'stopped_no_credits',
    });
    expect(badStatus.statusCode).toBe(422);
    expect((await call('GET', '/api/watches', token)).json().data).toHaveLength(1);
    expect(await balanceOf(user.id)).toBe(5);
  });

  it(`refuses more than ${MAX_WATCHES_PER_USER} watches with a 422`, async () => {
    const { user, token } = await liveUser(5);
    await t.db.insert(watches).values(
      Array.from({ length: MAX_WATCHES_PER_USER }, (_, i) => ({
        userId: user.id,
        kind: 'email' as const,
        query: `w${i}@example.test`,
        queryTyped: `w${i}@example.test`,
        schedule: 'weekly' as const,
        status: 'paused' as const,
        nextRunAt: new Date(Date.now() + 86_400_000),
      })),
    );
    const res = await call('POST', '/api/watches', token, {
      kind: 'tel',
      query: '919855555555',
      schedule: 'daily',
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toContain(String(MAX_WATCHES_PER_USER));
  });
});
