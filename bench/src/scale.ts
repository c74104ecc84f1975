// Scale-out of /api/tel: 1, 2 and 4 built server processes on one private PostgreSQL, one run.
// Run: npm run bench:scale [-- --seconds 5 --runs 3 --workers 40 --processes 1,2,4 --top --against <checkout> --env NAME=value]
//
// Starts its own PostgreSQL cluster (initdb as `postgres` under /tmp, its own port, pg_stat_statements
// when the package has it; stopped whatever happens), then for each process count: a fresh database,
// the servers (apps/server/dist/main.js, sandbox sources, LOOKUP_CACHE_HOURS=0, rate limits off),
// users with tokens, and a closed-loop load whose clients send each request to the next server in turn
// (round-robin, keep-alive, `Accept-Encoding: br, gzip` like a browser). Per lookup it prints CPU
// of the server processes and of the whole cluster (from /proc), statements, plans, writing commits
// (transaction ids), WAL bytes, rows per batch statement, lock waits (pg_stat_activity sampled every
// 200 ms), then checks the books (ledger:check, every answered lookup charged once, none pending).
// Each process count runs twice, taking turns: each process writing alone, and with HOST_WRITER (the
// host's processes writing through one of them). The goal: PostgreSQL CPU per lookup with 4 processes
// within 10 % of 1 process.

import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { fmt, loadAverage, main, onCleanup, root, seedUsers, startServer } from './harness.ts';
import {
  contextSwitches,
  freePort,
  type PrivatePostgres,
  processCpuMs,
  startPrivatePostgres,
} from './private-postgres.ts';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '5' },
    runs: { type: 'string', default: '3' },
    warmup: { type: 'string', default: '2' },
    workers: { type: 'string', default: '40' },
    processes: { type: 'string', default: '1,2,4' },
    /** Also print the statements sent most per lookup in each phase. */
    top: { type: 'boolean', default: false },
    /** Another checkout whose apps/server/dist is built: each process count runs both, alternating which goes first. */
    against: { type: 'string' },
    env: { type: 'string', multiple: true, default: [] },
  },
});
const seconds = Number(values.seconds);
const runs = Number(values.runs);
const warmup = Number(values.warmup);
const workers = Number(values.workers);
const counts = values.processes.split(',').map(Number);
const extraEnv = Object.fromEntries(
  values.env.map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]),
);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** One built server process on `databaseUrl`, of the build in `checkout`, as the bench runs it. */
async function startScaleServer(databaseUrl: string, checkout: string, env: Record<string, string>) {
  const port = await freePort();
  const server = await startServer(
    {
      DATABASE_URL: databaseUrl,
      LOOKUP_CACHE_HOURS: '0',
      RATE_LIMIT_ENABLED: 'false',
      ...extraEnv,
      ...env,
    },
    port,
    [],
    checkout,
  );
  return { port, ...server };
}
type Server = Awaited<ReturnType<typeof startScaleServer>>;
/** A build and the environment its servers get. */
interface Build {
  name: string;
  checkout: string;
  env: Record<string, string>;
}

let sequence = 0;
/**
 * A closed loop of `workers` clients for `ms`: each sends its next lookup as soon as the last one
 * answered, to the next server in turn. Counts the answers by status.
 */
async function load(servers: Server[], tokens: string[], ms: number) {
  const agents = servers.map(() => new http.Agent({ keepAlive: true, maxSockets: workers }));
  const statuses = new Map<number, number>();
  const end = performance.now() + ms;
  let next = 0;
  const one = (worker: number) =>
    new Promise<number>((resolve, reject) => {
      const target = next++ % servers.length;
      const number = `91${String(6_000_000_000 + sequence++).slice(0, 10)}`;
      const req = http.request(
        {
          host: '127.0.0.1',
          port: servers[target]!.port,
          path: `/api/tel?number=${number}`,
          agent: agents[target],
          headers: {
            authorization: `Bearer ${tokens[worker]}`,
            accept: 'application/json',
            'accept-encoding': 'br, gzip',
          },
        },
        (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        },
      );
      req.on('error', reject);
      req.end();
    });
  await Promise.all(
    Array.from({ length: workers }, async (_, worker) => {
      while (performance.now() < end) {
        const status = await one(worker);
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
      }
    }),
  );
  for (const agent of agents) agent.destroy();
  return statuses;
}

