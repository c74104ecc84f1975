// Answers keep their time: every lookup answer says when its sources answered; a free repeat within
// the cache window says the time of the paid lookup it replays and names it with its case reference;
// `fresh` asks the sources again and charges; the PDFs of a reuse print the original's time.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents, lookups } from '../../src/db/schema.ts';
import { findLedgerMismatches } from '../../src/modules/credits/service.ts';
import { createTestApp, createUser, signIn, type TestApp } from '../support/app.ts';
import { pdfText } from '../support/pdf.ts';

let t: TestApp;

beforeAll(async () => {
  // A price of 2 for phone lookups, so that /api/sources is seen to tell the configured price.
  t = await createTestApp({ env: { RATE_LIMIT_ENABLED: 'false', REPORT_THREADS: '1', COST_TEL: '2' } });
});
afterAll(() => t.close());

async function investigator(credits = 20) {
  const user = await createUser(t.db, { credits, appMode: 'live' });
  const { token } = await signIn(t, user.email, user.password);
  return { user, headers: { authorization: `Bearer ${token}` } };
}

const get = (url: string, headers: Record<string, string>) => t.app.inject({ method: 'GET', url, headers });
const post = (url: string, payload: object, headers: Record<string, string>) =>
  t.app.inject({ method: 'POST', url, payload, headers });

/** Moves a paid lookup back in time: begun and answered at `at` (inside the cache window). */
const answeredEarlier = (id: string, at: Date) =>
  t.db.update(lookups).set({ createdAt: at, completedAt: at }).where(eq(lookups.id, id));

/** A fixed moment two hours ago, at 7 seconds past a minute, so that its printed form is its own. */
const twoHoursAgo = () => {
  const at = new Date(Date.now() - 2 * 3_600_000);
  at.setUTCSeconds(7, 0);
  return at;
};

const MONTHS = 'January February March April May June July August September October November December'.split(
  ' ',
);
/** How the reports print a time: '1 October 2026, 06:30:07 UTC'. */
const printed = (at: Date) =>
  `${at.getUTCDate()} ${MONTHS[at.getUTCMonth()]} ${at.getUTCFullYear()}, ${String(at.getUTCHours()).padStart(2, '0')}:${String(
    at.getUTCMinutes(),
  ).padStart(2, '0')}:${String(at.getUTCSeconds()).padStart(2, '0')} UTC`;

/** The text of a PDF with its layout's runs of spaces and line breaks made single spaces. */
const flat = (text: string) => text.replace(/\s+/g, ' ');

describe('when an answer was given', () => {
  it('a paid lookup answers the time its sources answered, stored as its completion, and no reuse', async () => {
    const { headers } = await investigator();
    const before = Date.now();
    const res = await get('/api/tel?number=919811100001&case_reference=CASE-A', headers);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ cached: false, reused_from: null });
    const answered = new Date(body.answered_at).getTime();
    expect(answered).toBeGreaterThanOrEqual(before);
    expect(answered).toBeLessThanOrEqual(Date.now());
    const [row] = await t.db.select().from(lookups).where(eq(lookups.id, body.lookup_id));
    expect(row!.completedAt?.toISOString()).toBe(body.answered_at);
  });

  it('a reuse answers the original time and names the paid lookup with its case reference', async () => {
    const { headers } = await investigator();
    const paid = (await get('/api/tel?number=919811100002&case_reference=CASE-ORIGINAL', headers)).json();
    const earlier = twoHoursAgo();
    await answeredEarlier(paid.lookup_id, earlier);

    const res = await get('/api/tel?number=919811100002&case_reference=CASE-LATER', headers);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      cached: true,
      credits: paid.credits,
      answered_at: earlier.toISOString(),
      reused_from: { lookup_id: paid.lookup_id, case_reference: 'CASE-ORIGINAL' },
    });
    expect(res.json().lookup_id).not.toBe(paid.lookup_id);
  });

  it('an e-mail and a detail reuse say the same', async () => {
    const { headers } = await investigator();
    const email = (await get('/api/email?email=time.demo%40example.test', headers)).json();
    const again = (await get('/api/email?email=time.demo%40example.test', headers)).json();
    expect(again).toMatchObject({
      cached: true,
      answered_at: email.answered_at,
      reused_from: { lookup_id: email.lookup_id, case_reference: null },
    });

    const rc = (
      await post('/api/rcfull-details', { id_number: 'MH12TM0001', case_reference: 'RC-1' }, headers)
    ).json();
    expect(rc).toMatchObject({ cached: false, reused_from: null, answered_at: expect.any(String) });
    const rcAgain = (await post('/api/rcfull-details', { id_number: 'mh12tm0001' }, headers)).json();
    expect(rcAgain).toMatchObject({
      cached: true,
      answered_at: rc.answered_at,
      reused_from: { lookup_id: rc.lookup_id, case_reference: 'RC-1' },
    });
  });

  it('history reopens a lookup and its reuse with the same time and reuse', async () => {
    const { headers } = await investigator();
    const paid = (await get('/api/tel?number=919811100003&case_reference=CASE-H', headers)).json();
    const earlier = twoHoursAgo();
    await answeredEarlier(paid.lookup_id, earlier);
    const repeat = (await get('/api/tel?number=919811100003', headers)).json();

    const reopenedPaid = (await get(`/api/history/${paid.lookup_id}`, headers)).json();
    expect(reopenedPaid.result).toMatchObject({ answered_at: earlier.toISOString(), reused_from: null });
    const reopened = (await get(`/api/history/${repeat.lookup_id}`, headers)).json();
    expect(reopened.result).toMatchObject({
      answered_at: earlier.toISOString(),
      reused_from: { lookup_id: paid.lookup_id, case_reference: 'CASE-H' },
    });
  });
});

