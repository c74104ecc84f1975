// The audit trail's hash chain: written by the database's trigger, recomputed in Node, the same on
// PGlite and PostgreSQL, unbroken under concurrent writers, and a tampered row is named.
import { execFile } from 'node:child_process';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { asc, sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DatabaseHandle, openDatabase } from '../../src/db/client.ts';
import { auditEvents } from '../../src/db/schema.ts';
import { GENESIS_HASH, roleCanRewriteTrail, verifyChain } from '../../src/modules/audit/chain.ts';
import { recordAudit } from '../../src/modules/audit/service.ts';
import { createSettleWriter, type RepeatedSearch } from '../../src/modules/searches/settle.ts';
import { createTestApp, createUser, signIn } from '../support/app.ts';
import { createTestDatabase, databaseKind } from '../support/db.ts';

const run = promisify(execFile);
const root = new URL('../../../..', import.meta.url).pathname;

/** SHA-256 written out by hand here, not with the module under test: the definition itself. */
const expectedHash = (prev: string, fields: Array<string | null>) =>
  createHash('sha256')
    .update(prev + fields.map((f) => (f === null ? '~' : `${Buffer.byteLength(f)}:${f}`)).join(''), 'utf8')
    .digest('hex');

let handle: DatabaseHandle & { url?: string };
beforeAll(async () => {
  handle = await createTestDatabase();
});
afterAll(() => handle.close());

const stored = () =>
  handle.db
    .select({ id: auditEvents.id, prevHash: auditEvents.prevHash, hash: auditEvents.hash })
    .from(auditEvents)
    .orderBy(asc(auditEvents.id));

describe('the hash chain', () => {
  it('gives the first row the documented hash, the same on PGlite and PostgreSQL, and ignores supplied ids and hashes', async () => {
    // A fixed time and awkward content: multi-byte text, a control character, jsonb that
    // PostgreSQL re-orders and whose 1.50 keeps its scale.
    await handle.db.insert(auditEvents).values({
      id: 999,
      at: new Date('2025-03-04T05:06:07.089Z'),
      userId: '6f1c2a3b-4d5e-4f60-8a7b-9c0d1e2f3a4b',
      actorEmail: 'Ärzte@example.test',
      ip: '203.0.113.9',
      deviceId: null,
      action: 'lookup.tel',
      target: 'x:1\u0001y',
      cost: 3,
      outcome: 'success',
      caseReference: 'FIR 12/2025',
      details: sql`'{"z": [1.50, null, "नमस्ते"], "a": {"b": true}}'::jsonb` as never,
      prevHash: 'f'.repeat(64),
      hash: 'forged',
    });
    const [row] = await stored();
    const fields = [
      '1',
      '2025-03-04T05:06:07.089000Z',
      '6f1c2a3b-4d5e-4f60-8a7b-9c0d1e2f3a4b',
      'Ärzte@example.test',
      '203.0.113.9',
      null,
      'lookup.tel',
      'x:1\u0001y',
      '3',
      'success',
      'FIR 12/2025',
      '{"a": {"b": true}, "z": [1.50, null, "नमस्ते"]}',
    ];
    expect(row).toEqual({ id: 1, prevHash: GENESIS_HASH, hash: expectedHash(GENESIS_HASH, fields) });
    // The constant pins the definition: both databases (this file runs on each) must produce it.
    expect(row?.hash).toBe('a9b3a14d237c53ff1f5e514b3787e706270b5f1292dd2dbcd5d3ea6c9645fbf7');
    const check = await verifyChain(handle.db);
    expect(check).toMatchObject({ status: 'intact', checked: 1, head: { id: 1, hash: row?.hash } });
  });

  it('stays unbroken with 20 concurrent audit writers and group-committed settle batches', async () => {
    const user = await createUser(handle.db);
    const settle = createSettleWriter(handle.db);
    const repeat = (i: number): RepeatedSearch => ({
      mode: 'repeat',
      id: randomUUID(),
      userId: user.id,
      kind: 'tel',
      query: `9190000${String(i).padStart(5, '0')}`,
      queryTyped: `+91 90000 ${i}`,
      cacheOf: randomUUID(),
      ip: '127.0.0.1',
      deviceId: null,
      caseReference: `CASE-${i}`,
      answered: ['sandbox'],
      errors: {},
      sandbox: true,
      at: new Date(),
      actorEmail: user.email,
      action: 'lookup.tel',
      target: `9190000${i}`,
      details: { query_typed: `+91 90000 ${i}`, n: i },
      noRecord: i % 3 === 0,
    });
    const before = (await stored()).length;
    const writers = Array.from({ length: 20 }, (_, w) =>
      (async () => {
        for (let i = 0; i < 5; i++) {
          if (w % 2 === 0) {
            // Several rows in one statement, some in a transaction beside other writes.
            await handle.db.transaction(async (tx) => {
              await tx.execute(sql`select 1`);
              await recordAudit(tx, [
                { action: 'test.parallel', outcome: 'success', details: { w, i, part: 1 } },
                { action: 'test.parallel', outcome: 'failure', details: { w, i, part: 2 } },
              ]);
            });
          } else {
            // Each settle call queues; rows that meet in the queue go out in one statement.
            const results = await Promise.all(
              Array.from({ length: 4 }, (_, k) => settle(repeat(w * 100 + i * 10 + k))),
            );
            expect(results.every((r) => r.written)).toBe(true);
          }
        }
      })(),
    );
    await Promise.all(writers);
    const rows = await stored();
    expect(rows.length - before).toBe(10 * 5 * 2 + 10 * 5 * 4);
    for (let i = 1; i < rows.length; i++) {
      expect(rows[i]!.id).toBeGreaterThan(rows[i - 1]!.id);
      expect(rows[i]!.prevHash).toBe(rows[i - 1]!.hash);
    }
    const check = await verifyChain(handle.db, { batchSize: 37 });
    expect(check.status, check.broken?.message).toBe('intact');
    expect(check.checked).toBe(rows.length);
    expect(check.head).toEqual({ id: rows.at(-1)!.id, hash: rows.at(-1)!.hash });
  });

  it('verifies in steps from where it stopped', async () => {
    const first = await verifyChain(handle.db, { maxRows: 50, batchSize: 20 });
    expect(first).toMatchObject({ status: 'partial', checked: 50, verified: { rows: 50 } });
    const rest = await verifyChain(handle.db, { from: first.verified });
    expect(rest.status).toBe('intact');
    expect(rest.verified.rows).toBe((await stored()).length);
  });
});

