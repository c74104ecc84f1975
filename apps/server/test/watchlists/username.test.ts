// A watched username, on the sandbox's site check: the name checked as GET /api/username checks it,
// each run a fresh paid username lookup charged like one, compared by the accounts the sites found.
import { messages, siteSourceOf } from '@footprint/domain';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents, lookups, users, watches } from '../../src/db/schema.ts';
import { USERNAME_DEMO } from '../../src/sandbox/providers/username.ts';
import { createTestApp, createUser, json, signIn, type TestApp } from '../support/app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ env: { RATE_LIMIT_ENABLED: 'false' }, watchTickSeconds: 0 });
});
afterAll(() => t.close());

async function liveUser(credits: number, role: 'user' | 'admin' = 'user') {
  const user = await createUser(t.db, { credits, appMode: 'live', role });
  const { token } = await signIn(t, user.email, user.password);
  return { user, token };
}

const call = (method: 'GET' | 'POST' | 'PATCH', url: string, token: string, body?: unknown) =>
  t.app.inject({
    method,
    url,
    ...(body === undefined
      ? { headers: { authorization: `Bearer ${token}` } }
      : json(body, undefined, token)),
  });

const balanceOf = async (userId: string) =>
  (await t.db.select({ credits: users.credits }).from(users).where(eq(users.id, userId)))[0]?.credits;

type Fact = { type: string; value: string; label?: string; sources: string[] };
const snapshotOf = async (id: string) =>
  (await t.db.select().from(watches).where(eq(watches.id, id)))[0]?.lastSnapshot as {
    facts: Fact[];
    answered: string[];
    basis?: string;
  };

