// Crashes: kill -9 the server in the middle of a stream of paid lookups and the importer in the middle
// of a leak import, restart, and check the books and the leak index.
import { type ChildProcess, spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DatabaseHandle, openDatabase } from '../src/db/client.ts';
import { bookProblems } from './books.ts';

const serverRoot = fileURLToPath(new URL('..', import.meta.url));
const adminUrl = process.env.TEST_DATABASE_URL ?? '';
const name = `fp_crash_${randomBytes(5).toString('hex')}`;
const url = (() => {
  const u = new URL(adminUrl || 'postgres://127.0.0.1/x');
  u.pathname = `/${name}`;
  return u.toString();
})();
let handle: DatabaseHandle;
let pool: pg.Pool;
const dir = mkdtempSync(join(tmpdir(), 'fp-crash-'));

async function admin(query: string) {
  const c = new pg.Client({ connectionString: adminUrl });
  await c.connect();
  await c.query(query);
  await c.end();
}

beforeAll(async () => {
  if (!adminUrl) throw new Error('The stress suite runs on PostgreSQL: set TEST_DATABASE_URL.');
  await admin(`create database ${name}`);
  handle = await openDatabase({ url, poolSize: 5 });
  await handle.migrate();
  pool = new pg.Pool({ connectionString: url, max: 3 });
}, 120_000);

afterAll(async () => {
  await pool?.end();
  await handle?.close();
  await admin(`drop database if exists ${name} with (force)`);
  rmSync(dir, { recursive: true, force: true });
});

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });

function spawnNode(args: string[], env: Record<string, string>): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', ...args], {
    cwd: serverRoot,
    env: { PATH: process.env.PATH ?? '', NODE_ENV: 'test', LOG_LEVEL: 'warn', DATABASE_URL: url, ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

async function startServer(port: number, env: Record<string, string> = {}) {
  const child = spawnNode(['src/main.ts'], {
    HOST: '127.0.0.1',
    PORT: String(port),
    SEED_DEMO: 'false',
    SANDBOX_LEAK_RECORDS: '0',
    // Slow sources, so that many lookups are in flight when the process dies.
    SANDBOX_LATENCY: '*=100-900',
    // A lookup still pending this long after it was charged belongs to a dead process: refund it.
    // Start refuses an abandon age under twice the provider timeout, so the timeout is short too.
    LOOKUP_ABANDON_SECONDS: '3',
    PROVIDER_TIMEOUT_MS: '1500',
    ...env,
  });
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited ${child.exitCode}`);
    try {
      if ((await fetch(`http://127.0.0.1:${port}/api/health`)).ok) return child;
    } catch {}
    if (Date.now() > deadline) throw new Error('server did not start');
    await new Promise((r) => setTimeout(r, 200));
  }
}

const killHard = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });

async function seedUser(credits: number) {
  const token = randomBytes(32).toString('base64url');
  const { rows } = await pool.query<{ id: string }>(
    `insert into users (name, email, password_hash, app_mode, credits) values ('Crash Test', $1, 'x', 'live', $2) returning id`,
    [`crash-${randomBytes(4).toString('hex')}@example.test`, credits],
  );
  const id = rows[0]!.id;
  await pool.query(
    `insert into credit_entries (user_id, delta, balance_after, kind, reason) values ($1, $2, $2, 'grant', 'crash test')`,
    [id, credits],
  );
  await pool.query(
    `insert into auth_tokens (user_id, token_hash, expires_at) values ($1, $2, now() + interval '1 day')`,
    [id, createHash('sha256').update(token).digest('hex')],
  );
  return { id, token };
}

describe('crash in the middle of paid lookups', () => {
  it('keeps every charge with its lookup, and refunds the lookups the dead process left pending', async () => {
    const port = await freePort();
    let server = await startServer(port);
    const { id, token } = await seedUser(10_000);
    let stop = false;
    let answered = 0;
    let n = 0;
    const stream = Array.from({ length: 12 }, async () => {
      while (!stop) {
        const number = `91${7100000000 + n++}`;
        try {
          const res = await fetch(`http://127.0.0.1:${port}/api/tel?number=${number}`, {
            headers: { authorization: `Bearer ${token}` },
          });
          await res.arrayBuffer();
          if (res.ok) answered++;
        } catch {
          return; // the server is gone
        }
      }
    });
    await new Promise((r) => setTimeout(r, 2_500));
    await killHard(server);
    stop = true;
    await Promise.all(stream);
    expect(answered).toBeGreaterThan(0);

    // Right after the crash: no charge without its lookup, no paid lookup without its charge.
    const { rows: pending } = await pool.query<{ n: number }>(
      `select count(*)::int as n from lookups where user_id = $1 and status = 'pending'`,
      [id],
    );
    expect(pending[0]!.n, 'lookups in flight when the process died').toBeGreaterThan(0);
    expect(await bookProblems(handle.db)).toEqual([]);

    // Restart: the abandoned lookups are refunded, once, and the books still balance.
    server = await startServer(port);
    const deadline = Date.now() + 30_000;
    let left = pending[0]!.n;
    while (left > 0 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 500));
      const { rows } = await pool.query<{ n: number }>(
        `select count(*)::int as n from lookups where user_id = $1 and status = 'pending'`,
        [id],
      );
      left = rows[0]!.n;
    }
    expect(left, 'pending lookups after the restart').toBe(0);
    const { rows: refunds } = await pool.query<{ n: number }>(
      `select count(*)::int as n from credit_entries where user_id = $1 and kind = 'refund'`,
      [id],
    );
    expect(refunds[0]!.n).toBeGreaterThanOrEqual(pending[0]!.n);
    expect(await bookProblems(handle.db)).toEqual([]);
    console.log(
      `crash: ${answered} lookups answered before kill -9, ${pending[0]!.n} pending at the crash, all refunded after restart`,
    );
    // The restarted server still serves paid lookups.
    const res = await fetch(`http://127.0.0.1:${port}/api/tel?number=917199999999`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(res.status).toBe(200);
    await killHard(server);
    expect(await bookProblems(handle.db)).toEqual([]);
  }, 180_000);
});

