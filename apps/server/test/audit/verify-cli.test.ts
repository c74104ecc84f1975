// The operator's commands, as real child processes: `audit:checkpoint` seals and prints a signed
// checkpoint (and `--key` the verifier key); `audit:verify` names a changed, removed or inserted row;
// and after a rewrite of the whole table with every stored checkpoint recomputed and re-signed (so
// the database's own verification passes), `audit:verify --checkpoint <kept file>` still fails.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { type DatabaseHandle, openDatabase } from '../../src/db/client.ts';
import { rowsOf } from '../../src/db/rows.ts';
import {
  auditOrigin,
  checkpointSigner,
  openCheckpoint,
  splitNotes,
} from '../../src/modules/audit/checkpoint.ts';
import { createSealer } from '../../src/modules/audit/sealer.ts';
import { recordAudit } from '../../src/modules/audit/service.ts';
import { verifyAgainstKept } from '../../src/modules/audit/verify.ts';
import { createTestDatabase, databaseKind } from '../support/db.ts';

const run = promisify(execFile);
const root = new URL('../../../..', import.meta.url).pathname;
const APP_KEY = 'cli-test-app-key-0123456789abcdefghij';
const APP_URL = 'https://audit.example.test';
const signer = checkpointSigner(APP_KEY, auditOrigin(APP_URL));

/** A database another process (the CLI) can open: a file PGlite, or the test PostgreSQL database. */
async function sharedDatabase(): Promise<{
  database: DatabaseHandle;
  env: Record<string, string>;
  reopen(): Promise<DatabaseHandle>;
  /** PGlite is one process's: closed while the CLI runs, opened again after. */
  pause(db: DatabaseHandle): Promise<void>;
  cleanup(): Promise<void>;
}> {
  const common = { APP_KEY, APP_URL };
  if (databaseKind() === 'postgres') {
    const database = await createTestDatabase();
    return {
      database,
      env: { ...common, DATABASE_URL: database.url! },
      reopen: async () => database,
      pause: async () => {},
      cleanup: () => database.close(),
    };
  }
  const dataDir = mkdtempSync(join(tmpdir(), 'fp-audit-cli-'));
  const database = await openDatabase({ dataDir });
  await database.migrate();
  return {
    database,
    env: { ...common, DATA_DIR: dataDir },
    reopen: async () => openDatabase({ dataDir }),
    pause: (db) => db.close(),
    cleanup: async () => rmSync(dataDir, { recursive: true, force: true }),
  };
}

async function cli(env: Record<string, string>, ...args: string[]) {
  try {
    const { stdout, stderr } = await run(
      process.execPath,
      ['--import', 'tsx', 'apps/server/src/cli/index.ts', ...args],
      { cwd: root, env: { PATH: process.env.PATH ?? '', NODE_ENV: 'test', ...env } },
    );
    return { code: 0, out: stdout + stderr, stdout };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, out: e.stdout + e.stderr, stdout: e.stdout };
  }
}

/** As the owner or a superuser would: behind the append-only triggers and the id trigger. */
const behindTriggers = (db: DatabaseHandle['db'], ...statements: ReturnType<typeof sql>[]) =>
  db.transaction(async (tx) => {
    await tx.execute(sql`alter table audit_events disable trigger audit_events_no_update_delete`);
    await tx.execute(sql`alter table audit_events disable trigger audit_events_assign_id`);
    await tx.execute(sql`alter table audit_checkpoints disable trigger audit_checkpoints_no_update_delete`);
    for (const statement of statements) await tx.execute(statement);
    await tx.execute(sql`alter table audit_checkpoints enable trigger audit_checkpoints_no_update_delete`);
    await tx.execute(sql`alter table audit_events enable trigger audit_events_assign_id`);
    await tx.execute(sql`alter table audit_events enable trigger audit_events_no_update_delete`);
  });

const ids = async (db: DatabaseHandle) =>
  rowsOf<{ id: string }>(
    await db.db.execute(sql`select id::text as id from audit_events order by audit_events.id`),
  ).map((r) => Number(r.id));

