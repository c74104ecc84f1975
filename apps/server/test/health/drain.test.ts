// SIGTERM to a real server process: readiness fails at once, the server keeps serving for
// SHUTDOWN_DRAIN_SECONDS, then refuses new connections while a request in flight completes, and exits 0.
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, it } from 'vitest';
import { createTestDatabase } from '../support/db.ts';

const serverRoot = fileURLToPath(new URL('../..', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'fp-drain-'));
let child: ChildProcess | undefined;
let database: Awaited<ReturnType<typeof createTestDatabase>> | undefined;

afterAll(async () => {
  if (child && child.exitCode === null) child.kill('SIGKILL');
  await database?.close();
  rmSync(dir, { recursive: true, force: true });
});

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

it('drains on SIGTERM: ready 503 at once, still serving, then a request in flight completes and the process exits 0', async () => {
  // PostgreSQL when the suite has it (a fresh database from the template), else PGlite in a folder.
  database = process.env.TEST_DATABASE_URL ? await createTestDatabase() : undefined;
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: serverRoot,
    env: {
      PATH: process.env.PATH ?? '',
      NODE_ENV: 'test',
      LOG_LEVEL: 'info',
      HOST: '127.0.0.1',
      PORT: String(port),
      SEED_DEMO: 'false',
      SANDBOX_LEAK_RECORDS: '0',
      SHUTDOWN_DRAIN_SECONDS: '2',
      ...(database?.url ? { DATABASE_URL: database.url } : { DATA_DIR: dir }),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk) => {
    output += String(chunk);
  });
  child.stderr?.on('data', (chunk) => {
    output += String(chunk);
  });
  const exited = once(child, 'exit');
  const deadline = Date.now() + 100_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited ${child.exitCode}:\n${output}`);
    const ok = await fetch(`${base}/api/health/ready`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    if (Date.now() > deadline) throw new Error(`server not ready:\n${output}`);
    await sleep(200);
  }

  // A request in flight: its headers and half its body sent, the rest after the drain.
  const body = JSON.stringify({ email: 'nobody@example.test', password: 'not-the-password' });
  const socket = connect(port, '127.0.0.1');
  await once(socket, 'connect');
  let answer = '';
  socket.on('data', (chunk) => {
    answer += String(chunk);
  });
  socket.write(
    `POST /api/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nX-Device-Id: drain-test\r\nConnection: close\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body.slice(0, 10)}`,
  );
  await sleep(200);

  const signalled = Date.now();
  child.kill('SIGTERM');
  // Readiness fails at once (well inside the drain period)…
  let ready: Response | undefined;
  while (Date.now() - signalled < 1500) {
    ready = await fetch(`${base}/api/health/ready`);
    if (ready.status === 503) break;
    await sleep(50);
  }
  expect(ready?.status).toBe(503);
  expect(ready?.headers.get('retry-after')).toBeTruthy();
  expect(await ready?.json()).toMatchObject({ failing: ['draining'], checks: { draining: true } });
  // …while the server still serves other requests.
  expect((await fetch(`${base}/api/registration-status`)).status).toBe(200);
  expect(Date.now() - signalled).toBeLessThan(2000);

  // After the drain period new connections are refused, though the request in flight is still open.
  let refused = false;
  while (!refused && Date.now() - signalled < 10_000) {
    refused = await fetch(`${base}/api/health/live`).then(
      () => false,
      () => true,
    );
    if (!refused) await sleep(100);
  }
  expect(refused).toBe(true);
  expect(Date.now() - signalled).toBeGreaterThanOrEqual(2000);
  expect(child.exitCode).toBeNull();

  socket.write(body.slice(10));
  await once(socket, 'close');
  expect(answer).toMatch(/^HTTP\/1\.1 (401|422) /);

  const [code] = (await exited) as [number];
  expect(code).toBe(0);
  for (const step of ['shutting down', 'drain period over', 'requests in flight finished', '"stopped"']) {
    expect(output).toContain(step);
  }
}, 150_000);
