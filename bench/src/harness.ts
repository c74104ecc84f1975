import { type ChildProcess, spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

export const root = fileURLToPath(new URL('../..', import.meta.url));
export const adminUrl =
  process.env.BENCH_DATABASE_URL ??
  process.env.TEST_DATABASE_URL ??
  'postgres://postgres@127.0.0.1:5432/test';

/** A fresh PostgreSQL database for one benchmark run, dropped afterwards. */
export async function freshDatabase() {
  const name = `fp_bench_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    name,
    async drop() {
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

let sink: Promise<number> | undefined;

/**
 * A mail server that takes the greeting and nothing else: production refuses to start when SMTP_URL
 * cannot be reached, and the benchmarks send no mail. Once per process, on a free port.
 */
function smtpSink(): Promise<number> {
  sink ??= new Promise((resolve) => {
    const server = createServer((socket) => {
      socket.write('220 bench ESMTP\r\n');
      socket.on('data', (chunk) => {
        for (const line of String(chunk).split('\r\n').filter(Boolean)) {
          if (/^quit/i.test(line)) socket.end('221 bye\r\n');
          else socket.write('250 ok\r\n');
        }
      });
      socket.on('error', () => {});
    });
    server.unref();
    server.listen(0, '127.0.0.1', () => resolve((server.address() as { port: number }).port));
  });
  return sink;
}

/**
 * Starts the built server (apps/server/dist/main.js) as its own process and waits for /api/health.
 * `checkout` is the directory of the build to run: this one unless a bench compares with another.
 */
export async function startServer(
  env: Record<string, string>,
  port: number,
  nodeArgs: string[] = [],
  checkout: string = root,
) {
  const child: ChildProcess = spawn(process.execPath, [...nodeArgs, 'apps/server/dist/main.js'], {
    cwd: checkout,
    env: {
      PATH: process.env.PATH ?? '',
      NODE_ENV: 'production',
      // The benchmarks measure the server's own work: synthetic sources, chosen explicitly.
      SANDBOX: 'true',
      HOST: '127.0.0.1',
      // Production refuses to start without SMTP_URL, or with one it cannot reach; no mail is sent.
      SMTP_URL: `smtp://127.0.0.1:${await smtpSink()}`,
      // A benchmark's stop need not wait for a load balancer (production drains 5 s by default).
      SHUTDOWN_DRAIN_SECONDS: '0',
      // Some benchmarks run on the embedded database (without DATABASE_URL in `env`).
      ALLOW_EMBEDDED_DATABASE: 'true',
      PORT: String(port),
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    try {
      const res = await fetch(`http://127.0.0.1:${port}/api/health`);
      if (res.ok) break;
    } catch {}
    if (Date.now() > deadline) throw new Error('server did not start');
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    /** The server process itself, for memory readings. */
    pid: child.pid!,
    async stop() {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    },
  };
}

/** Users with a large balance (granted through the ledger) and a bearer token each, written directly. */
export async function seedUsers(
  databaseUrl: string,
  count: number,
  credits = 1_000_000,
  role: 'user' | 'admin' = 'user',
) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const tokens: string[] = [];
  for (let i = 0; i < count; i++) {
    const token = randomBytes(32).toString('base64url');
    const { rows } = await client.query<{ id: string }>(
      `insert into users (name, email, password_hash, app_mode, role, credits) values ($1, $2, 'x', 'live', $4, $3) returning id`,
      [`Bench User ${i}`, `bench${i}-${randomBytes(3).toString('hex')}@example.test`, credits, role],
    );
    const id = rows[0]!.id;
    await client.query(
      `insert into credit_entries (user_id, delta, balance_after, kind, reason) values ($1, $2, $2, 'grant', 'benchmark')`,
      [id, credits],
    );
    await client.query(
      `insert into auth_tokens (user_id, token_hash, expires_at) values ($1, $2, now() + interval '1 day')`,
      [id, createHash('sha256').update(token).digest('hex')],
    );
    tokens.push(token);
  }
  await client.end();
  return tokens;
}

export interface Sample {
  ms: number;
  status: number;
  serverTiming?: string;
  /** When it was sent, in ms from the start of the load. */
  at?: number;
}

/**
 * A closed-loop load: `workers` concurrent clients, each sending its next request as soon as the last
 * one answered, for `seconds`. Keep-alive connections, like a browser's. All clients start in the
 * same millisecond, so the first answers queue behind each other; with `warmup`, the load runs that
 * many seconds first and keeps only what was sent after them, so what is measured is the steady
 * state. Pass `agent` to reuse the connections of an earlier load.
 */
export async function load(options: {
  port: number;
  seconds: number;
  workers: number;
  path: (worker: number, i: number) => string;
  token: (worker: number) => string;
  agent?: http.Agent;
  warmup?: number;
}): Promise<{ samples: Sample[]; seconds: number }> {
  const agent = options.agent ?? new http.Agent({ keepAlive: true, maxSockets: options.workers });
  const samples: Sample[] = [];
  const begun = performance.now();
  const started = begun + (options.warmup ?? 0) * 1000;
  const end = started + options.seconds * 1000;
  const one = (worker: number, i: number) =>
    new Promise<Sample>((resolve, reject) => {
      const t0 = performance.now();
      const req = http.request(
        {
          host: '127.0.0.1',
          port: options.port,
          path: options.path(worker, i),
          agent,
          headers: { authorization: `Bearer ${options.token(worker)}`, accept: 'application/json' },
        },
        (res) => {
          res.resume();
          res.on('end', () =>
            resolve({
              ms: performance.now() - t0,
              status: res.statusCode ?? 0,
              serverTiming: res.headers['server-timing'] as string | undefined,
              at: t0 - started,
            }),
          );
        },
      );
      req.on('error', reject);
      req.end();
    });
  await Promise.all(
    Array.from({ length: options.workers }, async (_, worker) => {
      for (let i = 0; performance.now() < end; i++) {
        const sample = await one(worker, i);
        if (sample.at! >= 0) samples.push(sample);
      }
    }),
  );
  if (!options.agent) agent.destroy();
  return { samples, seconds: (performance.now() - Math.max(started, begun)) / 1000 };
}

export function percentile(values: number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

export const fmt = (n: number, digits = 1) => (Number.isFinite(n) ? n.toFixed(digits) : 'n/a');