describe('crash of the host writer in the middle of paid lookups', () => {
  it('two processes on one host writer: kill -9 the writer, the other carries on alone, then as the writer; the books balance', async () => {
    const [portA, portB] = [await freePort(), await freePort()];
    // The first to start holds the host's socket: every charge and answer of the second goes through it.
    const writer = await startServer(portA, { HOST_WRITER: 'true' });
    const other = await startServer(portB, { HOST_WRITER: 'true' });
    const { id, token } = await seedUser(10_000);
    const statuses = new Map<number, number>();
    let afterKill = 0;
    let killed = false;
    let stop = false;
    let n = 0;
    const stream = Array.from({ length: 12 }, async () => {
      while (!stop) {
        const number = `91${7200000000 + n++}`;
        const res = await fetch(`http://127.0.0.1:${portB}/api/tel?number=${number}`, {
          headers: { authorization: `Bearer ${token}` },
        });
        await res.arrayBuffer();
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        if (killed && res.ok) afterKill++;
      }
    });
    await new Promise((r) => setTimeout(r, 2_500));
    await killHard(writer);
    killed = true;
    await new Promise((r) => setTimeout(r, 3_000));
    stop = true;
    await Promise.all(stream);

    // The second process answered before and after: charges it had in flight through the writer
    // failed as a lost connection does (503, never 500), the rest were written by itself or by itself
    // as the host's writer.
    expect(afterKill, 'lookups answered after the writer died').toBeGreaterThan(0);
    expect([...statuses.keys()].filter((status) => status !== 200 && status !== 503)).toEqual([]);
    expect(await bookProblems(handle.db)).toEqual([]);

    // Whatever the writer left pending is refunded once by the sweep of the process left.
    const deadline = Date.now() + 30_000;
    let left = -1;
    while (left !== 0 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 500));
      const { rows } = await pool.query<{ n: number }>(
        `select count(*)::int as n from lookups where user_id = $1 and status = 'pending'`,
        [id],
      );
      left = rows[0]!.n;
    }
    expect(left, 'pending lookups after the sweep').toBe(0);
    expect(await bookProblems(handle.db)).toEqual([]);
    console.log(
      `host writer crash: ${statuses.get(200) ?? 0} answered by the second process (${afterKill} after the kill -9), ${statuses.get(503) ?? 0} × 503`,
    );
    await killHard(other);
  }, 180_000);
});

describe('crash in the middle of a leak import', () => {
  it('resumes: re-running the import completes the source exactly, and a third run adds nothing', async () => {
    const rows = 120_000;
    const file = join(dir, 'dump.csv');
    await new Promise<void>((resolve) => {
      const out = createWriteStream(file);
      out.write('full_name,email,phone,username,password\n');
      for (let i = 0; i < rows; i++) {
        out.write(
          `Person ${i} Crashtest,person${i}@example.test,+91 9${String(i).padStart(9, '0')},person_${i},secret${i}\n`,
        );
      }
      out.end(resolve);
    });
    const args = [
      'src/cli/index.ts',
      'leaks:import',
      file,
      '--source',
      'Crash Test Dump',
      '--rejects',
      join(dir, 'rejects.jsonl'),
    ];
    const count = async () =>
      Number(
        (
          await pool.query<{ n: string }>(
            `select count(*) as n from leak_records r join leak_sources s on s.id = r.source_id where s.name = 'Crash Test Dump'`,
          )
        ).rows[0]!.n,
      );

    const first = spawnNode(args, {});
    // Kill it once some batches have committed.
    const deadline = Date.now() + 60_000;
    while ((await count()) < 10_000 && Date.now() < deadline && first.exitCode === null) {
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(first.exitCode, 'the import finished before it could be killed').toBeNull();
    await killHard(first);
    const partial = await count();
    expect(partial).toBeGreaterThan(0);
    expect(partial).toBeLessThan(rows);
    // Whole batches only: each is one transaction of 5,000 rows.
    expect(partial % 5_000).toBe(0);
    console.log(
      `import crash: ${partial} of ${rows} rows committed when killed; the re-run completed the source`,
    );

    const rerun = async () =>
      new Promise<number>((resolve) => spawnNode(args, {}).once('exit', (code) => resolve(code ?? -1)));
    expect(await rerun()).toBe(0);
    expect(await count()).toBe(rows);
    const { rows: source } = await pool.query<{ record_count: string }>(
      `select record_count from leak_sources where name = 'Crash Test Dump'`,
    );
    expect(Number(source[0]!.record_count)).toBe(rows);
    expect(await rerun()).toBe(0);
    expect(await count()).toBe(rows);
    // The password column was never stored.
    const { rows: leaked } = await pool.query<{ n: string }>(
      `select count(*) as n from leak_records where other::text like '%secret%'`,
    );
    expect(Number(leaked[0]!.n)).toBe(0);
  }, 180_000);
});