/** A database another process (the CLI) can open: a file PGlite, or the test PostgreSQL database. */
async function sharedDatabase(): Promise<{
  database: DatabaseHandle;
  env: Record<string, string>;
  reopen(): Promise<DatabaseHandle>;
  cleanup(): Promise<void>;
}> {
  if (databaseKind() === 'postgres') {
    const database = await createTestDatabase();
    return {
      database,
      env: { DATABASE_URL: database.url! },
      reopen: async () => database,
      cleanup: () => database.close(),
    };
  }
  const dataDir = mkdtempSync(join(tmpdir(), 'fp-audit-chain-'));
  const database = await openDatabase({ dataDir });
  await database.migrate();
  return {
    database,
    env: { DATA_DIR: dataDir },
    // PGlite is one process's: it is closed while the CLI runs and opened again after.
    reopen: async () => openDatabase({ dataDir }),
    cleanup: async () => rmSync(dataDir, { recursive: true, force: true }),
  };
}

async function cli(env: Record<string, string>, ...args: string[]) {
  try {
    const { stdout, stderr } = await run(
      process.execPath,
      ['--import', 'tsx', 'apps/server/src/cli/index.ts', ...args],
      {
        cwd: root,
        env: { PATH: process.env.PATH ?? '', NODE_ENV: 'test', ...env },
      },
    );
    return { code: 0, out: stdout + stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, out: e.stdout + e.stderr };
  }
}