interface Snapshot {
  serverMs: number;
  pgMs: number;
  calls: number;
  plans: number;
  xid: number;
  wal: number;
  texts: number;
  split: { backends: number; background: number; reaped: number };
  sessions: number;
  switches: { server: number; pg: number };
  batches: Record<'charge' | 'settle', { calls: number; rows: number }>;
}

/** The statements of the group commits, recognised by their text (pg_stat_statements). */
const BATCH_PATTERNS = { charge: '%for update of u%', settle: '%update lookups as l%' } as const;

async function snapshot(
  monitor: pg.Client,
  monitorPid: number,
  cluster: PrivatePostgres,
  servers: Server[],
  dbid: number,
): Promise<Snapshot> {
  const serverMs = servers.reduce((sum, s) => sum + processCpuMs(s.pid), 0);
  const pgMs = cluster.cpuMs() - cluster.backendCpuMs(monitorPid);
  const switches = {
    server: servers.reduce((sum, s) => sum + contextSwitches(s.pid), 0),
    pg: cluster.contextSwitches() - contextSwitches(monitorPid),
  };
  const split = cluster.cpuSplitMs();
  split.backends -= cluster.backendCpuMs(monitorPid);
  const { rows } = await monitor.query(
    `select coalesce(sum(calls), 0)::bigint as calls, coalesce(sum(plans), 0)::bigint as plans,
            count(*)::int as texts,
            coalesce(sum(calls) filter (where query ilike $2), 0)::bigint as charge_calls,
            coalesce(sum(rows) filter (where query ilike $2), 0)::bigint as charge_rows,
            coalesce(sum(calls) filter (where query ilike $3), 0)::bigint as settle_calls,
            coalesce(sum(rows) filter (where query ilike $3), 0)::bigint as settle_rows,
            pg_snapshot_xmax(pg_current_snapshot())::text::bigint as xid,
            (pg_current_wal_lsn() - '0/0'::pg_lsn)::bigint as wal,
            (select sessions from pg_stat_database where datid = $1)::bigint as sessions
     from pg_stat_statements where dbid = $1`,
    [dbid, BATCH_PATTERNS.charge, BATCH_PATTERNS.settle],
  );
  const r = rows[0];
  return {
    serverMs,
    pgMs,
    calls: Number(r.calls),
    plans: Number(r.plans),
    xid: Number(r.xid),
    wal: Number(r.wal),
    texts: Number(r.texts),
    split,
    switches,
    sessions: Number(r.sessions),
    batches: {
      charge: { calls: Number(r.charge_calls), rows: Number(r.charge_rows) },
      settle: { calls: Number(r.settle_calls), rows: Number(r.settle_rows) },
    },
  };
}

interface Measured {
  lookupsPerSecond: number;
  serverMs: number;
  pgMs: number;
  statements: number;
  plans: number;
  commits: number;
  walBytes: number;
  chargeRows: number;
  settleRows: number;
  lockWaits: number;
  active: number;
  texts: number;
  /** PostgreSQL CPU per lookup: live client backends, background processes, exited backends. */
  pgSplit: string;
  /** Connections opened to the database during the run. */
  sessions: number;
  /** Context switches per lookup: the server processes' threads, the cluster's processes. */
  switches: string;
  /** Answers 200: each must be one charged, completed, audited lookup. */
  answered: number;
  errors: number;
  load: string;
}