describe('npm run cli -- audit:checkpoint and audit:verify', () => {
  it('prints a signed checkpoint and its key, and names a changed, a removed and an inserted row', async () => {
    const shared = await sharedDatabase();
    const dir = mkdtempSync(join(tmpdir(), 'fp-kept-'));
    try {
      let db = shared.database;
      for (let i = 0; i < 12; i++) {
        // A rolled-back insert leaves an unused id after the 6th row: room for an inserted one.
        await recordAudit(db.db, { action: 'test.row', outcome: 'success', target: `t${i}`, details: { i } });
        if (i === 5) {
          await db.db
            .transaction(async (tx) => {
              await recordAudit(tx, { action: 'test.gone', outcome: 'success' });
              tx.rollback();
            })
            .catch(() => undefined);
        }
      }
      const rowIds = await ids(db);
      await shared.pause(db);

      const key = await cli(shared.env, 'audit:checkpoint', '--key');
      expect(key.code, key.out).toBe(0);
      expect(key.stdout.trim()).toBe(signer.vkey);
      const made = await cli(shared.env, 'audit:checkpoint');
      expect(made.code, made.out).toBe(0);
      expect(made.stdout).toMatch(
        /^audit\.example\.test\/audit\n12\n[A-Za-z0-9+/]{43}=\n\n\u2014 audit\.example\.test\/audit \S+\n$/,
      );
      const kept = join(dir, 'kept.txt');
      writeFileSync(kept, made.stdout);

      // A row written since is reported, not yet sealed.
      db = await shared.reopen();
      await recordAudit(db.db, { action: 'test.unsealed', outcome: 'success' });
      await shared.pause(db);
      const ok = await cli(shared.env, 'audit:verify');
      expect(ok.code, ok.out).toBe(0);
      expect(ok.out).toMatch(
        /Audit trail OK: 12 row\(s\) checked; .* tree size 12, root [0-9a-f]{64}; 1 row\(s\) not sealed yet/,
      );
      const keptOk = await cli(shared.env, 'audit:verify', '--checkpoint', kept, '--key', signer.vkey);
      expect(keptOk.code, keptOk.out).toBe(0);
      expect(keptOk.out).toContain('Audit trail matches 1 kept checkpoint(s)');
      const keptNotes = splitNotes(made.stdout).map((note) => openCheckpoint(note, signer));

      const cases: Array<[string, ReturnType<typeof sql>[], ReturnType<typeof sql>[], RegExp]> = [
        [
          'changed',
          [sql`update audit_events set target = 'rewritten' where id = ${rowIds[6]}`],
          [sql`update audit_events set target = 't6' where id = ${rowIds[6]}`],
          /one of the rows after 0 through \d+ was changed, removed or inserted/,
        ],
        [
          'removed',
          [
            sql`create table kept_row as (select * from audit_events where id = ${rowIds[2]})`,
            sql`delete from audit_events where id = ${rowIds[2]}`,
          ],
          [sql`insert into audit_events select * from kept_row`, sql`drop table kept_row`],
          /rows were removed/,
        ],
        [
          'inserted',
          [
            sql`insert into audit_events (id, action, outcome) values (${rowIds[5]! + 1}, 'test.inserted', 'success')`,
          ],
          [sql`delete from audit_events where id = ${rowIds[5]! + 1}`],
          /rows were removed or inserted among the rows after 0 through/,
        ],
      ];
      for (const [name, tamper, undo, message] of cases) {
        db = await shared.reopen();
        await behindTriggers(db.db, ...tamper);
        await shared.pause(db);
        const bad = await cli(shared.env, 'audit:verify');
        expect(bad.code, `${name}: ${bad.out}`).toBe(1);
        expect(bad.out, name).toMatch(/Audit trail BROKEN at row \d+: /);
        expect(bad.out, name).toMatch(message);
        db = await shared.reopen();
        // The kept checkpoint finds it too (the command's own check, in this process: see below).
        expect((await verifyAgainstKept(db.db, keptNotes)).mismatch?.treeSize, name).toBe(12);
        await behindTriggers(db.db, ...undo);
        expect((await verifyAgainstKept(db.db, keptNotes)).mismatch, name).toBeNull();
        await shared.pause(db);
      }

      // A kept checkpoint that was changed, or signed by another key, is refused.
      writeFileSync(join(dir, 'changed.txt'), made.stdout.replace('\n12\n', '\n11\n'));
      const changed = await cli(shared.env, 'audit:verify', '--checkpoint', join(dir, 'changed.txt'));
      expect(changed.code, changed.out).toBe(1);
      expect(changed.out).toContain('does not verify');
      const badUsage = await cli(shared.env, 'audit:verify', '--checkpoint', kept, '--key', 'nonsense');
      expect(badUsage.code, badUsage.out).toBe(2);
    } finally {
      rmSync(dir, { recursive: true, force: true });
      await shared.cleanup();
    }
  }, 600_000);

  it('finds a rewrite of the whole table with its checkpoints recomputed, against a checkpoint kept outside', async () => {
    const shared = await sharedDatabase();
    const dir = mkdtempSync(join(tmpdir(), 'fp-kept-'));
    try {
      let db = shared.database;
      const file = join(dir, 'checkpoints.txt');
      // The server's own hand-over: the sealer appends each checkpoint to AUDIT_CHECKPOINT_FILE.
      const sealer = createSealer({ db: db.db, signer, intervalMs: 0, anchor: { file, minutes: 60 } });
      for (let round = 0; round < 3; round++) {
        for (let i = 0; i < 5; i++) {
          await recordAudit(db.db, { action: 'test.row', outcome: 'success', target: `r${round}-${i}` });
        }
        await sealer.sealNow();
        expect(await sealer.anchor(true)).toEqual([`file ${file}`]);
      }
      // Not due again within the period, however the tree grew.
      await recordAudit(db.db, { action: 'test.row', outcome: 'success', target: 'late' });
      await sealer.sealNow();
      expect(await sealer.anchor()).toEqual([]);
      const [, , , victim, fifth] = await ids(db);

      // The whole-table rewrite: one row changed, every stored checkpoint dropped and sealed again from
      // the rewritten rows and re-signed with the key derived from APP_KEY (which sits in the database
      // when it is not configured): the database now agrees with itself.
      await behindTriggers(
        db.db,
        sql`update audit_events set target = 'rewritten history' where id = ${victim}`,
        sql`delete from audit_checkpoints`,
      );
      await createSealer({ db: db.db, signer, intervalMs: 0 }).sealNow();
      await shared.pause(db);

      const inside = await cli(shared.env, 'audit:verify');
      expect(inside.code, inside.out).toBe(0);
      expect(inside.out).toContain('Audit trail OK: 16 row(s) checked');
      const outside = await cli(shared.env, 'audit:verify', '--checkpoint', file, '--key', signer.vkey);
      expect(outside.code, outside.out).toBe(1);
      expect(outside.out).toContain('Audit trail does NOT match the kept checkpoint of size 5');
      expect(outside.out).toContain(`the first 5 rows (through row ${fifth}) hash to`);
      db = await shared.reopen();
      await shared.pause(db);
    } finally {
      rmSync(dir, { recursive: true, force: true });
      await shared.cleanup();
    }
  }, 300_000);
});
