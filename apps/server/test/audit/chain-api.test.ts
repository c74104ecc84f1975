// GET /api/admin/audit/chain: the admin screen's view of the hash chain, verified a step at a time.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GENESIS_HASH } from '../../src/modules/audit/chain.ts';
import { createChainMonitor } from '../../src/modules/audit/monitor.ts';
import { recordAudit } from '../../src/modules/audit/service.ts';
import { createTestApp, createUser, newDeviceId, signIn, type TestApp } from '../support/app.ts';

let t: TestApp;
let token: string;
const deviceId = newDeviceId();
beforeAll(async () => {
  t = await createTestApp({ env: { RATE_LIMIT_ENABLED: 'false', LOOKUP_PURGE_INTERVAL_MINUTES: '0' } });
  const admin = await createUser(t.db, { role: 'admin', appMode: 'live', trustedDevice: deviceId });
  ({ token } = await signIn(t, admin.email, admin.password, deviceId));
});
afterAll(() => t.close());

const call = (url: string) =>
  t.app.inject({
    method: 'GET',
    url,
    headers: { authorization: `Bearer ${token}`, 'x-device-id': deviceId },
  });

const lastRow = async () => {
  const result = await t.db.execute(sql`select id, hash from audit_events order by id desc limit 1`);
  const rows = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as Array<{
    id: string | number;
    hash: string;
  }>;
  return { id: Number(rows[0]!.id), hash: rows[0]!.hash };
};

/** As the owner or a superuser would: behind the append-only trigger. */
const rewrite = (statement: ReturnType<typeof sql>) =>
  t.db.transaction(async (tx) => {
    await tx.execute(sql`alter table audit_events disable trigger audit_events_no_update_delete`);
    await tx.execute(statement);
    await tx.execute(sql`alter table audit_events enable trigger audit_events_no_update_delete`);
  });

describe('GET /api/admin/audit/chain', () => {
  it('says intact through the last row with the head hash, then names a row changed after it', async () => {
    const res = await call('/api/admin/audit/chain');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const head = await lastRow();
    const body = res.json();
    expect(body).toMatchObject({
      status: 'intact',
      verified_through: { id: head.id, hash: head.hash },
      head,
      broken: null,
    });
    expect(body.rows_verified).toBeGreaterThan(0);

    for (let i = 0; i < 3; i++)
      await recordAudit(t.db, { action: 'test.more', outcome: 'success', details: { i } });
    const victim = await lastRow();
    await recordAudit(t.db, { action: 'test.more', outcome: 'success' });
    await rewrite(sql`update audit_events set outcome = 'failure' where id = ${victim.id}`);

    const broken = (await call('/api/admin/audit/chain')).json();
    expect(broken.status).toBe('broken');
    expect(broken.broken).toMatchObject({ id: victim.id, reason: 'content' });
    expect(broken.broken.message).toContain(`row ${victim.id} (`);
    expect(broken.verified_through.id).toBe(victim.id - 1);
    // It stays reported, even once the row is put back.
    await rewrite(sql`update audit_events set outcome = 'success' where id = ${victim.id}`);
    expect((await call('/api/admin/audit/chain')).json().broken.id).toBe(victim.id);
  });
});

describe('the incremental monitor', () => {
  it('verifies a step per call, and starts over when the last verified row no longer holds its hash', async () => {
    const total = (await lastRow()).id;
    const monitor = createChainMonitor(t.db, { stepRows: 2 });
    const first = await monitor.state();
    expect(first).toMatchObject({ status: 'checking', rows_verified: 2 });
    // Concurrent callers share one walk.
    const [a, b] = await Promise.all([monitor.state(), monitor.state()]);
    expect(a).toEqual(b);
    expect(a.rows_verified).toBe(4);
    // A row already verified is rewritten with a fresh-looking hash: the walk starts again and finds it.
    const verified = a.verified_through!;
    await rewrite(
      sql`update audit_events set target = 'x', hash = ${'e'.repeat(64)} where id = ${verified.id}`,
    );
    let again = await monitor.state();
    expect(again).toMatchObject({ status: 'checking', rows_verified: 2 });
    for (let step = 0; step < 10 && again.status === 'checking'; step++) again = await monitor.state();
    expect(again.status).toBe('broken');
    expect(again.broken).toMatchObject({ id: verified.id, reason: 'content' });
    expect(again.head.id).toBe(total);
    expect(GENESIS_HASH).toHaveLength(64);
  });
});
