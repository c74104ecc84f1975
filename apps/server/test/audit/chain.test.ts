// The audit trail's rows as the Merkle log seals them (the leaf is the row's canonical content, the
// same on PGlite and PostgreSQL), and the legacy hash chain of the rows written before migration
// 0027: kept, verified, and each tamper case named (a changed row, a removed row, an inserted row, a
// cut tail, a rewritten head), before and after the boundary.
import { createHash, randomBytes } from 'node:crypto';
import { cpSync, mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DatabaseHandle, migrationsFolder, openDatabase } from '../../src/db/client.ts';
import { rowsOf } from '../../src/db/rows.ts';
import { auditEvents } from '../../src/db/schema.ts';
import { GENESIS_HASH, roleCanRewriteTrail } from '../../src/modules/audit/chain.ts';
import { auditOrigin, checkpointSigner } from '../../src/modules/audit/checkpoint.ts';
import { createSealer } from '../../src/modules/audit/sealer.ts';
import { recordAudit } from '../../src/modules/audit/service.ts';
import { verifyTrail } from '../../src/modules/audit/verify.ts';
import { createTestApp, createUser, signIn } from '../support/app.ts';
import { createTestDatabase, databaseKind } from '../support/db.ts';

const signer = checkpointSigner('chain test key', auditOrigin('http://footprint.test'));

/** SHA-256 written out by hand here, not with the module under test: the definitions themselves. */
const content = (fields: Array<string | null>) =>
  fields.map((f) => (f === null ? '~' : `${Buffer.byteLength(f)}:${f}`)).join('');
const expectedChainHash = (prev: string, fields: Array<string | null>) =>
  createHash('sha256')
    .update(prev + content(fields), 'utf8')
    .digest('hex');
const expectedLeaf = (fields: Array<string | null>) =>
  createHash('sha256')
    .update(Buffer.concat([Buffer.from([0]), Buffer.from(content(fields), 'utf8')]))
    .digest('hex');

let handle: DatabaseHandle & { url?: string };
beforeAll(async () => {
  handle = await createTestDatabase();
});
afterAll(() => handle.close());

/** As the owner or a superuser would: behind the append-only triggers and the id trigger. */
const behindTriggers = (db: DatabaseHandle['db'], ...statements: ReturnType<typeof sql>[]) =>
  db.transaction(async (tx) => {
    await tx.execute(sql`alter table audit_events disable trigger audit_events_no_update_delete`);
    await tx.execute(sql`alter table audit_events disable trigger audit_events_assign_id`);
    await tx.execute(sql`alter table audit_chain_head disable trigger audit_chain_head_frozen`);
    for (const statement of statements) await tx.execute(statement);
    await tx.execute(sql`alter table audit_chain_head enable trigger audit_chain_head_frozen`);
    await tx.execute(sql`alter table audit_events enable trigger audit_events_assign_id`);
    await tx.execute(sql`alter table audit_events enable trigger audit_events_no_update_delete`);
  });

