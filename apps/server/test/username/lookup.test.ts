// The username lookup through its route, on the sandbox's site check: charged, stored, audited,
// reused free, refused with the spec's message when the name is not one, refunded when found nowhere.
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents, lookups } from '../../src/db/schema.ts';
import { loadCatalogue } from '../../src/providers/sites/catalogue.ts';
import { createTestApp, createUser, signIn, type TestApp } from '../support/app.ts';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ env: { RATE_LIMIT_ENABLED: 'false' } });
});
afterAll(() => t.close());

async function investigator(credits = 20) {
  const user = await createUser(t.db, { credits, appMode: 'trial' });
  const { token } = await signIn(t, user.email, user.password);
  return { user, headers: { authorization: `Bearer ${token}` } };
}

const get = (url: string, headers: Record<string, string>) => t.app.inject({ method: 'GET', url, headers });

describe('GET /api/username', () => {
  it('answers every site of the catalogue in one state, found ones with their evidence, and charges', async () => {
    const { user, headers } = await investigator(5);
    const res = await get('/api/username?username=%40rohand90&case_reference=CASE-U1', headers);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.credits).toBe(4);
    expect(body.sandbox).toBe(true);
    expect(body.source_status.sitesData).toMatchObject({ status: 'ok', mode: 'sandbox' });
    const answer = body.sitesData;
    expect(answer.username).toBe('rohand90');
    const total = loadCatalogue().sites.length;
    expect(answer.catalogue).toEqual({ sites: total, scope: total });
    const counted = Object.values(answer.counts as Record<string, number>).reduce((a, b) => a + b, 0);
    expect(counted).toBe(total);
    expect(answer.sites.length + answer.not_found.length).toBe(total);
    const found = answer.sites.filter((site: { state: string }) => site.state === 'found');
    expect(found.length).toBe(answer.counts.found);
    expect(found.length).toBeGreaterThan(20);
    for (const site of found) {
      expect(site.url).toContain('rohand90');
      expect(site.evidence).toMatchObject({ status: 200, final_url: site.url });
      expect(site.evidence.sha256).toMatch(/^[0-9a-f]{64}$/);
    }
    // Found first, then blocked, error, not checked; each of the others says why.
    const order = answer.sites.map((site: { state: string }) => site.state);
    expect(order).toEqual(
      [...order].sort(
        (a: string, b: string) =>
          ['found', 'blocked', 'error', 'not_checked'].indexOf(a) -
          ['found', 'blocked', 'error', 'not_checked'].indexOf(b),
      ),
    );
    for (const site of answer.sites.filter((s: { state: string }) => s.state !== 'found')) {
      expect(site.reason, site.site).toBeTruthy();
    }
    const [row] = await t.db.select().from(lookups).where(eq(lookups.id, body.lookup_id));
    expect(row).toMatchObject({
      kind: 'username',
      query: 'rohand90',
      userId: user.id,
      caseReference: 'CASE-U1',
    });
    const audited = await t.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.userId, user.id), eq(auditEvents.action, 'lookup.username')));
    expect(audited.map((event) => [event.outcome, event.target])).toEqual([['success', 'rohand90']]);

    // The same name again within the cache window: the stored answer, free.
    const again = await get('/api/username?username=rohand90', headers);
    expect(again.json()).toMatchObject({ cached: true, credits: 4 });
    expect(again.json().sitesData.counts).toEqual(answer.counts);
  });

  it('a name found nowhere is answered whole and not charged', async () => {
    const { headers } = await investigator(5);
    const res = await get('/api/username?username=nobody.demo', headers);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.sitesData.counts.found).toBe(0);
    expect(body.sitesData.not_found.length).toBeGreaterThan(1000);
    expect(body.source_status.sitesData.status).toBe('not_found');
    expect(body.source_status.sitesData.message).toMatch(/^No account found: \d+ of the \d+ sites asked/);
    expect(body.credits).toBe(5);
  });

  it.each([
    ['', 'empty'],
    ['two words', 'a space'],
    ['a/b', 'a slash'],
    ['x'.repeat(65), 'too long'],
    ['ab%00c', 'a control character'],
  ])('refuses %j (%s) with the message and charges nothing', async (name) => {
    const { headers } = await investigator(5);
    const res = await get(`/api/username?username=${encodeURIComponent(name)}`, headers);
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json().message).toBe(
      'Please enter a valid username: 1 to 64 letters, digits, dots, hyphens or underscores, without spaces.',
    );
    const me = await get('/api/user', headers);
    expect(me.json().credits ?? me.json().user?.credits).toBe(5);
  });
});