describe('a fresh answer on request', () => {
  it('fresh=1 asks the sources again, charges, and answers a new time; the next repeat reuses it', async () => {
    const { user, headers } = await investigator(10);
    const paid = (await get('/api/tel?number=919811100004', headers)).json();
    expect(paid.credits).toBe(8);
    const earlier = twoHoursAgo();
    await answeredEarlier(paid.lookup_id, earlier);

    const fresh = await get('/api/tel?number=919811100004&fresh=1', headers);
    expect(fresh.statusCode, fresh.body).toBe(200);
    expect(fresh.json()).toMatchObject({ cached: false, credits: 6, reused_from: null });
    expect(new Date(fresh.json().answered_at).getTime()).toBeGreaterThan(earlier.getTime() + 3_600_000);
    const [row] = await t.db.select().from(lookups).where(eq(lookups.id, fresh.json().lookup_id));
    expect(row).toMatchObject({ cost: 2, cacheOf: null, status: 'complete' });
    const [audit] = await t.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.target, '919811100004'))
      .orderBy(auditEvents.id)
      .offset(1);
    expect(audit!.details).toMatchObject({ fresh: true, cached: false, lookup_id: fresh.json().lookup_id });

    // `fresh=0` is the default: reused, from the newest paid lookup, the fresh one.
    const repeat = (await get('/api/tel?number=919811100004&fresh=0', headers)).json();
    expect(repeat).toMatchObject({
      cached: true,
      credits: 6,
      answered_at: fresh.json().answered_at,
      reused_from: { lookup_id: fresh.json().lookup_id },
    });
    expect(await findLedgerMismatches(t.db)).toEqual([]);
    const rows = await t.db.select().from(lookups).where(eq(lookups.userId, user.id));
    expect(rows.map((r) => r.cost).sort()).toEqual([0, 2, 2]);
  });

  it('fresh: true in a detail body and fresh=true on e-mail charge again', async () => {
    const { headers } = await investigator(10);
    const upi = (await post('/api/upifull-details', { upi_id: 'fresh@oksbi' }, headers)).json();
    const again = (
      await post('/api/upifull-details', { upi_id: 'fresh@oksbi', fresh: true }, headers)
    ).json();
    expect(again).toMatchObject({ cached: false, credits: upi.credits - 1, reused_from: null });
    expect(again.lookup_id).not.toBe(upi.lookup_id);

    const email = (await get('/api/email?email=fresh.demo%40example.test', headers)).json();
    const freshEmail = (await get('/api/email?email=fresh.demo%40example.test&fresh=true', headers)).json();
    expect(freshEmail).toMatchObject({ cached: false, credits: email.credits - 1, reused_from: null });
  });

  it('refuses a malformed fresh flag with a 422, charging and writing nothing', async () => {
    const { user, headers } = await investigator(10);
    for (const url of [
      '/api/tel?number=919811100005&fresh=yes',
      '/api/tel?number=919811100005&fresh=1&fresh=1',
      '/api/email?email=a%40example.test&fresh=2',
    ]) {
      const res = await get(url, headers);
      expect(res.statusCode, url).toBe(422);
      expect(res.json().errors.fresh, url).toEqual(['The fresh field must be 1 or 0.']);
    }
    const body = await post('/api/rcfull-details', { id_number: 'MH12TM0002', fresh: 'yes' }, headers);
    expect(body.statusCode).toBe(422);
    expect(body.json().errors.fresh).toEqual(['The fresh field must be true or false.']);
    expect(await t.db.select().from(lookups).where(eq(lookups.userId, user.id))).toEqual([]);
    expect((await get('/api/user', headers)).json().credits).toBe(10);
  });

  it('GET /api/sources tells each kind its price', async () => {
    const { headers } = await investigator();
    const kinds = (await get('/api/sources', headers)).json().kinds;
    expect(kinds.tel.price).toBe(2);
    expect(kinds.email.price).toBe(1);
    expect(kinds.rc.price).toBe(1);
    expect(kinds['corporate:credit_report'].price).toBe(5);
    // Every paid kind's price, the leak search's included (it has no provider, so no entry in `kinds`).
    const { prices } = (await get('/api/sources', headers)).json();
    expect(prices).toMatchObject({ tel: 2, email: 1, leak: 1, 'corporate:credit_report': 5 });
  });
});

