// Deploys on PostgreSQL: three server processes started together on an empty database all come up
// (the migrations run under an advisory lock), and a pipeline's `migrate` command lets servers
// started with MIGRATE_ON_START=false come up once it has run.
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';

const serverRoot = fileURLToPath(new URL('..', import.meta.url));
const adminUrl = process.env.TEST_DATABASE_URL ?? '';
const names = [`fp_start_${randomBytes(4).toString('hex')}`, `fp_migrate_${randomBytes(4).toString('hex')}`];
const urlOf = (name: string) => {
  const u = new URL(adminUrl || 'postgres://127.0.0.1/x');
  u.pathname = `/${name}`;
  return u.toString();
};
const children: ChildProcess[] = [];

async function admin(query: string) {
  const c = new pg.Client({ connectionString: adminUrl });
  await c.connect();
  try {
    await c.query(query);
  } finally {
    await c.end();
  }
}

beforeAll(async () => {
  if (!adminUrl) throw new Error('The stress suite runs on PostgreSQL: set TEST_DATABASE_URL.');
  for (const name of names) await admin(`create database ${name}`);
});

afterAll(async () => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  for (const name of names) await admin(`drop database if exists ${name} with (force)`);
});

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });

function spawnNode(args: string[], env: Record<string, string>) {
  const child = spawn(process.execPath, ['--import', 'tsx', ...args], {
    cwd: serverRoot,
    env: { PATH: process.env.PATH ?? '', NODE_ENV: 'test', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let output = '';
  child.stdout?.on('data', (chunk) => {
    output += String(chunk);
  });
  child.stderr?.on('data', (chunk) => {
    output += String(chunk);
  });
  return { child, output: () => output };
}

function startServer(url: string, port: number, env: Record<string, string> = {}) {
  return spawnNode(['src/main.ts'], {
    DATABASE_URL: url,
    HOST: '127.0.0.1',
    PORT: String(port),
    SEED_DEMO: 'false',
    SANDBOX_LEAK_RECORDS: '0',
    ...env,
  });
}

/** Waits for 200 from /api/health/ready; fails at once if the process exits. */
async function ready(server: ReturnType<typeof startServer>, port: number, ms = 200_000) {
  const deadline = Date.now() + ms;
  let last = 'no answer';
  for (;;) {
    if (server.child.exitCode !== null)
      throw new Error(`server exited ${server.child.exitCode}:\n${server.output()}`);
    const res = await fetch(`http://127.0.0.1:${port}/api/health/ready`).catch(() => undefined);
    if (res?.status === 200) return (await res.json()) as { checks: Record<string, unknown> };
    if (res) last = `${res.status} ${await res.text()}`;
    if (Date.now() > deadline) throw new Error(`not ready (last: ${last}):\n${server.output()}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

it('three servers started together on an empty database all become ready', async () => {
  const url = urlOf(names[0] as string);
  const ports = await Promise.all([freePort(), freePort(), freePort()]);
  const servers = ports.map((port) => startServer(url, port));
  const verdicts = await Promise.all(servers.map((server, i) => ready(server, ports[i] as number)));
  for (const verdict of verdicts) {
    expect(verdict.checks).toMatchObject({ database: 'ok', migrations: 'ok', jobs: 'ok', draining: false });
  }
  for (const server of servers) {
    expect(server.output()).not.toMatch(/duplicate key|unhandled|Error:/i);
    server.child.kill('SIGTERM');
  }
  await Promise.all(servers.map((server) => once(server.child, 'exit')));
  expect(servers.map((server) => server.child.exitCode)).toEqual([0, 0, 0]);
}, 240_000);

it('MIGRATE_ON_START=false: a server waits for the migrate command, which applies the migrations once', async () => {
  const url = urlOf(names[1] as string);
  const port = await freePort();
  const server = startServer(url, port, { MIGRATE_ON_START: 'false', LOG_LEVEL: 'info' });
  const waiting = Date.now() + 100_000;
  while (!server.output().includes('Waiting for')) {
    if (server.child.exitCode !== null || Date.now() > waiting)
      throw new Error(`no wait for migrations:\n${server.output()}`);
    await new Promise((r) => setTimeout(r, 250));
  }
  expect(await fetch(`http://127.0.0.1:${port}/api/health/live`).catch(() => 'refused')).toBe('refused');

  const run = async () => {
    const cli = spawnNode(['src/cli/index.ts', 'migrate'], { DATABASE_URL: url });
    const [code] = (await once(cli.child, 'exit')) as [number];
    return { code, output: cli.output() };
  };
  const first = await run();
  expect(first).toMatchObject({
    code: 0,
    output: expect.stringMatching(/Migrations: applied \d+; the database is current/),
  });
  const again = await run();
  expect(again).toMatchObject({ code: 0, output: expect.stringContaining('Migrations: none to apply') });

  expect((await ready(server, port)).checks).toMatchObject({ migrations: 'ok' });
  server.child.kill('SIGTERM');
  const [code] = (await once(server.child, 'exit')) as [number];
  expect(code).toBe(0);
}, 240_000);
