import { type ChildProcess, type SpawnOptions, spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import PostalMime from 'postal-mime';
import { SMTPServer } from 'smtp-server';

export const root = fileURLToPath(new URL('../..', import.meta.url));
export const adminUrl =
  process.env.BENCH_DATABASE_URL ??
  process.env.TEST_DATABASE_URL ??
  'postgres://postgres@127.0.0.1:5432/test';

// ---------------------------------------------------------------- cleanups

type Cleanup = { name: string; run: () => unknown; sync?: (() => void) | undefined };
const cleanups = new Set<Cleanup>();
let cleaning: Promise<void> | null = null;

/**
 * Registers something to undo whatever happens: it runs when the bench ends (main()), on an uncaught
 * error, on SIGINT/SIGTERM/SIGHUP, newest first. `sync`, if given, is what can still be done in the
 * process's 'exit' handler (no awaiting there), e.g. killing a child's process group. Returns the
 * function that runs it now and unregisters it (a stop() that ran need not run again).
 */
export function onCleanup(name: string, run: () => unknown, sync?: () => void): () => Promise<void> {
  const entry: Cleanup = { name, run, sync };
  cleanups.add(entry);
  return async () => {
    if (!cleanups.delete(entry)) return;
    await run();
  };
}

/** Runs every registered cleanup (newest first), each at most once; errors are printed, not thrown. */
export function runCleanups(): Promise<void> {
  cleaning ??= (async () => {
    for (;;) {
      const last = [...cleanups].pop();
      if (!last) break;
      cleanups.delete(last);
      try {
        await Promise.race([
          Promise.resolve().then(last.run),
          new Promise((_, reject) =>
            setTimeout(() => reject(new Error('timed out after 20 s')), 20_000).unref(),
          ),
        ]);
      } catch (error) {
        console.error(`cleanup '${last.name}' failed: ${(error as Error).message}`);
        last.sync?.();
      }
    }
  })().finally(() => {
    cleaning = null;
  });
  return cleaning;
}

let exiting = false;
/** Cleans up, then exits with `code`; a second signal during the cleanup exits at once. */
async function exitAfterCleanup(code: number) {
  if (exiting) process.exit(code);
  exiting = true;
  await runCleanups();
  process.exit(code);
}
for (const [signal, code] of [
  ['SIGINT', 130],
  ['SIGTERM', 143],
  ['SIGHUP', 129],
] as const) {
  process.on(signal, () => {
    console.error(`\n${signal}: stopping what the bench started`);
    void exitAfterCleanup(code);
  });
}
// A closed pipe (`npm run bench:x | head`) must not turn into an endless loop of write errors.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') void exitAfterCleanup(0);
});
// An error nobody handled fails the bench (exit 1) after the cleanups; one raised while they run (a
// connection of the bench's own closed by the database's drop) is printed and does not cut them short.
const failed = (error: unknown) => {
  console.error(error);
  if (!exiting) void exitAfterCleanup(1);
};
process.on('uncaughtException', failed);
process.on('unhandledRejection', failed);
// Last resort, synchronous: whatever is left (child process groups) is killed.
process.on('exit', () => {
  for (const entry of cleanups) entry.sync?.();
});

/**
 * The body of a bench: runs `body`, then every cleanup, and exits 0; on an error prints it, cleans up
 * and exits 1. The explicit exit means a bench never outlives its work (a keep-alive socket, a timer),
 * so a caller piping its output (`npm run bench:leaks | cat`) always gets its end of file.
 */
export async function main(body: () => Promise<void>): Promise<never> {
  let code = 0;
  try {
    await body();
  } catch (error) {
    console.error(error);
    code = 1;
  }
  await runCleanups();
  process.exit(code);
}

/** A temporary directory, removed by the cleanups. */
export function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const remove = () => rmSync(dir, { recursive: true, force: true });
  onCleanup(`remove ${dir}`, remove, remove);
  return dir;
}

/** Kills a child's whole process group (it was spawned detached, as its group's leader). */
function killGroup(child: ChildProcess, signal: NodeJS.Signals) {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    try {
      child.kill(signal);
    } catch {}
  }
}

/**
 * Spawns a child in a process group of its own, registered with the cleanups: on a stop it gets
 * SIGTERM, and SIGKILL after `graceMs`, as a group (with whatever it started). `stop()` does that now.
 */