describe('npm run cli -- audit:verify', () => {
  it('exits 0 with the rows and head hash, and 1 naming a row the owner changed behind the triggers', async () => {
    const shared = await sharedDatabase();
    try {
      let db = shared.database;
      for (let i = 0; i < 12; i++) {
        await recordAudit(db.db, { action: 'test.row', outcome: 'success', target: `t${i}`, details: { i } });
      }
      const rows = await db.db.select().from(auditEvents).orderBy(asc(auditEvents.id));
      const victim = rows[6]!;
      const head = rows.at(-1)!;
      if (databaseKind() === 'pglite') await db.close();

      const ok = await cli(shared.env, 'audit:verify');
      expect(ok.code, ok.out).toBe(0);
      expect(ok.out).toContain(
        `Audit chain OK: 12 row(s) checked, head row ${head.id}, head hash ${head.hash}`,
      );

      // The owner (or a superuser) lifts the append-only trigger, rewrites a row and puts it back.
      db = await shared.reopen();
      await db.db.transaction(async (tx) => {
        await tx.execute(sql`alter table audit_events disable trigger audit_events_no_update_delete`);
        await tx.execute(sql`update audit_events set target = 'rewritten' where id = ${victim.id}`);
        await tx.execute(sql`alter table audit_events enable trigger audit_events_no_update_delete`);
      });
      if (databaseKind() === 'pglite') await db.close();

      const bad = await cli(shared.env, 'audit:verify');
      expect(bad.code, bad.out).toBe(1);
      expect(bad.out).toContain(`Audit chain BROKEN at row ${victim.id}: row ${victim.id} (`);
      expect(bad.out).toContain('its content does not match its hash');
      expect(bad.out).toContain(`The 6 row(s) before it (through row ${rows[5]!.id}) are intact`);

      // Rows cut from the end are found too: the head still names the last one.
      db = await shared.reopen();
      await db.db.transaction(async (tx) => {
        await tx.execute(sql`alter table audit_events disable trigger audit_events_no_update_delete`);
        await tx.execute(sql`update audit_events set target = ${victim.target} where id = ${victim.id}`);
        await tx.execute(sql`delete from audit_events where id >= ${rows[10]!.id}`);
        await tx.execute(sql`alter table audit_events enable trigger audit_events_no_update_delete`);
      });
      const cut = await verifyChain(db.db);
      expect(cut.status).toBe('broken');
      expect(cut.broken).toMatchObject({ id: head.id, reason: 'head' });
      // A later row chains to the head, so the gap stays visible once the trail grows again.
      await recordAudit(db.db, { action: 'test.after', outcome: 'success' });
      const after = await verifyChain(db.db);
      expect(after.broken).toMatchObject({ reason: 'link' });
      expect(after.broken?.message).toContain(`is not the hash of row ${rows[9]!.id}`);
      if (databaseKind() === 'pglite') await db.close();
    } finally {
      await shared.cleanup();
    }
  }, 180_000);
});

