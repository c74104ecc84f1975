// GET /api/admin/audit/chain: the admin screen's view of the audit trail, verified a step at a time
// against its stored checkpoints.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GENESIS_HASH } from '../../src/modules/audit/chain.ts';
import { auditOrigin, checkpointSigner } from '../../src/modules/audit/checkpoint.ts';
import { createChainMonitor } from '../../src/modules/audit/monitor.ts';
import { createSealer, type Sealer } from '../../src/modules/audit/sealer.ts';
import { recordAudit } from '../../src/modules/audit/service.ts';
import {
  createTestApp,
  createUser,
  newDeviceId,
  signIn,
  TEST_APP_KEY,
  type TestApp,
} from '../support/app.ts';

let t: TestApp;
let token: string;
let sealer: Sealer;
const deviceId = newDeviceId();
beforeAll(async () => {
  // The test seals when it means to: each row gets its own checkpoint, so a break names its row.
  t = await createTestApp({
    env: { RATE_LIMIT_ENABLED: 'false', LOOKUP_PURGE_INTERVAL_MINUTES: '0', AUDIT_SEAL_MS: '0' },
  });
  sealer = createSealer({
    db: t.db,
    signer: checkpointSigner(TEST_APP_KEY, auditOrigin('http://footprint.test')),
    intervalMs: 0,
  });
  const admin = await createUser(t.db, { role: 'admin', appMode: 'live', trustedDevice: deviceId });
  ({ token } = await signIn(t, admin.email, admin.password, deviceId));
  await sealer.sealNow();
});
afterAll(() => t.close());

const call = (url: string) =>
  t.app.inject({
    method: 'GET',
    url,
    headers: { authorization: `Bearer ${token}`, 'x-device-id': deviceId },
  });

const lastRow = async () => {
  const result = await t.db.execute(sql`select id from audit_events order by id desc limit 1`);
  const rows = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as Array<{
    id: string | number;
  }>;
  return { id: Number(rows[0]!.id) };
};

/** As the owner or a superuser would: behind the append-only trigger and the id trigger. */
const rewrite = (statement: ReturnType<typeof sql>) =>
  t.db.transaction(async (tx) => {
    await tx.execute(sql`alter table audit_events disable trigger audit_events_no_update_delete`);
    await tx.execute(sql`alter table audit_events disable trigger audit_events_assign_id`);
    await tx.execute(statement);
    await tx.execute(sql`alter table audit_events enable trigger audit_events_assign_id`);
    await tx.execute(sql`alter table audit_events enable trigger audit_events_no_update_delete`);
  });

describe('GET /api/admin/audit/chain', () => {
  it('says intact through the newest checkpoint, counts the rows not sealed, then names a row changed after it', async () => {
    const res = await call('/api/admin/audit/chain');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const last = await lastRow();
    const body = res.json();
    expect(body).toMatchObject({
      status: 'intact',
      verified_through: { id: last.id },
      // No row was written before 0027 in this database: the legacy chain is empty.
      head: { id: 0, hash: GENESIS_HASH },
      broken: null,
      tree_size: body.rows_verified,
      checkpoint: { tree_size: body.rows_verified, last_id: last.id },
    });
    expect(body.verified_through.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(body.rows_verified).toBeGreaterThan(0);
    // A row written since the last seal is counted as pending.
    await recordAudit(t.db, { action: 'test.unsealed', outcome: 'success' });
    const pending = (await call('/api/admin/audit/chain')).json();
    expect(pending.pending).toBeGreaterThanOrEqual(1);

    for (let i = 0; i < 3; i++) {
      await recordAudit(t.db, { action: 'test.more', outcome: 'success', details: { i } });
      await sealer.sealNow();
    }
    const victim = await lastRow();
    await recordAudit(t.db, { action: 'test.more', outcome: 'success' });
    await sealer.sealNow();
    await rewrite(sql`update audit_events set outcome = 'failure' where id = ${victim.id}`);

    const broken = (await call('/api/admin/audit/chain')).json();
    expect(broken.status).toBe('broken');
    expect(broken.broken).toMatchObject({ id: victim.id, reason: 'checkpoint' });
    expect(broken.broken.message).toContain(`through ${victim.id} was changed`);
    expect(broken.verified_through.id).toBe(victim.id - 1);
    // It stays reported, even once the row is put back.
    await rewrite(sql`update audit_events set outcome = 'success' where id = ${victim.id}`);
    expect((await call('/api/admin/audit/chain')).json().broken.id).toBe(victim.id);
  });
});

describe('the incremental monitor', () => {
  it('verifies a step per call, and starts over when the last verified row no longer holds its hash', async () => {
    await rewrite(sql`update audit_events set outcome = 'success' where action = 'test.more'`);
    await sealer.sealNow();
    const monitor = createChainMonitor(t.db, { stepRows: 2 });
    const first = await monitor.state();
    expect(first).toMatchObject({ status: 'checking', rows_verified: 2 });
    // Concurrent callers share one walk.
    const [a, b] = await Promise.all([monitor.state(), monitor.state()]);
    expect(a).toEqual(b);
    expect(a.rows_verified).toBe(4);
    // A row already verified is rewritten: the walk starts again and finds it.
    const verified = a.verified_through!;
    await rewrite(sql`update audit_events set target = 'x' where id = ${verified.id}`);
    let again = await monitor.state();
    expect(again).toMatchObject({ status: 'checking', rows_verified: 2 });
    for (let step = 0; step < 10 && again.status === 'checking'; step++) again = await monitor.state();
    expect(again.status).toBe('broken');
    expect(again.broken).toMatchObject({ reason: 'checkpoint' });
    expect(again.broken!.id).toBeGreaterThanOrEqual(verified.id);
    expect(again.broken!.message).toMatch(/was changed, removed or inserted/);
  });
});