describe('a row of the trail', () => {
  it('is sealed as the documented leaf, the same on PGlite and PostgreSQL, and keeps no chain hash', async () => {
    // A fixed time and awkward content: multi-byte text, a control character, jsonb that
    // PostgreSQL re-orders and whose 1.50 keeps its scale.
    await handle.db.insert(auditEvents).values({
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
    });
    const [row] = await handle.db
      .select({ id: auditEvents.id, prevHash: auditEvents.prevHash, hash: auditEvents.hash })
      .from(auditEvents);
    expect(row).toEqual({ id: 1, prevHash: null, hash: null });
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
    const checkpoint = await createSealer({ db: handle.db, signer, intervalMs: 0 }).sealNow();
    // A tree of one leaf: its root is the leaf hash. The constant pins the definition on both databases.
    expect(checkpoint).toMatchObject({ treeSize: 1, lastId: 1, rootHash: expectedLeaf(fields) });
    expect(checkpoint?.rootHash).toBe('ba223cf8b8a628f3912bafbc8ec092b6f203f2ae04c3ba50287de34cb7d43ba4');
    const check = await verifyTrail(handle.db, { verifier: signer });
    expect(check).toMatchObject({
      status: 'intact',
      checked: 1,
      pending: 0,
      head: { id: 0, hash: GENESIS_HASH },
    });
  });

  it('verifies in steps from where it stopped', async () => {
    for (let i = 0; i < 60; i++)
      await recordAudit(handle.db, { action: 'test.step', outcome: 'success', details: { i } });
    await createSealer({ db: handle.db, signer, intervalMs: 0 }).sealNow();
    const first = await verifyTrail(handle.db, { maxRows: 50, batchSize: 20 });
    expect(first).toMatchObject({ status: 'partial', checked: 50, verified: { rows: 50 } });
    const rest = await verifyTrail(handle.db, { from: first.verified });
    expect(rest.status).toBe('intact');
    expect(rest.verified.rows).toBe(61);
  });
});

/** A database migrated up to 0026 (the chain trigger of 0014 in place): its rows are chained. */
async function legacyDatabase() {
  const partial = mkdtempSync(join(tmpdir(), 'fp-migrations-0026-'));
  cpSync(migrationsFolder, partial, { recursive: true });
  for (const file of ['0027_audit_merkle_log.sql', 'meta/0027_snapshot.json'])
    unlinkSync(join(partial, file));
  const journalPath = join(partial, 'meta/_journal.json');
  const journal = JSON.parse(readFileSync(journalPath, 'utf8')) as { entries: Array<{ idx: number }> };
  journal.entries = journal.entries.filter((entry) => entry.idx < 27);
  writeFileSync(journalPath, JSON.stringify(journal));
  let open: (folder?: string) => Promise<DatabaseHandle>;
  let drop = async () => {};
  if (databaseKind() === 'postgres') {
    const name = `fp_legacy_${randomBytes(5).toString('hex')}`;
    const admin = new pg.Client({ connectionString: handle.url });
    await admin.connect();
    await admin.query(`create database ${name}`);
    await admin.end();
    const url = new URL(handle.url!);
    url.pathname = `/${name}`;
    open = (folder) => openDatabase({ url: url.toString(), poolSize: 3, migrationsFolder: folder });
    drop = async () => {
      const again = new pg.Client({ connectionString: handle.url });
      await again.connect();
      await again.query(`drop database if exists ${name} with (force)`);
      await again.end();
    };
  } else {
    const dataDir = mkdtempSync(join(tmpdir(), 'fp-legacy-'));
    open = (folder) => openDatabase({ dataDir, migrationsFolder: folder });
    const base = drop;
    drop = async () => {
      await base();
      rmSync(dataDir, { recursive: true, force: true });
    };
  }
  return {
    open,
    partial,
    async cleanup() {
      await drop();
      rmSync(partial, { recursive: true, force: true });
    },
  };
}

