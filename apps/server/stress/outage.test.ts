// Outages of the database, Redis and the SMTP server under load: the real server in a child process
// on its OWN PostgreSQL (initdb into a temporary folder, its own port), its own redis-server and an
// SMTP server of the test's, each stopped and started again while requests keep coming and a bulk
// lookup runs. Only 503s with Retry-After or answers, never a 500 or an exit; the bulk job finishes
// with every row charged once; each outage and its recovery are one line each in the log. A page
// captured while the database is away is kept as the browser saw it once the database is back.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer as createHttpServer, type Server } from 'node:http';
import { type AddressInfo, connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DatabaseHandle, openDatabase } from '../src/db/client.ts';
import { authTokens } from '../src/db/schema.ts';
import { randomToken, sha256 } from '../src/security/crypto.ts';
import { createUser } from '../test/support/app.ts';
import { otpCodeOf, type SmtpTestServer, startSmtpServer } from '../test/support/smtp.ts';
import { bookProblems } from './books.ts';

const serverRoot = fileURLToPath(new URL('..', import.meta.url));
const pgBin = (() => {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root) ? readdirSync(root).sort((a, b) => Number(b) - Number(a)) : [];
  const found = versions.map((v) => join(root, v, 'bin')).find((bin) => existsSync(join(bin, 'pg_ctl')));
  if (!found) throw new Error('No PostgreSQL binaries under /usr/lib/postgresql/*/bin');
  return found;
})();

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// ---------- the private PostgreSQL ----------

const dir = mkdtempSync(join(tmpdir(), 'fp-outage-'));
const dataDir = join(dir, 'data');
let pgPort: number;
let dbUrl: string;
/** As the `postgres` user when the test runs as root (initdb refuses root). */
const asPostgres = (command: string, args: string[]) =>
  process.getuid?.() === 0
    ? execFileSync('runuser', ['-u', 'postgres', '--', command, ...args], { stdio: 'pipe' })
    : execFileSync(command, args, { stdio: 'pipe' });
const pgCtl = (...args: string[]) => asPostgres(join(pgBin, 'pg_ctl'), ['-D', dataDir, ...args]);
const startPostgres = () =>
  pgCtl(
    '-o',
    `-p ${pgPort} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off`,
    '-l',
    join(dir, 'postgres.log'),
    '-w',
    'start',
  );
const stopPostgres = () => pgCtl('-m', 'fast', '-w', 'stop');

// ---------- the private Redis and SMTP ----------

let redisPort: number;
let redis: ChildProcess | undefined;
function startRedis() {
  redis = spawn(
    'redis-server',
    ['--port', String(redisPort), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    {
      stdio: 'ignore',
    },
  );
  return waitForPort(redisPort);
}
async function stopRedis() {
  const child = redis;
  if (!child || child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
}
async function waitForPort(port: number) {
  for (let i = 0; i < 100; i++) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    await sleep(50);
  }
  throw new Error(`nothing listens on ${port}`);
}

let smtpPort: number;
let smtp: SmtpTestServer | undefined;

// ---------- a slow page to capture ----------

/** A page on 127.0.0.1 that answers after 4 s, so that the database can stop while it is captured. */
let pages: Server;
let pageRequests = 0;
async function startPages() {
  pages = createHttpServer((req, res) => {
    if (req.url !== '/slow') return void res.writeHead(404).end();
    pageRequests++;
    setTimeout(() => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(
        '<!doctype html><title>Slow synthetic page</title><p>Captured while the database was away.</p>',
      );
    }, 4_000);
  });
  await new Promise<void>((resolve) => pages.listen(0, '127.0.0.1', resolve));
  return (pages.address() as AddressInfo).port;
}
let pagesPort: number;

// ---------- the server ----------

let server: ChildProcess;
let base: string;
let log = '';
const logLines = () =>
  log
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => {
      try {
        return JSON.parse(line) as { msg?: string; kind?: string; downSeconds?: number };
      } catch {
        return {};
      }
    });