async function measure(
  cluster: PrivatePostgres,
  monitor: pg.Client,
  monitorPid: number,
  servers: Server[],
  tokens: string[],
  database: string,
  dbid: number,
): Promise<Measured> {
  const before = await snapshot(monitor, monitorPid, cluster, servers, dbid);
  const started = performance.now();
  let polling = true;
  const polls: Array<{ lock: number; active: number }> = [];
  const poller = (async () => {
    while (polling) {
      const { rows } = await monitor.query(
        `select count(*) filter (where wait_event_type = 'Lock')::int as lock,
                count(*) filter (where state = 'active')::int as active
         from pg_stat_activity where datname = $1`,
        [database],
      );
      polls.push(rows[0]);
      await new Promise((r) => setTimeout(r, 200));
    }
  })();
  const statuses = await load(servers, tokens, seconds * 1000);
  const elapsed = (performance.now() - started) / 1000;
  polling = false;
  await poller;
  const after = await snapshot(monitor, monitorPid, cluster, servers, dbid);
  const ok = statuses.get(200) ?? 0;
  const errors = [...statuses].filter(([status]) => status !== 200).reduce((sum, [, n]) => sum + n, 0);
  const per = (a: number, b: number) => (a - b) / ok;
  const rowsPer = (kind: 'charge' | 'settle') =>
    (after.batches[kind].rows - before.batches[kind].rows) /
    (after.batches[kind].calls - before.batches[kind].calls);
  return {
    lookupsPerSecond: ok / elapsed,
    serverMs: per(after.serverMs, before.serverMs),
    pgMs: per(after.pgMs, before.pgMs),
    // The poller's and the snapshots' own statements run in another database and are not counted.
    statements: per(after.calls, before.calls),
    plans: per(after.plans, before.plans),
    commits: per(after.xid, before.xid),
    walBytes: per(after.wal, before.wal),
    chargeRows: rowsPer('charge'),
    settleRows: rowsPer('settle'),
    lockWaits: polls.reduce((s, p) => s + p.lock, 0) / Math.max(1, polls.length),
    active: polls.reduce((s, p) => s + p.active, 0) / Math.max(1, polls.length),
    texts: after.texts,
    pgSplit: (['backends', 'background', 'reaped'] as const)
      .map((key) => fmt(per(after.split[key], before.split[key]), 3))
      .join(' / '),
    sessions: after.sessions - before.sessions,
    switches: `${fmt(per(after.switches.server, before.switches.server), 1)} / ${fmt(per(after.switches.pg, before.switches.pg), 1)}`,
    answered: ok,
    errors,
    load: loadAverage(),
  };
}

/** The books after a phase: ledger:check (the built CLI), every answered lookup charged once, none pending. */
async function checkBooks(
  url: string,
  client: pg.Client,
  answered: number,
  checkout: string,
): Promise<string> {
  let ledger: string;
  try {
    ledger = execFileSync(process.execPath, ['apps/server/dist/cli.js', 'ledger:check'], {
      cwd: checkout,
      env: { PATH: process.env.PATH ?? '', DATABASE_URL: url, LOG_LEVEL: 'warn' },
      encoding: 'utf8',
    }).trim();
  } catch (error) {
    ledger = `ledger:check FAILED: ${String((error as { stderr?: string }).stderr ?? error).trim()}`;
  }
  const { rows } = await client.query(`
    select
      (select count(*) from lookups where status = 'complete' and cost > 0)::int as complete,
      (select count(*) from lookups where status = 'pending')::int as pending,
      (select count(*) from credit_entries where kind = 'charge')::int as charges,
      (select count(*) from (select lookup_id from credit_entries where kind = 'charge'
         group by lookup_id having count(*) <> 1) d)::int as twice,
      (select count(*) from lookups l where l.cost > 0 and l.status = 'complete' and not exists
         (select 1 from credit_entries c where c.lookup_id = l.id and c.kind = 'charge'))::int as unpaid,
      (select count(*) from audit_events where action = 'lookup.tel')::int as audited
  `);
  const b = rows[0];
  const ok =
    ledger.startsWith('Ledger OK') &&
    b.complete === answered &&
    b.pending === 0 &&
    b.twice === 0 &&
    b.unpaid === 0 &&
    b.charges === b.complete &&
    b.audited === answered;
  return `${ok ? 'OK' : 'FAILED'}: ${ledger} ${answered} lookups answered 200 = ${b.complete} complete charged rows = ${b.charges} charge entries (${b.twice} charged twice, ${b.unpaid} unpaid), ${b.pending} pending, ${b.audited} audit rows`;
}

/** The statements the runs sent most often, per lookup (the counters were reset after the warm-up). */
async function topStatements(monitor: pg.Client, dbid: number, results: Measured[]) {
  const lookups = results.reduce((sum, m) => sum + m.answered, 0);
  const { rows } = await monitor.query(
    `select regexp_replace(left(query, 300), '\\s+', ' ', 'g') as query, sum(calls)::bigint as calls,
            sum(plans)::bigint as plans, sum(total_exec_time + total_plan_time) as ms, count(*)::int as texts
     from pg_stat_statements where dbid = $1
     group by 1 order by sum(calls) desc limit 10`,
    [dbid],
  );
  return rows.map(
    (r) =>
      `${fmt(Number(r.calls) / lookups, 3)} calls, ${fmt(Number(r.plans) / lookups, 3)} plans, ${fmt((Number(r.ms) * 1000) / lookups, 1)} µs per lookup, ${r.texts} text(s): ${String(r.query).slice(0, 110)}`,
  );
}