export function spawnGroup(
  command: string,
  args: string[],
  options: SpawnOptions & { graceMs?: number } = {},
) {
  const child = spawn(command, args, { ...options, detached: true });
  const exited = new Promise<void>((resolve) => {
    if (child.exitCode !== null) resolve();
    child.once('exit', () => resolve());
    child.once('error', () => resolve());
  });
  const grace = options.graceMs ?? 10_000;
  const stopNow = async () => {
    killGroup(child, 'SIGTERM');
    const timer = setTimeout(() => killGroup(child, 'SIGKILL'), grace);
    await exited;
    clearTimeout(timer);
    // Its group may hold grandchildren that outlived it.
    killGroup(child, 'SIGKILL');
  };
  const stop = onCleanup(`${command} ${args.join(' ').slice(0, 60)}`, stopNow, () =>
    killGroup(child, 'SIGKILL'),
  );
  void exited.then(() => {
    // Gone by itself: nothing left to stop (but a group member may remain; the sync kill stays cheap).
  });
  return { child, exited, stop };
}

/**
 * Runs a command to its end in its own process group (stopped with the bench); rejects on a non-zero
 * exit. Returns its wall time in seconds and its stdout if `capture`.
 */
export async function runCommand(
  command: string,
  args: string[],
  options: { env?: Record<string, string>; cwd?: string; capture?: boolean } = {},
): Promise<{ seconds: number; stdout: string; pid: number }> {
  const started = performance.now();
  const { child, exited, stop } = spawnGroup(command, args, {
    cwd: options.cwd ?? root,
    env: { PATH: process.env.PATH ?? '', ...options.env },
    stdio: ['ignore', options.capture ? 'pipe' : 'ignore', 'inherit'],
  });
  let stdout = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  await exited;
  await stop();
  if (child.exitCode !== 0) throw new Error(`${command} exited ${child.exitCode ?? child.signalCode}`);
  return { seconds: (performance.now() - started) / 1000, stdout, pid: child.pid ?? 0 };
}

/** The load average, as `uptime` prints it. */
export const loadAverage = () =>
  loadavg()
    .map((n) => n.toFixed(2))
    .join(', ');

// ---------------------------------------------------------------- CPU from /proc

const TICKS_PER_SECOND = 100; // getconf CLK_TCK on Linux

/** utime + stime of a process in seconds (0 once it is gone); `children` adds its waited-for children. */
export function cpuSecondsOf(pid: number, children = false): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command (which may hold spaces) start after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks =
      Number(fields[11]) + Number(fields[12]) + (children ? Number(fields[13]) + Number(fields[14]) : 0);
    return ticks / TICKS_PER_SECOND;
  } catch {
    return 0;
  }
}

/** The PostgreSQL backends serving database `name` (their pids, from pg_stat_activity). */
export async function backendPids(databaseUrl: string, name: string): Promise<number[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ pid: number }>(
      'select pid from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
      [name],
    );
    return rows.map((row) => row.pid);
  } finally {
    await client.end();
  }
}

/**
 * CPU spent by a set of processes between start() and stop(): the server process (with its threads)
 * and, on PostgreSQL, the backends serving its database (found again at stop(), so connections the
 * pool opened meanwhile count; one that closed in between is missed). In seconds.
 */
export function cpuMeter(options: {
  serverPid?: number;
  databaseUrl?: string;
  database?: string;
  /** Backends not to count (the bench's own connections). */
  exclude?: number[];
}) {
  const read = async () => {
    const server = options.serverPid ? cpuSecondsOf(options.serverPid) : 0;
    const pids = (
      options.databaseUrl && options.database ? await backendPids(options.databaseUrl, options.database) : []
    ).filter((pid) => !options.exclude?.includes(pid));
    return { server, backends: new Map(pids.map((pid) => [pid, cpuSecondsOf(pid)])) };
  };
  let before: Awaited<ReturnType<typeof read>> | null = null;
  return {
    async start() {
      before = await read();
    },
    async stop(): Promise<{ server: number; postgres: number }> {
      if (!before) throw new Error('cpuMeter.stop() before start()');
      const after = await read();
      let postgres = 0;
      for (const [pid, seconds] of after.backends) postgres += seconds - (before.backends.get(pid) ?? 0);
      return { server: after.server - before.server, postgres };
    },
  };
}

// ---------------------------------------------------------------- N runs, a goal in k of N

export interface RunResult {
  /** Units of work done (requests, rows). */
  units: number;
  seconds: number;
  /** CPU seconds of the server process and of the PostgreSQL backends (cpuMeter). */
  cpu?: { server: number; postgres: number };
  /** Whether this run met the goal. */
  met: boolean;
  /** The run's own figures, printed on its line. */
  detail: string;
}

/**
 * Runs `measure` `runs` times and judges the goal "met in at least `need` of `runs` runs". Each run's
 * line gives throughput beside CPU per unit of work (µs of server and PostgreSQL CPU a unit), the
 * stable figure on a shared machine, and the load average when it ended. Returns whether the goal
 * was met, and the runs.
 */