describe('the legacy hash chain (rows before 0027)', () => {
  it('is kept and verified, and every tamper case is named, before and after the boundary', async () => {
    const legacy = await legacyDatabase();
    try {
      const before = await legacy.open(legacy.partial);
      await before.migrate();
      for (let i = 0; i < 8; i++) {
        await recordAudit(before.db, {
          action: 'test.legacy',
          outcome: 'success',
          target: `l${i}`,
          details: { i },
        });
      }
      await before.close();
      const db = await legacy.open();
      try {
        await db.migrate();
        const chained = rowsOf<{ id: string; prev_hash: string; hash: string; at: string }>(
          await db.db.execute(
            sql`select id::text as id, prev_hash, hash,
                to_char(at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as at
                from audit_events order by audit_events.id`,
          ),
        );
        expect(chained).toHaveLength(8);
        expect(chained[0]!.prev_hash).toBe(GENESIS_HASH);
        expect(chained[0]!.hash).toBe(
          expectedChainHash(GENESIS_HASH, [
            chained[0]!.id,
            chained[0]!.at,
            null,
            null,
            null,
            null,
            'test.legacy',
            'l0',
            null,
            'success',
            null,
            '{"i": 0}',
          ]),
        );
        const head = { id: Number(chained[7]!.id), hash: chained[7]!.hash };
        // Rows written since 0027: no chain, sealed with the legacy ones.
        let gap = 0;
        for (let i = 0; i < 4; i++) {
          await recordAudit(db.db, { action: 'test.new', outcome: 'success', details: { i } });
          if (i === 1) {
            // A transaction rolled back leaves an id unused.
            await db.db
              .transaction(async (tx) => {
                const [row] = await tx
                  .insert(auditEvents)
                  .values({ action: 'test.rolled_back', outcome: 'success' })
                  .returning({ id: auditEvents.id });
                gap = row!.id;
                tx.rollback();
              })
              .catch(() => undefined);
          }
        }
        const sealer = createSealer({ db: db.db, signer, intervalMs: 0 });
        await sealer.sealNow();
        const intact = await verifyTrail(db.db, { verifier: signer });
        expect(intact, intact.broken?.message).toMatchObject({
          status: 'intact',
          checked: 12,
          head,
          pending: 0,
        });
        const ids = chained.map((r) => Number(r.id));
        const newest = rowsOf<{ id: string }>(
          await db.db.execute(
            sql`select id::text as id from audit_events order by audit_events.id desc limit 1`,
          ),
        )[0]!;
        const broken = async () => (await verifyTrail(db.db, { verifier: signer })).broken;

        // A changed legacy row: its content no longer gives its hash.
        await behindTriggers(db.db, sql`update audit_events set target = 'changed' where id = ${ids[3]}`);
        expect(await broken()).toMatchObject({ id: ids[3], reason: 'content' });
        await behindTriggers(db.db, sql`update audit_events set target = 'l3' where id = ${ids[3]}`);
        expect(await broken()).toBeNull();

        // A removed legacy row: the next one's prev_hash names a hash no row has.
        const saved = sql`(select * from audit_events where id = ${ids[4]})`;
        await behindTriggers(
          db.db,
          sql`create temporary table kept on commit preserve rows as ${saved}`,
          sql`delete from audit_events where id = ${ids[4]}`,
        );
        expect(await broken()).toMatchObject({ id: ids[5], reason: 'link' });
        await behindTriggers(db.db, sql`insert into audit_events select * from kept`, sql`drop table kept`);
        expect(await broken()).toBeNull();

        // An inserted legacy row (before the first, with a hash computed as the trigger would): the
        // first row's prev_hash no longer follows.
        const forged = expectedChainHash(GENESIS_HASH, [
          '0',
          '2025-01-01T00:00:00.000000Z',
          null,
          null,
          null,
          null,
          'test.inserted',
          null,
          null,
          'success',
          null,
          null,
        ]);
        await behindTriggers(
          db.db,
          sql`insert into audit_events (id, at, action, outcome, prev_hash, hash)
              values (0, '2025-01-01T00:00:00Z', 'test.inserted', 'success', ${GENESIS_HASH}, ${forged})`,
        );
        expect(await broken()).toMatchObject({ id: ids[0], reason: 'link' });
        await behindTriggers(db.db, sql`delete from audit_events where action = 'test.inserted'`);
        expect(await broken()).toBeNull();

        // The legacy tail cut: the frozen head names a row that is gone.
        await behindTriggers(
          db.db,
          sql`create temporary table kept on commit preserve rows as (select * from audit_events where id = ${head.id})`,
          sql`delete from audit_events where id = ${head.id}`,
        );
        expect(await broken()).toMatchObject({ id: head.id, reason: 'head' });
        await behindTriggers(db.db, sql`insert into audit_events select * from kept`, sql`drop table kept`);
        expect(await broken()).toBeNull();

        // The head rewritten (to hide a cut tail): it no longer matches the chain.
        await behindTriggers(
          db.db,
          sql`update audit_chain_head set last_id = ${ids[6]}, hash = ${chained[6]!.hash}`,
        );
        expect(await broken()).toMatchObject({ reason: 'head' });
        await behindTriggers(
          db.db,
          sql`update audit_chain_head set last_id = ${head.id}, hash = ${head.hash}`,
        );
        expect(await broken()).toBeNull();

        // After the boundary: a changed, a removed and an inserted row break the checkpoint sealing them.
        await behindTriggers(db.db, sql`update audit_events set outcome = 'failure' where id = ${newest.id}`);
        expect(await broken()).toMatchObject({ reason: 'checkpoint' });
        expect((await broken())?.message).toMatch(/the first 12 rows hash to .* but checkpoint 12/);
        await behindTriggers(db.db, sql`update audit_events set outcome = 'success' where id = ${newest.id}`);
        expect(await broken()).toBeNull();
        await behindTriggers(
          db.db,
          sql`create temporary table kept on commit preserve rows as (select * from audit_events where id = ${newest.id})`,
          sql`delete from audit_events where id = ${newest.id}`,
        );
        expect(await broken()).toMatchObject({ reason: 'checkpoint' });
        expect((await broken())?.message).toMatch(/rows were removed/);
        await behindTriggers(db.db, sql`insert into audit_events select * from kept`, sql`drop table kept`);
        expect(await broken()).toBeNull();
        // An inserted row, in the id the rolled-back transaction left unused.
        await behindTriggers(
          db.db,
          sql`insert into audit_events (id, action, outcome) values (${gap}, 'test.inserted', 'success')`,
        );
        expect(await broken()).toMatchObject({ reason: 'checkpoint' });
      } finally {
        await db.close();
      }
    } finally {
      await legacy.cleanup();
    }
  }, 120_000);
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
        // An id the application names is not taken: the trail's trigger draws it from the sequence.
        const named = await app.query(
          `insert into audit_events (id, action, outcome) values (1, 'test.app_named_id', 'success') returning id`,
        );
        expect(Number(named.rows[0].id)).toBeGreaterThan(1);
        const read = await app.query('select count(*)::int as n from audit_events');
        expect(read.rows[0].n).toBeGreaterThan(0);
        const refused = [
          `update audit_events set outcome = 'failure'`,
          'delete from audit_events',
          'truncate audit_events',
          'alter table audit_events disable trigger audit_events_no_update_delete',
          'alter table audit_events disable trigger all',
          'alter table audit_events disable trigger audit_events_assign_id',
          'drop trigger audit_events_assign_id on audit_events',
          'alter table audit_events alter column id set default 1',
          'drop trigger audit_events_no_update_delete on audit_events',
          `update audit_checkpoints set root_hash = 'x'`,
          'delete from audit_checkpoints',
          'truncate audit_checkpoints',
          'alter table audit_checkpoints disable trigger all',
          'delete from audit_anchors',
          'alter table audit_events owner to footprint_app',
          'drop table audit_events',
          `update audit_chain_head set hash = 'x'`,
          'set role footprint_owner',
          'set session_replication_role = replica',
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
        await createSealer({ db: handle.db, signer, intervalMs: 0 }).sealNow();
        const check = await verifyTrail(handle.db);
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
              where relname in ('audit_events', 'audit_chain_head', 'audit_checkpoints', 'users') order by relname`,
        );
        expect((owners as unknown as { rows: unknown[] }).rows).toEqual([
          { relname: 'audit_chain_head', owner: 'footprint_owner' },
          { relname: 'audit_checkpoints', owner: 'footprint_owner' },
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
        // The app's role seals: it may insert checkpoints, not change them.
        await createSealer({ db: database.db, signer, intervalMs: 0 }).sealNow();
        expect((await verifyTrail(database.db)).status).toBe('intact');
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