/** Statements the database has run so far (pg_stat_statements). */
async function statementCalls(monitor: pg.Client, dbid: number) {
  const { rows } = await monitor.query(
    'select coalesce(sum(calls), 0)::bigint as calls from pg_stat_statements where dbid = $1',
    [dbid],
  );
  return Number(rows[0].calls);
}

async function phase(
  cluster: PrivatePostgres,
  monitor: pg.Client,
  monitorPid: number,
  n: number,
  build: Build,
) {
  const database = `scale_${n}_${randomBytes(3).toString('hex')}`;
  await monitor.query(`create database ${database}`);
  const url = cluster.url(database);
  const servers: Server[] = [];
  const client = new pg.Client({ connectionString: url });
  try {
    // The first migrates; the others start on the migrated database.
    servers.push(await startScaleServer(url, build.checkout, build.env));
    servers.push(
      ...(await Promise.all(
        Array.from({ length: n - 1 }, () => startScaleServer(url, build.checkout, build.env)),
      )),
    );
    await client.connect();
    const tokens = await seedUsers(url, workers, 10_000_000);
    const { rows } = await monitor.query('select oid::int as oid from pg_database where datname = $1', [
      database,
    ]);
    const dbid = rows[0].oid as number;
    const warm = await load(servers, tokens, warmup * 1000);
    // What autovacuum does in a real database's first minute: statistics from the warm-up's rows. The
    // plans the connections cached while the tables were empty (a sequential scan of lookups for each
    // settle: a few rows then, thousands by the end of a run) are invalidated by it and made again.
    await client.query('analyze');
    await monitor.query('select pg_stat_statements_reset()');
    // What the processes cost PostgreSQL with no lookups at all (token refreshes, queue polls,
    // sealing, the pools' keep-alive): per second, over 3 s of no load.
    const idleBefore = cluster.cpuMs() - cluster.backendCpuMs(monitorPid);
    const idleStatements = await statementCalls(monitor, dbid);
    await new Promise((r) => setTimeout(r, 3000));
    const idle = {
      pgMsPerSecond: (cluster.cpuMs() - cluster.backendCpuMs(monitorPid) - idleBefore) / 3,
      statementsPerSecond: ((await statementCalls(monitor, dbid)) - idleStatements) / 3,
    };
    let answered = warm.get(200) ?? 0;
    const results: Measured[] = [];
    for (let run = 0; run < runs; run++) {
      const m = await measure(cluster, monitor, monitorPid, servers, tokens, database, dbid);
      answered += m.answered;
      results.push(m);
    }
    const books = await checkBooks(url, client, answered, build.checkout);
    const top = await topStatements(monitor, dbid, results);
    return { n, build: build.name, results, books, answered, top, idle };
  } finally {
    await client.end().catch(() => {});
    await Promise.all(servers.map((s) => s.stop()));
    await monitor.query(`drop database if exists ${database} with (force)`).catch(() => {});
  }
}