describe('a watched username', () => {
  it('refuses a name that is not one with the lookup message, and makes nothing', async () => {
    const { user, token } = await liveUser(5);
    for (const query of ['', '@', 'two words', 'a/b', 'x'.repeat(65), 'tab\there']) {
      const res = await call('POST', '/api/watches', token, { kind: 'username', query, schedule: 'daily' });
      expect(res.statusCode, `${JSON.stringify(query)}: ${res.body.slice(0, 200)}`).toBe(422);
      expect(res.json().message).toBe(messages.search.invalidUsername);
    }
    expect((await call('GET', '/api/watches', token)).json().data).toEqual([]);
    expect(await t.db.select().from(watches).where(eq(watches.userId, user.id))).toEqual([]);
    expect(await balanceOf(user.id)).toBe(5);
  });

  it('runs through the paid username lookup: a baseline, then unchanged, each charged like the lookup', async () => {
    const { user, token } = await liveUser(20);
    // What one fresh lookup of the name costs this account.
    const lookup = await call('GET', `/api/username?username=${USERNAME_DEMO.rich}&fresh=1`, token);
    expect(lookup.statusCode, lookup.body).toBe(200);
    const price = 20 - lookup.json().credits;
    expect(price).toBeGreaterThan(0);
    const found = (
      lookup.json().sitesData.sites as Array<{ site: string; state: string; name: string }>
    ).filter((site) => site.state === 'found');
    expect(found.length).toBeGreaterThan(5);

    // A leading '@' is dropped as the lookup drops it.
    const created = await call('POST', '/api/watches', token, {
      kind: 'username',
      query: `@${USERNAME_DEMO.rich}`,
      schedule: 'daily',
    });
    expect(created.statusCode, created.body).toBe(201);
    const watch = created.json();
    expect(watch).toMatchObject({
      kind: 'username',
      query: USERNAME_DEMO.rich,
      query_typed: USERNAME_DEMO.rich,
      status: 'active',
      last_run_at: null,
    });
    const dup = await call('POST', '/api/watches', token, {
      kind: 'username',
      query: USERNAME_DEMO.rich,
      schedule: 'weekly',
    });
    expect(dup.statusCode).toBe(409);

    const first = await call('POST', `/api/watches/${watch.id}/run`, token);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toMatchObject({ outcome: 'baseline', event: null });
    expect(await balanceOf(user.id)).toBe(20 - 2 * price);
    // The baseline holds one account per site that found the name, named by the site.
    const baseline = await snapshotOf(watch.id);
    expect(baseline.basis).toBe('sites-1');
    expect(baseline.facts.map((fact) => fact.value).sort()).toEqual(found.map((site) => site.site).sort());
    const one = found[0]!;
    expect(baseline.facts).toContainEqual({
      type: 'account',
      value: one.site,
      label: one.name,
      sources: [siteSourceOf(one.site)],
    });

    const second = await call('POST', `/api/watches/${watch.id}/run`, token);
    expect(second.json()).toMatchObject({ outcome: 'unchanged', event: null });
    expect(await balanceOf(user.id)).toBe(20 - 3 * price);
    expect((await call('GET', `/api/watches/${watch.id}/events`, token)).json().data).toEqual([]);

    // Both runs were fresh username lookups, audited with the watch's id and charged the price.
    const audited = await t.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.userId, user.id), eq(auditEvents.action, 'lookup.username')));
    const runs = audited.filter((row) => (row.details as { watch_id?: string }).watch_id === watch.id);
    expect(runs).toHaveLength(2);
    for (const row of runs) {
      expect(row.details).toMatchObject({ via: 'watch', fresh: true, cached: false });
      expect(row.cost).toBe(price);
    }
    const stored = await t.db.select().from(lookups).where(eq(lookups.userId, user.id));
    expect(stored.filter((row) => row.kind === 'username')).toHaveLength(3);
  });

  it('mails a new account by its site name, and lists it as an event', async () => {
    const { user, token } = await liveUser(20);
    const watch = (
      await call('POST', '/api/watches', token, {
        kind: 'username',
        query: USERNAME_DEMO.rich,
        schedule: 'weekly',
      })
    ).json();
    expect((await call('POST', `/api/watches/${watch.id}/run`, token)).json().outcome).toBe('baseline');
    // As if one site had said no last time: this run finds the account there, new.
    const baseline = await snapshotOf(watch.id);
    const [gone, ...rest] = baseline.facts;
    await t.db
      .update(watches)
      .set({ lastSnapshot: { ...baseline, facts: rest } })
      .where(eq(watches.id, watch.id));
    const before = t.smtp.inbox.length;
    const run = (await call('POST', `/api/watches/${watch.id}/run`, token)).json();
    expect(run.outcome).toBe('changed');
    expect(run.event).toMatchObject({ kind: 'username' });
    expect(run.event.changes.items).toEqual([
      { change: 'added', type: 'account', value: gone!.value, label: gone!.label },
    ]);
    const mail = await t.smtp.waitFor((m) => m.to.includes(user.email) && m.subject.includes('watchlist'), {
      after: before,
    });
    expect(mail.subject).toContain(`Username ${USERNAME_DEMO.rich}`);
    expect(mail.text).toContain(messages.watchlist.accountAdded(gone!.label!));
    const events = (await call('GET', `/api/watches/${watch.id}/events`, token)).json().data;
    expect(events).toHaveLength(1);
    expect(events[0].changes.items[0]).toMatchObject({ type: 'account', label: gone!.label });
  });

  it('is refused when username searches wait for approval', async () => {
    const admin = await liveUser(0, 'admin');
    const { token } = await liveUser(5);
    const settings = (approval_kinds: string[]) =>
      call('PATCH', '/api/admin/settings', admin.token, { approval_kinds });
    const before = await call('GET', '/api/admin/settings', admin.token);
    expect(before.statusCode, before.body).toBe(200);
    expect((await settings(['username'])).statusCode).toBe(200);
    try {
      const refused = await call('POST', '/api/watches', token, {
        kind: 'username',
        query: USERNAME_DEMO.none,
        schedule: 'daily',
      });
      expect(refused.statusCode).toBe(422);
      expect(refused.json().message).toBe(messages.watchlist.needsApproval('Username'));
      expect((await call('GET', '/api/watches', token)).json().data).toEqual([]);
    } finally {
      await settings(before.json().approval_kinds);
    }
  });
});
