// Backup and restore as docs/operations.md tells an operator to do it: pg_dump -Fc of a database the app
// has written to, pg_restore into a new database, and the restored copy checked with the operator's own
// command (audit:verify): the audit trail must still verify against its signed checkpoints, with
// every row there.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditOrigin, checkpointSigner } from '../src/modules/audit/checkpoint.ts';
import { createSealer } from '../src/modules/audit/sealer.ts';
import { verifyTrail } from '../src/modules/audit/verify.ts';
import { createTestApp, createUser, signIn, TEST_APP_KEY, type TestApp } from '../test/support/app.ts';
import { createTestDatabase } from '../test/support/db.ts';

const run = promisify(execFile);
const serverRoot = fileURLToPath(new URL('..', import.meta.url));
const adminUrl = process.env.TEST_DATABASE_URL ?? '';
const restoredName = `fp_restore_${randomBytes(5).toString('hex')}`;
const dir = mkdtempSync(join(tmpdir(), 'fp-backup-'));
let database: Awaited<ReturnType<typeof createTestDatabase>>;
let t: TestApp;

const urlOf = (name: string) => {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
};

async function onServer(url: string, query: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(query)).rows;
  } finally {
    await client.end();
  }
}

/** Rows per table the restore must keep: accounts, the books, the lookups and the audit trail. */
const counted = [
  'users',
  'credit_entries',
  'lookups',
  'audit_events',
  'audit_chain_head',
  'audit_checkpoints',
];
const signer = checkpointSigner(TEST_APP_KEY, auditOrigin('http://footprint.test'));
const countsOf = async (url: string) =>
  (
    await onServer(
      url,
      counted.map((table) => `select '${table}' as t, count(*)::int as n from ${table}`).join(' union all '),
    )
  )
    .map((row) => `${row.t}: ${row.n}`)
    .sort();

beforeAll(async () => {
  if (!adminUrl) throw new Error('The stress suite runs on PostgreSQL: set TEST_DATABASE_URL.');
  database = await createTestDatabase();
  t = await createTestApp({ database, env: { COST_TEL: '1' } });
  // A small database: an account, its sign-in and a few paid lookups, each in the audit trail.
  const user = await createUser(t.db, { appMode: 'live', credits: 20 });
  const { token, deviceId } = await signIn(t, user.email, user.password);
  for (let i = 0; i < 5; i++) {
    const res = await t.app.inject({
      url: `/api/tel?number=91${9800000000 + i}`,
      headers: { authorization: `Bearer ${token}`, 'x-device-id': deviceId },
    });
    expect(res.statusCode, res.body).toBe(200);
  }
}, 120_000);

afterAll(async () => {
  await t?.close();
  await database?.close();
  if (adminUrl) await onServer(adminUrl, `drop database if exists ${restoredName} with (force)`);
  rmSync(dir, { recursive: true, force: true });
});

describe('backup and restore with pg_dump and pg_restore (PostgreSQL)', () => {
  it('restores every row, and the audit trail of the copy verifies with the same checkpoints', async () => {
    const source = database.url!;
    await createSealer({ db: t.db, signer, intervalMs: 0 }).sealNow();
    const original = await verifyTrail(t.db, { verifier: signer });
    expect(original.status).toBe('intact');
    expect(original.pending).toBe(0);
    expect(original.checked).toBeGreaterThanOrEqual(6); // the sign-in and the five lookups at least

    const dump = join(dir, 'footprint.dump');
    await run('pg_dump', ['--format=custom', `--file=${dump}`, `--dbname=${source}`]);
    await onServer(adminUrl, `create database ${restoredName}`);
    const restored = urlOf(restoredName);
    await run('pg_restore', ['--exit-on-error', '--no-password', `--dbname=${restored}`, dump]);

    expect(await countsOf(restored)).toEqual(await countsOf(source));
    // The operator's command on the restored copy, as docs/operations.md runs it.
    const { stdout } = await run(process.execPath, ['--import', 'tsx', 'src/cli/index.ts', 'audit:verify'], {
      cwd: serverRoot,
      env: {
        PATH: process.env.PATH ?? '',
        NODE_ENV: 'test',
        LOG_LEVEL: 'warn',
        DATABASE_URL: restored,
        APP_KEY: TEST_APP_KEY,
        APP_URL: 'http://footprint.test',
      },
    });
    expect(stdout).toContain(
      `Audit trail OK: ${original.checked} row(s) checked; legacy chain head row ${original.head.id}, ` +
        `head hash ${original.head.hash}; ${original.checkpointsChecked} checkpoint(s) checked, tree size ` +
        `${original.checkpoint!.treeSize}, root ${original.checkpoint!.rootHash}; 0 row(s) not sealed yet.`,
    );
  }, 120_000);
});