export async function repeatRuns(options: {
  name: string;
  runs: number;
  need: number;
  unit: string;
  measure: (run: number) => Promise<RunResult>;
  /** What the two CPU figures are (default: the server and PostgreSQL). */
  cpuLabels?: [string, string];
}): Promise<{ met: boolean; results: RunResult[] }> {
  const [first, second] = options.cpuLabels ?? ['server', 'PostgreSQL'];
  const results: RunResult[] = [];
  for (let run = 1; run <= options.runs; run++) {
    const result = await options.measure(run);
    results.push(result);
    const perUnit = (s: number) => fmt((s / Math.max(1, result.units)) * 1e6, 0);
    const cpu = result.cpu
      ? ` | CPU/${options.unit}: ${first} ${perUnit(result.cpu.server)} µs + ${second} ${perUnit(result.cpu.postgres)} µs`
      : '';
    console.log(
      `  ${options.name}, run ${run}/${options.runs}: ${result.detail} | ${fmt(result.units / result.seconds, 0)} ${options.unit}/s${cpu} | load ${loadAverage()} | ${result.met ? 'met' : 'NOT met'}`,
    );
  }
  const count = results.filter((r) => r.met).length;
  const met = count >= options.need;
  console.log(
    `  ${options.name}: met in ${count} of ${options.runs} runs (goal: ${options.need} of ${options.runs}) → ${met ? 'MET' : 'NOT MET'}`,
  );
  return { met, results };
}

// ---------------------------------------------------------------- a private PostgreSQL

const statFields = (pid: number | 'self'): string[] | null => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return null;
  }
};

/**
 * CPU of this process's children that have ended and been waited for (cutime + cstime), in seconds:
 * the delta across a run of a child (an importer) is that child's CPU, its threads included.
 */
export function endedChildrenCpuSeconds(): number {
  const fields = statFields('self');
  return fields ? (Number(fields[13]) + Number(fields[14])) / TICKS_PER_SECOND : 0;
}

// ---------------------------------------------------------------- databases

/** A fresh PostgreSQL database for one benchmark run, dropped afterwards (and by the cleanups). */
export async function freshDatabase() {
  const name = `fp_bench_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const drop = onCleanup(`drop database ${name}`, async () => {
    const c = new pg.Client({ connectionString: adminUrl });
    await c.connect();
    await c.query(`drop database if exists ${name} with (force)`);
    await c.end();
  });
  return { url: url.toString(), name, drop };
}

export interface ReceivedMail {
  to: string[];
  subject: string;
  text: string;
}

let sink: Promise<{ port: number; inbox: ReceivedMail[] }> | undefined;

/**
 * A real SMTP server on a free port (smtp-server), once per process: production refuses to start
 * when SMTP_URL cannot be reached, and a bench that signs a user in reads the code the product really
 * mailed (mailTo). Stopped with the cleanups.
 */
function smtpSink() {
  sink ??= (async () => {
    const inbox: ReceivedMail[] = [];
    const server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          PostalMime.parse(Buffer.concat(chunks)).then(
            (parsed) => {
              inbox.push({
                to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
                subject: parsed.subject ?? '',
                text: parsed.text ?? '',
              });
              callback();
            },
            (error: Error) => callback(error),
          );
        });
      },
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    server.server.unref();
    onCleanup('smtp sink', () => new Promise<void>((resolve) => server.close(() => resolve())));
    return { port: (server.server.address() as AddressInfo).port, inbox };
  })();
  return sink;
}

/** The newest mail the bench's SMTP sink received for `to`; waits up to 10 s for it. */
export async function mailTo(to: string): Promise<ReceivedMail> {
  const { inbox } = await smtpSink();
  const deadline = Date.now() + 10_000;
  for (;;) {
    const found = inbox.findLast((m) => m.to.includes(to.toLowerCase()));
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`no mail to ${to} (${inbox.length} received)`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
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
  const { child, stop } = spawnGroup(process.execPath, [...nodeArgs, 'apps/server/dist/main.js'], {
    cwd: checkout,
    env: {
      PATH: process.env.PATH ?? '',
      NODE_ENV: 'production',
      // The benchmarks measure the server's own work: synthetic sources, chosen explicitly.
      SANDBOX: 'true',
      HOST: '127.0.0.1',
      // Production refuses to start without SMTP_URL, or with one it cannot reach; no mail is sent.
      SMTP_URL: `smtp://127.0.0.1:${(await smtpSink()).port}`,
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
    if (child.exitCode !== null) {
      await stop();
      throw new Error(`server exited with ${child.exitCode}`);
    }
    try {
      const res = await fetch(`http://127.0.0.1:${port}/api/health`);
      if (res.ok) break;
    } catch {}
    if (Date.now() > deadline) {
      await stop();
      throw new Error('server did not start');
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    /** The server process itself, for memory and CPU readings. */
    pid: child.pid!,
    /** Stops it (SIGTERM, SIGKILL after 10 s, to its process group); the cleanups do it otherwise. */
    stop,
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