describe('who may change the audit trail', () => {
  it(
    databaseKind() === 'postgres'
      ? 'PostgreSQL: the app role may insert and read it but not update, delete, truncate, alter or disable its triggers'
      : 'PGlite: one embedded user, the roles are left alone and the trail is owned by that user',
    async () => {
      const owner = await handle.db.execute(
        sql`select pg_get_userbyid(relowner) as owner from pg_class where oid = 'public.audit_events'::regclass`,
      );
      const ownerName = (owner as unknown as { rows: Array<{ owner: string }> }).rows[0]?.owner;
      if (databaseKind() === 'pglite') {
        expect(ownerName).toBe('postgres');
        const roles = await handle.db.execute(
          sql`select rolname from pg_roles where rolname like 'footprint_%'`,
        );
        expect((roles as unknown as { rows: unknown[] }).rows).toEqual([]);
        return;
      }
      expect(ownerName).toBe('footprint_owner');
      const login = `fp_app_${randomBytes(5).toString('hex')}`;
      const admin = new pg.Client({ connectionString: handle.url });
      await admin.connect();
      await admin.query(`create role ${login} login in role footprint_app`);
      const url = new URL(handle.url!);
      url.username = login;
      const app = new pg.Client({ connectionString: url.toString() });
      await app.connect();
      try {
        await app.query(`insert into audit_events (action, outcome) values ('test.app_role', 'success')`);
        const read = await app.query('select count(*)::int as n from audit_events');
        expect(read.rows[0].n).toBeGreaterThan(0);
        const refused = [
          `update audit_events set outcome = 'failure'`,
          'delete from audit_events',
          'truncate audit_events',
          'alter table audit_events disable trigger audit_events_no_update_delete',
          'alter table audit_events disable trigger all',
          'drop trigger audit_events_chain on audit_events',
          'alter table audit_events owner to footprint_app',
          'drop table audit_events',
          `update audit_chain_head set hash = 'x'`,
          'set role footprint_owner',
          'set session_replication_role = replica',
          'select audit_events_chain()',
        ];
        for (const statement of refused) {
          const error = await app.query(statement).then(
            () => undefined,
            (e: Error & { code?: string }) => e,
          );
          expect(error?.message, statement).toMatch(
            /permission denied|must be owner|trigger functions can only be called/,
          );
        }
        // The whole application runs as that role: migrations over the owner's URL, then a sign-in
        // (audit rows in a transaction) and a paid search (its row in the group-committed settle).
        const database = await openDatabase({ url: url.toString(), migrationUrl: handle.url, poolSize: 5 });
        const t = await createTestApp({ database, env: { RATE_LIMIT_ENABLED: 'false' } });
        try {
          const user = await createUser(t.db, { appMode: 'live', credits: 5 });
          const { token, deviceId } = await signIn(t, user.email, user.password);
          const tel = await t.app.inject({
            method: 'GET',
            url: '/api/tel?number=919876543210',
            headers: { authorization: `Bearer ${token}`, 'x-device-id': deviceId },
          });
          expect(tel.statusCode, tel.body).toBe(200);
          const written = await app.query(
            `select action, outcome from audit_events where user_id = $1 and action = 'lookup.tel'`,
            [user.id],
          );
          expect(written.rows).toHaveLength(1);
        } finally {
          await t.close();
          await database.close();
        }
        const check = await verifyChain(handle.db);
        expect(check.status, check.broken?.message).toBe('intact');
      } finally {
        await app.end();
        await admin.query(`drop owned by ${login}`);
        await admin.query(`drop role ${login}`);
        await admin.end();
      }
    },
  );

  it(
    databaseKind() === 'postgres'
      ? 'PostgreSQL, the documented setup: a migrating login in footprint_owner owns the database, the app logs in as a member of footprint_app'
      : 'PGlite: audit_apply_roles() says the roles are left alone',
    async () => {
      if (databaseKind() === 'pglite') {
        const answer = await handle.db.execute(sql`select audit_apply_roles() as said`);
        expect((answer as unknown as { rows: Array<{ said: string }> }).rows[0]?.said).toMatch(/^PGlite/);
        return;
      }
      const suffix = randomBytes(5).toString('hex');
      const [migrator, appLogin, name] = [`fp_mig_${suffix}`, `fp_app_${suffix}`, `fp_test_roles_${suffix}`];
      const admin = new pg.Client({ connectionString: handle.url });
      await admin.connect();
      await admin.query(`create role ${migrator} login in role footprint_owner`);
      await admin.query(`create role ${appLogin} login in role footprint_app`);
      await admin.query(`create database ${name} owner ${migrator}`);
      const as = (user: string) => {
        const url = new URL(handle.url!);
        url.username = user;
        url.pathname = `/${name}`;
        return url.toString();
      };
      const database = await openDatabase({ url: as(appLogin), migrationUrl: as(migrator), poolSize: 2 });
      try {
        await database.migrate();
        const owners = await database.db.execute(
          sql`select relname, pg_get_userbyid(relowner) as owner from pg_class
              where relname in ('audit_events', 'audit_chain_head', 'users') order by relname`,
        );
        expect((owners as unknown as { rows: unknown[] }).rows).toEqual([
          { relname: 'audit_chain_head', owner: 'footprint_owner' },
          { relname: 'audit_events', owner: 'footprint_owner' },
          { relname: 'users', owner: migrator },
        ]);
        expect(await roleCanRewriteTrail(database.db)).toBe(false);
        expect(await roleCanRewriteTrail(handle.db)).toBe(true);
        const user = await createUser(database.db, { credits: 3 });
        await recordAudit(database.db, { action: 'test.two_logins', outcome: 'success', target: user.id });
        const refused = await database.db.execute(sql`delete from audit_events`).then(
          () => undefined,
          (e: Error & { cause?: Error }) => e.cause?.message ?? e.message,
        );
        expect(refused).toMatch(/permission denied for table audit_events/);
        expect((await verifyChain(database.db)).status).toBe('intact');
      } finally {
        await database.close();
        await admin.query(`drop database if exists ${name} with (force)`);
        await admin.query(`drop role ${appLogin}`);
        await admin.query(`drop role ${migrator}`);
        await admin.end();
      }
    },
  );
});