describe('the PDFs of a reuse', () => {
  it('print when the sources answered, that it was reused and from what, and both case references', async () => {
    const { headers } = await investigator();
    const paid = (await get('/api/tel?number=919811100006&case_reference=CASE-FIRST', headers)).json();
    const earlier = twoHoursAgo();
    await answeredEarlier(paid.lookup_id, earlier);
    const repeat = (await get('/api/tel?number=919811100006&case_reference=CASE-SECOND', headers)).json();
    expect(repeat.cached).toBe(true);
    const [repeatRow] = await t.db.select().from(lookups).where(eq(lookups.id, repeat.lookup_id));

    for (const url of ['/api/generate-report', '/api/generate-ai-report']) {
      const res = await post(url, { userInput: '9811100006', type: 'tel', results: repeat }, headers);
      expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
      const text = flat(await pdfText(res.rawPayload));
      expect(text, url).toContain(`Reused from lookup ${paid.lookup_id} of ${printed(earlier)}`);
      expect(text, url).toContain('Sources answered at');
      expect(text, url).toContain(earlier.toISOString());
      // The repeat's own time is when it was served again, never the answer's time.
      expect(text, url).toContain(`run on ${printed(repeatRow!.createdAt)}`);
      expect(text, url).toContain('CASE-FIRST');
      expect(text, url).toContain('Case reference of this reuse');
      expect(text, url).toContain('CASE-SECOND');
      expect(text, url).toContain(repeat.lookup_id);
    }
  });

  it('a paid lookup prints its own time and no reuse', async () => {
    const { headers } = await investigator();
    const paid = (await get('/api/tel?number=919811100007&case_reference=CASE-ONLY', headers)).json();
    const earlier = twoHoursAgo();
    await answeredEarlier(paid.lookup_id, earlier);
    const res = await post(
      '/api/generate-report',
      { userInput: '9811100007', type: 'tel', results: paid },
      headers,
    );
    const text = flat(await pdfText(res.rawPayload));
    expect(text).toContain(earlier.toISOString());
    expect(text).toContain('CASE-ONLY');
    expect(text).not.toContain('Reused');
    expect(text).not.toContain('Case reference of this reuse');
  });

  it('a detail report of a reuse prints the original time, the reuse and its case reference', async () => {
    const { headers } = await investigator();
    const rc = (
      await post('/api/rcfull-details', { id_number: 'MH12TM0003', case_reference: 'RC-CASE' }, headers)
    ).json();
    const earlier = twoHoursAgo();
    await answeredEarlier(rc.lookup_id, earlier);
    const again = (
      await post('/api/rcfull-details', { id_number: 'MH12TM0003', case_reference: 'RC-CASE' }, headers)
    ).json();
    expect(again.cached).toBe(true);
    const res = await post('/api/generate-rc-report', { data: again.data.data }, headers);
    expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
    const text = flat(await pdfText(res.rawPayload));
    expect(text).toContain(`Reused from lookup ${rc.lookup_id} of ${printed(earlier)}`);
    expect(text).toContain(`Retrieved on ${printed(earlier)}`);
    expect(text).toContain('RC-CASE');
    // The same case reference both times: printed once, no second fact for the reuse.
    expect(text).not.toContain('Case reference of this reuse');
  });
});