const linesSaying = (msg: string) => logLines().filter((line) => line.msg === msg);

async function startServer() {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: serverRoot,
    env: {
      PATH: process.env.PATH ?? '',
      NODE_ENV: 'development',
      HOST: '127.0.0.1',
      PORT: '0',
      DATABASE_URL: dbUrl,
      REDIS_URL: `redis://127.0.0.1:${redisPort}`,
      SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
      APP_KEY: 'outage-test-app-key-0123456789abcdefghij',
      LOG_LEVEL: 'info',
      SANDBOX: 'true',
      SANDBOX_LATENCY: '*=20-40',
      SANDBOX_LEAK_RECORDS: '0',
      SEED_DEMO: 'false',
      COST_TEL: '1',
      BULK_STALE_SECONDS: '3',
      BULK_ROW_CONCURRENCY: '4',
      API_KEY_RATE_LIMIT: '100000',
      CAPTURE_ENABLED: 'true',
      CAPTURE_ALLOW_ADDRESSES: `127.0.0.1:${pagesPort}`,
      CAPTURE_TIMEOUT_MS: '30000',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (chunk) => {
    log += chunk;
  });
  child.stderr!.on('data', (chunk) => {
    log += chunk;
  });
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the server did not start: ${log}`)), 90_000);
    const look = () => {
      const listening = /listening on (\S+?);/.exec(log);
      if (listening) {
        clearTimeout(timer);
        child.stdout!.off('data', look);
        resolve(`http://${listening[1]}`);
      }
    };
    child.stdout!.on('data', look);
    child.once('exit', (code) => reject(new Error(`the server exited (${code}): ${log}`)));
  });
  return { child, url };
}

let handle: DatabaseHandle;
let auth: Record<string, string>;
let apiKey: string;
const signInUser = { email: 'outage-signin@example.test', password: 'outage horse battery staple' };

beforeAll(async () => {
  [pgPort, redisPort, smtpPort] = await Promise.all([freePort(), freePort(), freePort()]);
  dbUrl = `postgres://postgres@127.0.0.1:${pgPort}/postgres`;
  chownSync(dir, ...(process.getuid?.() === 0 ? ids('postgres') : [process.getuid!(), process.getgid!()]));
  asPostgres(join(pgBin, 'initdb'), ['-D', dataDir, '-A', 'trust', '-U', 'postgres', '--no-sync']);
  startPostgres();
  await startRedis();
  smtp = await startSmtpServer(smtpPort);
  pagesPort = await startPages();
  ({ child: server, url: base } = await startServer());

  handle = await openDatabase({ url: dbUrl, poolSize: 2 });
  const user = await createUser(handle.db, { appMode: 'live', credits: 10_000 });
  const token = randomToken();
  await handle.db
    .insert(authTokens)
    .values({ userId: user.id, tokenHash: sha256(token), expiresAt: new Date(Date.now() + 3_600_000) });
  auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  await createUser(handle.db, { ...signInUser, appMode: 'live' });
  const key = await fetch(`${base}/api/api-keys`, {
    method: 'POST',
    headers: auth,
    body: JSON.stringify({ name: 'outage test', scopes: ['bulk', 'lookups'] }),
  });
  expect(key.status, await key.clone().text()).toBe(201);
  apiKey = ((await key.json()) as { key: string }).key;
  // Its pool is closed before the outage: only the server's must live through it.
  await handle.close();
}, 150_000);

afterAll(async () => {
  if (server && server.exitCode === null) {
    const exited = new Promise((resolve) => server.once('exit', resolve));
    server.kill('SIGKILL');
    await exited;
  }
  await stopRedis();
  await smtp?.close();
  pages?.closeAllConnections();
  pages?.close();
  try {
    stopPostgres();
  } catch {}
  rmSync(dir, { recursive: true, force: true });
});