await main(async () => {
  // Planning counted too: a statement planned once per connection shows fewer plans than calls.
  const cluster = await startPrivatePostgres({
    'pg_stat_statements.track_planning': 'on',
    'pg_stat_statements.track': 'top',
  });
  const monitor = new pg.Client({ connectionString: cluster.url('postgres') });
  onCleanup('monitor connection', () => monitor.end().catch(() => {}));
  await monitor.connect();
  if (!cluster.statStatements) throw new Error('pg_stat_statements is not installed');
  await monitor.query('create extension if not exists pg_stat_statements');
  const monitorPid = (await monitor.query('select pg_backend_pid() as pid')).rows[0].pid as number;
  console.log(
    `Scale-out of /api/tel on one private PostgreSQL 15 (port ${cluster.port}): ${workers} clients round-robin,` +
      ` ${warmup} s warm-up, ${runs} × ${seconds} s per process count, sandbox sources, LOOKUP_CACHE_HOURS=0,` +
      ` rate limits off, Accept-Encoding: br, gzip\n`,
  );
  const phases: Awaited<ReturnType<typeof phase>>[] = [];
  // Each process count twice in one run: every process writing through its own group commits, and
  // the host's processes writing through one of them (HOST_WRITER); with --against, another checkout
  // beside this one instead, both as configured.
  const builds: Build[] = values.against
    ? [
        { name: 'before', checkout: values.against, env: {} },
        { name: 'after', checkout: root, env: {} },
      ]
    : [
        { name: 'each process alone', checkout: root, env: { HOST_WRITER: 'false' } },
        { name: 'host writer', checkout: root, env: { HOST_WRITER: 'true' } },
      ];
  for (const [k, n] of counts.entries()) {
    // The two builds (or configurations) take turns going first, so both share the machine's load.
    for (const build of k % 2 === 0 ? builds : [...builds].reverse()) {
      const result = await phase(cluster, monitor, monitorPid, n, build);
      phases.push(result);
      console.log(
        `| ${build.name}: processes ${n}, run | lookups/s | server CPU ms/lookup | PostgreSQL CPU ms/lookup | statements/lookup | plans/lookup | writing commits/lookup | WAL bytes/lookup | rows per charge batch | rows per settle batch | lock waits/poll | active backends/poll | statement texts | PostgreSQL CPU ms/lookup: backends / background / exited | connections opened | context switches/lookup: servers / PostgreSQL | non-200 | load |`,
      );
      console.log('|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|');
      for (const [i, m] of result.results.entries()) {
        console.log(
          `| ${n} #${i + 1} | ${fmt(m.lookupsPerSecond, 0)} | ${fmt(m.serverMs, 3)} | ${fmt(m.pgMs, 3)} | ${fmt(m.statements, 2)} | ${fmt(m.plans, 2)} | ${fmt(m.commits, 3)} | ${fmt(m.walBytes, 0)} | ${fmt(m.chargeRows, 1)} | ${fmt(m.settleRows, 1)} | ${fmt(m.lockWaits, 2)} | ${fmt(m.active, 2)} | ${m.texts} | ${m.pgSplit} | ${m.sessions} | ${m.switches} | ${m.errors} | ${m.load} |`,
        );
      }
      console.log(`books after ${n} process(es), ${build.name}: ${result.books}`);
      console.log(
        `idle, ${n} process(es): PostgreSQL CPU ${fmt(result.idle.pgMsPerSecond, 1)} ms/s, ${fmt(result.idle.statementsPerSecond, 1)} statements/s`,
      );
      if (values.top) console.log(`statements sent most, per lookup:\n  ${result.top.join('\n  ')}`);
      console.log('');
    }
  }
  console.log(
    '| build | processes | lookups/s (median) | × 1 process | server CPU ms/lookup | PostgreSQL CPU ms/lookup | PostgreSQL × 1 process | statements/lookup | writing commits/lookup |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|');
  const med = (p: (typeof phases)[number], key: keyof Measured) =>
    median(p.results.map((m) => m[key] as number));
  for (const build of builds) {
    const mine = phases.filter((p) => p.build === build.name);
    const base = mine[0]!;
    for (const p of mine) {
      console.log(
        `| ${build.name} | ${p.n} | ${fmt(med(p, 'lookupsPerSecond'), 0)} | ${fmt(med(p, 'lookupsPerSecond') / med(base, 'lookupsPerSecond'), 2)} | ${fmt(med(p, 'serverMs'), 3)} | ${fmt(med(p, 'pgMs'), 3)} | ${fmt(med(p, 'pgMs') / med(base, 'pgMs'), 2)} | ${fmt(med(p, 'statements'), 2)} | ${fmt(med(p, 'commits'), 3)} |`,
      );
    }
    const four = mine.find((p) => p.n === 4);
    const one = mine.find((p) => p.n === 1);
    if (four && one) {
      const ratio = med(four, 'pgMs') / med(one, 'pgMs');
      console.log(
        `Goal (${build.name}): PostgreSQL CPU per lookup with 4 processes within 10 % of 1 process: ${fmt(ratio, 2)}× → ${ratio <= 1.1 ? 'MET' : 'NOT MET'}`,
      );
    }
  }
  const allOk = phases.every((p) => p.books.startsWith('OK'));
  console.log(`Books: ${allOk ? 'OK after every phase' : 'FAILED (see above)'}`);
  if (!allOk) process.exitCode = 1;
});
