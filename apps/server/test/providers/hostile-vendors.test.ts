import type { ServerResponse } from 'node:http';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lookups } from '../../src/db/schema.ts';
import { gravatarFake } from '../fakes/gravatar.ts';
import { HIBP_FAKE_KEY, hibpFake } from '../fakes/hibp.ts';
import { createTestApp, createUser, signIn, type TestApp } from '../support/app.ts';
import { type RecordedRequest, sendJson, startFakeUpstream } from '../support/upstream.ts';

type Answer = (res: ServerResponse) => void;

/** What a hostile or broken vendor may send instead of its documented answer. */
const hostile: Record<string, Answer> = {
  'an HTML page': (res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end('<html><body>Gateway login</body></html>');
  },
  'a 50 MB body': (res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    const chunk = Buffer.alloc(1024 * 1024, 0x20);
    let sent = 0;
    const more = () => {
      while (sent < 50) {
        sent += 1;
        if (!res.write(chunk)) return void res.once('drain', more);
      }
      res.end();
    };
    res.on('error', () => {});
    more();
  },
  'a JSON bomb': (res) => sendJson(res, 200, `${'['.repeat(200_000)}${']'.repeat(200_000)}`),
  'a field of the wrong type': (res) =>
    sendJson(res, 200, { hash: 'x', display_name: { $gt: '' }, profile_url: 42, verified_accounts: 'all' }),
  'a 200 with an error envelope': (res) => sendJson(res, 200, { error: 'Internal error', code: 'oops' }),
  'a redirect to another host': (res) => {
    res.writeHead(302, { location: 'http://203.0.113.9/profiles/x' });
    res.end();
  },
};

describe('hostile vendor answers reach no user', () => {
  let t: TestApp;
  let auth: Record<string, string>;
  let gravatar: Awaited<ReturnType<typeof startFakeUpstream>>;
  let hibp: Awaited<ReturnType<typeof startFakeUpstream>>;
  let answer: Answer | undefined;
  const normal = gravatarFake();

  beforeAll(async () => {
    gravatar = await startFakeUpstream((req: RecordedRequest, res) =>
      answer ? answer(res) : normal(req, res),
    );
    hibp = await startFakeUpstream(hibpFake());
    t = await createTestApp({
      env: {
        SANDBOX: 'false',
        RATE_LIMIT_ENABLED: 'false',
        LOOKUP_CACHE_HOURS: '0',
        // Every hostile answer is a failure; the breaker must not hide the recovery below.
        BREAKER_FAILURES: '100',
        GRAVATAR_API_KEY: 'gravatar-fake-key',
        GRAVATAR_BASE_URL: `${gravatar.url}/v3`,
        HIBP_API_KEY: HIBP_FAKE_KEY,
        HIBP_BASE_URL: `${hibp.url}/api/v3`,
      },
    });
    const user = await createUser(t.db, { credits: 100, appMode: 'live' });
    const { token } = await signIn(t, user.email, user.password);
    auth = { authorization: `Bearer ${token}` };
  });
  afterAll(async () => {
    await t.close();
    await gravatar.close();
    await hibp.close();
  });

  it.each(Object.keys(hostile))(
    '%s: that source failed, the others answer, nothing of it is stored',
    async (name) => {
      answer = hostile[name];
      const res = await t.app.inject({
        method: 'GET',
        url: '/api/email?email=rich.demo%40example.test',
        headers: auth,
      });
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(body.data).not.toHaveProperty('zehefData');
      expect(body.source_status.zehefData).toMatchObject({
        status: 'failed',
        mode: 'live',
        vendor: 'Gravatar',
      });
      expect(body.source_status.hibpData.status).toMatch(/^(ok|not_found)$/);
      const [row] = await t.db.select().from(lookups).where(eq(lookups.id, body.lookup_id));
      const stored = JSON.stringify(row?.result);
      expect(stored).not.toContain('Gateway login');
      expect(stored).not.toContain('$gt');
      expect(stored).not.toContain('Internal error');
      expect(stored.length).toBeLessThan(200_000);
    },
  );

  it('the same vendor answering normally fills its source again', async () => {
    answer = undefined;
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/email?email=rich.demo%40example.test',
      headers: auth,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().source_status.zehefData.status).toBe('ok');
    expect(res.json().data.zehefData).toBeTruthy();
  });
});
