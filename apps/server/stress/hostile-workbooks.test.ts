// Hostile workbooks against the real server (issue 32): four parallel previews of (a) a ~1 MB XLSX
// whose sheet inflates to ~1 GiB, (b) a small XLSX of 1,000,000 rows, (c) a 200 MB cell, (d) a zip of
// 100,000 entries. Each is refused with its own 4xx and message, the process stays up and serves the
// next list, and its RSS (VmRSS, sampled through the burst) stays within IDLE + RSS_HEADROOM_MB.
import { type ChildProcess, spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { messages } from '@footprint/domain';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../src/db/client.ts';
import { BULK_XLSX_LIMITS } from '../src/modules/bulk/parse.ts';
import { hostile, workbookOf } from '../test/support/xlsx.ts';

/** What the burst may add to the idle process (measured: a few MB; the old reader died at 4.5 GB). */
const RSS_HEADROOM_MB = 150;

const serverRoot = fileURLToPath(new URL('..', import.meta.url));
const adminUrl = process.env.TEST_DATABASE_URL ?? '';
const name = `fp_xlsx_${randomBytes(5).toString('hex')}`;
const url = (() => {
  const u = new URL(adminUrl || 'postgres://127.0.0.1/x');
  u.pathname = `/${name}`;
  return u.toString();
})();
let server: ChildProcess | undefined;

async function admin(query: string) {
  const c = new pg.Client({ connectionString: adminUrl });
  await c.connect();
  await c.query(query);
  await c.end();
}

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });

async function startServer(port: number) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: serverRoot,
    env: {
      PATH: process.env.PATH ?? '',
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      DATABASE_URL: url,
      HOST: '127.0.0.1',
      PORT: String(port),
      SEED_DEMO: 'false',
      SANDBOX_LEAK_RECORDS: '0',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
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

/** The process's resident set in MB, from /proc. */
const rssOf = (pid: number) => {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Math.round(Number(match?.[1] ?? 0) / 1024);
};

beforeAll(async () => {
  if (!adminUrl) throw new Error('The stress suite runs on PostgreSQL: set TEST_DATABASE_URL.');
  await admin(`create database ${name}`);
  const handle = await openDatabase({ url, poolSize: 2 });
  await handle.migrate();
  await handle.close();
}, 120_000);

afterAll(async () => {
  if (server && server.exitCode === null) {
    const exited = new Promise((r) => server!.once('exit', r));
    server.kill('SIGKILL');
    await exited;
  }
  await admin(`drop database if exists ${name} with (force)`);
});

async function seedUser() {
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  const token = randomBytes(32).toString('base64url');
  const { rows } = await pool.query<{ id: string }>(
    `insert into users (name, email, password_hash, app_mode, credits) values ('Workbook Test', $1, 'x', 'live', 100) returning id`,
    [`xlsx-${randomBytes(4).toString('hex')}@example.test`],
  );
  await pool.query(
    `insert into credit_entries (user_id, delta, balance_after, kind, reason) values ($1, 100, 100, 'grant', 'workbook test')`,
    [rows[0]!.id],
  );
  await pool.query(
    `insert into auth_tokens (user_id, token_hash, expires_at) values ($1, $2, now() + interval '1 day')`,
    [rows[0]!.id, createHash('sha256').update(token).digest('hex')],
  );
  await pool.end();
  return token;
}

describe('hostile workbooks against the running server', () => {
  it('refuses four at once with their 4xx, stays up, and keeps its memory', async () => {
    const port = await freePort();
    server = await startServer(port);
    const pid = server.pid!;
    const token = await seedUser();
    const preview = async (file: Buffer, fileName = 'list.xlsx') => {
      const form = new FormData();
      form.append('type', 'tel');
      form.append('file', new Blob([new Uint8Array(file)]), fileName);
      const res = await fetch(`http://127.0.0.1:${port}/api/bulk/preview`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}` },
        body: form,
      });
      return { status: res.status, body: (await res.json()) as { message: string; total?: number } };
    };

    const normal = workbookOf(
      '<row r="1"><c r="A1" t="inlineStr"><is><t>phone</t></is></c></row><row r="2"><c r="A2"><v>9876543210</v></c></row>',
    );
    // Warm the upload path, then the idle resident set.
    expect((await preview(normal)).status).toBe(200);
    const files = {
      bomb: hostile.bomb(),
      millionRows: hostile.millionRows(),
      hugeCell: hostile.hugeCell(),
      manyEntries: hostile.manyEntries(),
    };
    await new Promise((r) => setTimeout(r, 300));
    const idle = rssOf(pid);
    let peak = idle;
    const sampler = setInterval(() => {
      peak = Math.max(peak, rssOf(pid));
    }, 10);
    const started = performance.now();
    const answers = await Promise.all(Object.values(files).map((file) => preview(file)));
    const took = performance.now() - started;
    clearInterval(sampler);
    peak = Math.max(peak, rssOf(pid));

    const megabytes = BULK_XLSX_LIMITS.maxUnpackedBytes / 1024 / 1024;
    expect(answers).toEqual([
      {
        status: 413,
        body: expect.objectContaining({ message: messages.bulkJobs.workbookTooLarge(megabytes) }),
      },
      { status: 422, body: expect.objectContaining({ message: messages.bulkJobs.tooManyRows(10_000) }) },
      {
        status: 413,
        body: expect.objectContaining({ message: messages.bulkJobs.workbookTooLarge(megabytes) }),
      },
      {
        status: 413,
        body: expect.objectContaining({
          message: messages.bulkJobs.workbookTooManyParts(BULK_XLSX_LIMITS.maxEntries),
        }),
      },
    ]);
    expect(server.exitCode).toBeNull();
    const after = await preview(normal);
    expect(after).toEqual({ status: 200, body: expect.objectContaining({ total: 1 }) });
    const settled = rssOf(pid);
    console.log(
      `hostile workbooks: ${Object.entries(files)
        .map(([k, f]) => `${k} ${(f.length / 1e6).toFixed(2)} MB`)
        .join(
          ', ',
        )}; answered in ${took.toFixed(0)} ms; RSS idle ${idle} MB, peak ${peak} MB, after ${settled} MB`,
    );
    expect(peak - idle, `RSS peak ${peak} MB over idle ${idle} MB`).toBeLessThan(RSS_HEADROOM_MB);
  }, 90_000);
});