/** A user's uid and gid. */
const ids = (user: string): [number, number] => [
  Number(execFileSync('id', ['-u', user]).toString()),
  Number(execFileSync('id', ['-g', user]).toString()),
];

// ---------- load ----------

interface Tally {
  requests: number;
  ok: number;
  unavailable: number;
  withoutRetryAfter: number;
  errors500: number;
  other: Record<number, number>;
  unanswered: number;
}

/** Requests from `workers` loops until stopped: counts of what came back. */
function load(requests: Array<() => Promise<Response>>, workers = 4) {
  const tally: Tally = {
    requests: 0,
    ok: 0,
    unavailable: 0,
    withoutRetryAfter: 0,
    errors500: 0,
    other: {},
    unanswered: 0,
  };
  let stop = false;
  let n = 0;
  const loops = Array.from({ length: workers }, async () => {
    while (!stop) {
      const request = requests[n++ % requests.length]!;
      tally.requests++;
      try {
        const res = await request();
        await res.arrayBuffer();
        if (res.status < 300 || res.status === 403 || res.status === 422) tally.ok++;
        else if (res.status === 503) {
          tally.unavailable++;
          if (!res.headers.get('retry-after')) tally.withoutRetryAfter++;
        } else if (res.status === 500) tally.errors500++;
        else tally.other[res.status] = (tally.other[res.status] ?? 0) + 1;
      } catch {
        tally.unanswered++;
        await sleep(50);
      }
      await sleep(10);
    }
  });
  return {
    tally,
    async stop() {
      stop = true;
      await Promise.all(loops);
      return tally;
    },
  };
}

/** How long after `since` the first request answered 200 again. */
async function recoveredAfter(request: () => Promise<Response>, since: number) {
  for (;;) {
    const res = await request().catch(() => undefined);
    await res?.arrayBuffer();
    if (res?.status === 200) return (performance.now() - since) / 1000;
    if (performance.now() - since > 30_000) throw new Error('not recovered within 30 s');
    await sleep(100);
  }
}

let numbers = 0;
const userRead = () => fetch(`${base}/api/user`, { headers: auth });
const lookup = () => fetch(`${base}/api/tel?number=91${7300000000 + numbers++}`, { headers: auth });
const keyRead = () => fetch(`${base}/api/bulk`, { headers: { authorization: `Bearer ${apiKey}` } });
/** A failed sign-in: counted by the rate limits of the address and of the account and address. */
const wrongLogin = () =>
  fetch(`${base}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: `nobody${numbers++}@example.test`, password: 'not the password' }),
  });

const summary = (t: Tally) =>
  `${t.requests} requests: ${t.ok} answered, ${t.unavailable} × 503, ${t.errors500} × 500, ${t.unanswered} unanswered`;

describe('outages under load (private PostgreSQL, Redis and SMTP)', () => {
  it('database: 10 s stopped during a bulk job gives 503s with Retry-After, no 500, no exit; the job finishes with every row', async () => {
    const rows = 240;
    const created = await fetch(`${base}/api/bulk`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({
        type: 'tel',
        values: Array.from({ length: rows }, (_, i) => String(6_400_000_000 + i)),
        case_reference: 'OP-OUTAGE',
      }),
    });
    expect(created.status).toBe(202);
    const { id } = (await created.json()) as { id: string };
    const job = async () =>
      (await (await fetch(`${base}/api/bulk/${id}`, { headers: auth })).json()) as {
        status: string;
        done: number;
        total: number;
        charged: number;
      };
    for (let i = 0; i < 200 && (await job()).done < 40; i++) await sleep(100);

    const traffic = load([userRead, lookup, () => fetch(`${base}/api/bulk/${id}`, { headers: auth })]);
    await sleep(1_000);
    const before = await job();
    expect(before.done, 'the job runs when the database stops').toBeLessThan(rows);
    stopPostgres();
    await sleep(10_000);
    expect(server.exitCode, 'the server is still running').toBeNull();
    startPostgres();
    const restarted = performance.now();
    const recovery = await recoveredAfter(userRead, restarted);
    await sleep(2_000);
    const tally = await traffic.stop();

    const deadline = Date.now() + 40_000;
    let after = await job();
    while (after.status !== 'done' && Date.now() < deadline) {
      await sleep(250);
      after = await job();
    }
    const finished = (performance.now() - restarted) / 1000;
    console.log(
      `database outage: ${summary(tally)}; answering again ${recovery.toFixed(1)} s after the restart; bulk job ${before.done}/${rows} rows at the stop, ${after.status} ${after.done}/${rows} ${finished.toFixed(1)} s after the restart`,
    );
    expect(tally.errors500).toBe(0);
    expect(tally.unanswered, 'the server never stopped answering').toBe(0);
    expect(tally.unavailable, '503s during the outage').toBeGreaterThan(0);
    expect(tally.withoutRetryAfter).toBe(0);
    expect(tally.other).toEqual({});
    expect(server.exitCode).toBeNull();
    expect(after).toMatchObject({ status: 'done', total: rows, done: rows, charged: rows });

    // The books, as `npm run cli -- ledger:check` checks them and more: every balance equals its
    // ledger, every charge has its lookup, none was charged twice.
    handle = await openDatabase({ url: dbUrl, poolSize: 2 });
    try {
      expect(await bookProblems(handle.db)).toEqual([]);
    } finally {
      await handle.close();
    }

    // One line for the outage and one for the recovery; no stack per request.
    expect(linesSaying('database unreachable')).toHaveLength(1);
    expect(linesSaying('database reachable again')).toHaveLength(1);
    expect(linesSaying('database reachable again')[0]!.downSeconds).toBeGreaterThanOrEqual(9);
    expect(log).not.toContain('DrizzleQueryError');
    expect(linesSaying('unhandled error')).toEqual([]);
  }, 120_000);

  it('Redis: killed and started again, rate-limited requests answer or 503, no exit, one line each', async () => {
    const traffic = load([keyRead, wrongLogin]);
    await sleep(500);
    await stopRedis();
    await sleep(4_000);
    await startRedis();
    const restarted = performance.now();
    for (let i = 0; i < 100 && linesSaying('redis reachable again').length === 0; i++) await sleep(100);
    const recovery = (performance.now() - restarted) / 1000;
    await sleep(1_000);
    const tally = await traffic.stop();
    console.log(`Redis outage: ${summary(tally)}; reconnected ${recovery.toFixed(1)} s after the restart`);
    expect(tally.errors500).toBe(0);
    expect(tally.unanswered).toBe(0);
    expect(tally.withoutRetryAfter).toBe(0);
    expect(server.exitCode).toBeNull();
    expect(linesSaying('redis unreachable')).toHaveLength(1);
    expect(linesSaying('redis reachable again')).toHaveLength(1);
    expect(log).not.toContain('Unhandled error event');
  }, 60_000);

  it('SMTP: stopped, a sign-in that mails a code answers 503 with Retry-After; started again, the code arrives and works', async () => {
    const deviceId = 'outage-device-0001';
    const login = () =>
      fetch(`${base}/api/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-device-id': deviceId },
        body: JSON.stringify(signInUser),
      });
    await smtp!.close();
    const refused: Array<{ status: number; retryAfter: string | null; message: string }> = [];
    for (let i = 0; i < 3; i++) {
      const res = await login();
      refused.push({
        status: res.status,
        retryAfter: res.headers.get('retry-after'),
        message: ((await res.json()) as { message: string }).message,
      });
    }
    expect(refused.map((r) => r.status)).toEqual([503, 503, 503]);
    expect(refused.every((r) => Number(r.retryAfter) > 0)).toBe(true);
    expect(refused[0]!.message).toMatch(/briefly unavailable/);
    expect(server.exitCode).toBeNull();

    smtp = await startSmtpServer(smtpPort);
    const restarted = performance.now();
    const res = await login();
    const recovery = (performance.now() - restarted) / 1000;
    // 403 with otp_required: the code is mailed (spec §3).
    expect(res.status, await res.clone().text()).toBe(403);
    expect(((await res.json()) as { otp_required?: boolean }).otp_required).toBe(true);
    const mail = await smtp.waitFor((m) => m.to.includes(signInUser.email));
    const verify = await fetch(`${base}/api/verify-email-otp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-device-id': deviceId },
      body: JSON.stringify({ email: signInUser.email, otp: otpCodeOf(mail) }),
    });
    expect(verify.status, await verify.clone().text()).toBe(200);
    console.log(
      `SMTP outage: ${refused.length} sign-ins answered 503 (Retry-After ${refused[0]!.retryAfter} s); signed in ${recovery.toFixed(1)} s after the restart`,
    );
    for (let i = 0; i < 30 && linesSaying('smtp reachable again').length === 0; i++) await sleep(100);
    expect(linesSaying('smtp unreachable')).toHaveLength(1);
    expect(linesSaying('smtp reachable again')).toHaveLength(1);
    expect(server.exitCode).toBeNull();
  }, 60_000);

  it('database: stopped while a page is captured, the page as captured is kept once it is back, not fetched again', async () => {
    const created = await fetch(`${base}/api/cases`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ title: 'Outage capture' }),
    });
    expect(created.status, await created.clone().text()).toBe(201);
    const caseId = ((await created.json()) as { id: string }).id;
    const asked = await fetch(`${base}/api/cases/${caseId}/captures`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ url: `http://127.0.0.1:${pagesPort}/slow` }),
    });
    expect(asked.status, await asked.clone().text()).toBe(202);
    const captureId = ((await asked.json()) as { capture: { id: string } }).capture.id;
    const capture = () => fetch(`${base}/api/cases/${caseId}/captures/${captureId}`, { headers: auth });

    // The browser has asked for the page, which answers in 4 s: the database stops meanwhile.
    for (let i = 0; i < 600 && pageRequests === 0; i++) await sleep(50);
    expect(pageRequests, "the capture's browser asked for the page").toBe(1);
    stopPostgres();
    const stoppedAt = new Date();
    const during = await capture();
    expect(during.status).toBe(503);
    expect(Number(during.headers.get('retry-after'))).toBeGreaterThan(0);
    await sleep(8_000);
    expect(server.exitCode, 'the server is still running').toBeNull();
    startPostgres();
    const restartedAt = new Date();

    let seen: { status: string; captured_at: string | null; files: Array<{ name: string }> } | undefined;
    for (let i = 0; i < 240; i++) {
      const res = await capture().catch(() => undefined);
      if (res?.status === 200) {
        seen = ((await res.json()) as { capture: NonNullable<typeof seen> }).capture;
        if (seen.status !== 'queued' && seen.status !== 'running') break;
      } else await res?.arrayBuffer();
      await sleep(250);
    }
    const kept = (Date.now() - restartedAt.getTime()) / 1000;
    console.log(
      `database outage during a capture: ${seen?.status} ${kept.toFixed(1)} s after the restart; the page was asked for ${pageRequests} time(s)`,
    );
    expect(seen?.status).toBe('done');
    // The page as the browser saw it while the database was away, not fetched again after.
    expect(pageRequests).toBe(1);
    const capturedAt = new Date(seen!.captured_at!);
    expect(capturedAt.getTime()).toBeGreaterThan(stoppedAt.getTime());
    expect(capturedAt.getTime()).toBeLessThan(restartedAt.getTime());
    const text = await fetch(`${base}/api/cases/${caseId}/captures/${captureId}/files/page.txt`, {
      headers: auth,
    });
    expect(text.status).toBe(200);
    expect(await text.text()).toContain('Captured while the database was away.');
    expect(server.exitCode).toBeNull();
    expect(linesSaying('unhandled error')).toEqual([]);
  }, 120_000);
});
