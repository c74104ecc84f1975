// What one /api/tel lookup costs, counted rather than timed, so that two versions can be compared on a
// busy machine: PostgreSQL's work per lookup (transactions, rows written, index scans per table, from
// pg_stat_database and pg_stat_user_tables) and the server process's CPU per request (utime + stime
// from /proc), beside the baseline route (token check + one SELECT) on the same server in the same run.
// Run: npm run lookup-cost --workspace @footprint/bench [-- --seconds 8]
// With --compression: instead, what each way of compressing the answers would cost. Real /api/tel
// answers are fetched uncompressed, then each candidate (none, gzip and brotli at several levels and
// windows, zstd) compresses them as @fastify/compress does below its sync threshold (one sync call):
// CPU µs and bytes per answer, beside the lookup's CPU (server + PostgreSQL) measured in the same run.
import http from 'node:http';
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { brotliCompressSync, gzipSync, constants as zlib, zstdCompressSync } from 'node:zlib';
import pg from 'pg';
import { adminUrl, fmt, freshDatabase, load, seedUsers, startServer } from './harness.ts';
import { backendCpu, backendDelta, cpuSeconds, wireLoad } from './lookup-load.ts';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '8' },
    workers: { type: 'string', default: '20' },
    compression: { type: 'boolean', default: false },
  },
});
const seconds = Number(values.seconds);
const workers = Number(values.workers);
const port = 3900 + Math.floor(Math.random() * 90);
const tel = (w: number, i: number) =>
  `/api/tel?number=91${String(7_000_000_000 + w * 1_000_000 + i).slice(0, 10)}`;

/** CPU time of a process in ms, from /proc. */
const cpuMs = (pid: number) => cpuSeconds(pid) * 1000;

if (values.compression) {
  await compressionTable();
  process.exit(0);
}

const db = await freshDatabase();
const server = await startServer(
  { DATABASE_URL: db.url, RATE_LIMIT_ENABLED: 'false', LOOKUP_CACHE_HOURS: '0' },
  port,
);
const client = new pg.Client({ connectionString: db.url });
try {
  const tokens = await seedUsers(db.url, workers, 1_000_000, 'admin');
  const token = (w: number) => tokens[w]!;
  await client.connect();
  await load({ port, seconds: 2, workers, token, path: (w, i) => tel(w, 900_000 + i) });

  const measure = async (path: (w: number, i: number) => string) => {
    const before = cpuMs(server.pid);
    const run = await load({ port, seconds, workers, token, path });
    const ok = run.samples.filter((s) => s.status === 200).length;
    return { ok, cpu: (cpuMs(server.pid) - before) / ok };
  };
  const base = await measure(() => '/api/admin/settings');

  // Idle backends flush their statistics within 10 s (PGSTAT_IDLE_INTERVAL): wait for that, then read.
  const settle = async () => {
    await new Promise((r) => setTimeout(r, 11_000));
    await client.query('select pg_stat_clear_snapshot()');
  };
  const snapshot = async () => ({
    db: (
      await client.query(
        `select xact_commit::int as commits, tup_inserted::int as inserted, tup_updated::int as updated,
                tup_fetched::bigint as fetched from pg_stat_database where datname = current_database()`,
      )
    ).rows[0],
    tables: (
      await client.query(
        `select relname, coalesce(idx_scan, 0)::int as idx, seq_scan::int as seq, n_tup_ins::int as ins,
                n_tup_upd::int as upd from pg_stat_user_tables`,
      )
    ).rows as { relname: string; idx: number; seq: number; ins: number; upd: number }[],
  });
  await settle();
  const before = await snapshot();
  const lookups = await measure(tel);
  await settle();
  const after = await snapshot();

  const per = (a: number, b: number) => fmt((a - b) / lookups.ok, 2);
  console.log(`/api/tel cost: ${workers} concurrent users, ${seconds} s, PostgreSQL, sandbox providers\n`);
  console.log('| per request | baseline (token + 1 SELECT) | /api/tel |\n|---|---|---|');
  console.log(`| server CPU ms | ${fmt(base.cpu, 3)} | ${fmt(lookups.cpu, 3)} |`);
  console.log(`| requests measured | ${base.ok} | ${lookups.ok} |`);
  console.log(`\nserver CPU /api/tel : baseline = ${fmt(lookups.cpu / base.cpu, 2)}\n`);
  console.log('| PostgreSQL per lookup | value |\n|---|---|');
  for (const key of ['commits', 'inserted', 'updated', 'fetched'] as const)
    console.log(`| ${key} | ${per(Number(after.db[key]), Number(before.db[key]))} |`);
  console.log(
    '\n| table, per lookup | index scans | seq scans | rows inserted | rows updated |\n|---|---|---|---|---|',
  );
  for (const row of after.tables.sort((a, b) => a.relname.localeCompare(b.relname))) {
    const old = before.tables.find((t) => t.relname === row.relname) ?? { idx: 0, seq: 0, ins: 0, upd: 0 };
    if (row.idx + row.seq + row.ins + row.upd === old.idx + old.seq + old.ins + old.upd) continue;
    console.log(
      `| ${row.relname} | ${per(row.idx, old.idx)} | ${per(row.seq, old.seq)} | ${per(row.ins, old.ins)} | ${per(row.upd, old.upd)} |`,
    );
  }
} finally {
  await client.end().catch(() => {});
  await server.stop();
  await db.drop();
}

/** Ways to compress an answer: how @fastify/compress would be set, and the sync call it makes for it. */
function candidates(): Array<{ name: string; compress: ((body: Buffer) => Buffer) | null }> {
  return [
    { name: 'none', compress: null },
    ...[1, 2, 4, 6].map((level) => ({
      name: `gzip level ${level}`,
      compress: (b: Buffer) => gzipSync(b, { level }),
    })),
    {
      name: 'gzip level 1, windowBits 12, memLevel 6',
      compress: (b: Buffer) => gzipSync(b, { level: 1, windowBits: 12, memLevel: 6 }),
    },
    {
      name: 'gzip level 6, windowBits 13, memLevel 7',
      compress: (b: Buffer) => gzipSync(b, { level: 6, windowBits: 13, memLevel: 7 }),
    },
    ...[0, 1, 2, 4].flatMap((quality) => [
      {
        name: `brotli quality ${quality}`,
        compress: (b: Buffer) => brotliCompressSync(b, { params: { [zlib.BROTLI_PARAM_QUALITY]: quality } }),
      },
      {
        name: `brotli quality ${quality}, lgwin 16, size hint`,
        compress: (b: Buffer) =>
          brotliCompressSync(b, {
            params: {
              [zlib.BROTLI_PARAM_QUALITY]: quality,
              [zlib.BROTLI_PARAM_LGWIN]: 16,
              [zlib.BROTLI_PARAM_SIZE_HINT]: b.length,
            },
          }),
      },
    ]),
    ...[1, 3].flatMap((level) => [
      {
        name: `zstd level ${level}`,
        compress: (b: Buffer) => zstdCompressSync(b, { params: { [zlib.ZSTD_c_compressionLevel]: level } }),
      },
      {
        name: `zstd level ${level}, windowLog 14`,
        compress: (b: Buffer) =>
          zstdCompressSync(b, {
            params: {
              [zlib.ZSTD_c_compressionLevel]: level,
              [zlib.ZSTD_c_windowLog]: 14,
            },
          }),
      },
    ]),
  ];
}

async function compressionTable() {
  const db = await freshDatabase();
  const server = await startServer(
    { DATABASE_URL: db.url, RATE_LIMIT_ENABLED: 'false', LOOKUP_CACHE_HOURS: '0' },
    port,
  );
  const agent = new http.Agent({ keepAlive: true, maxSockets: workers });
  try {
    const tokens = await seedUsers(db.url, workers, 1_000_000);
    const common = { port, workers, agent, token: (w: number) => tokens[w]! };
    await wireLoad({ ...common, seconds: 2, acceptEncoding: '', path: (w, i) => tel(w, 900_000 + i) });
    // The lookup's own CPU, uncompressed answers: what compression's cost is a share of.
    const cpuBefore = cpuSeconds(server.pid);
    const backendsBefore = await backendCpu(adminUrl, db.name);
    const run = await wireLoad({ ...common, seconds, acceptEncoding: '', path: tel });
    const ok = run.samples.filter((s) => s.status === 200).length;
    const lookupMs =
      ((cpuSeconds(server.pid) -
        cpuBefore +
        backendDelta(backendsBefore, await backendCpu(adminUrl, db.name))) *
        1000) /
      ok;
    // 64 real answers, each a different number, as the clients got them.
    const bodies: Buffer[] = [];
    for (let i = 0; i < 64; i++) {
      const res = await fetch(`http://127.0.0.1:${port}${tel(i % workers, 500_000 + i)}`, {
        headers: { authorization: `Bearer ${tokens[i % workers]}`, 'accept-encoding': 'identity' },
      });
      bodies.push(Buffer.from(await res.arrayBuffer()));
    }
    const mean = bodies.reduce((sum, b) => sum + b.length, 0) / bodies.length;
    console.log(
      `Compressing /api/tel answers (${bodies.length} real answers, mean ${fmt(mean, 0)} bytes); the lookup's CPU in this run: ${fmt(lookupMs, 2)} ms (server + PostgreSQL, ${ok} uncompressed lookups); load average ${loadavg()
        .map((n) => n.toFixed(2))
        .join(' ')}\n`,
    );
    console.log(
      "| setting | bytes per answer | CPU µs per answer | % of this run's lookup CPU | % of the 0.70 ms goal |\n|---|---|---|---|---|",
    );
    // Each candidate timed in 5 passes taken in turn, the least of them kept: the machine is shared.
    const list = candidates();
    const best = list.map(() => ({ us: Number.POSITIVE_INFINITY, bytes: mean }));
    for (let pass = 0; pass < 5; pass++) {
      list.forEach((candidate, index) => {
        const compress = candidate.compress;
        if (!compress) {
          best[index] = { us: 0, bytes: mean };
          return;
        }
        for (const body of bodies) compress(body);
        let bytes = 0;
        const rounds = 10;
        const before = process.cpuUsage();
        for (let r = 0; r < rounds; r++) for (const body of bodies) bytes += compress(body).length;
        const used = process.cpuUsage(before);
        const us = (used.user + used.system) / (rounds * bodies.length);
        if (us < best[index]!.us) best[index] = { us, bytes: bytes / (rounds * bodies.length) };
      });
    }
    list.forEach((candidate, index) => {
      const { us, bytes } = best[index]!;
      console.log(
        `| ${candidate.name} | ${fmt(bytes, 0)} | ${fmt(us, 1)} | ${fmt(us / 10 / lookupMs, 1)} | ${fmt(us / 10 / 0.7, 1)} |`,
      );
    });
  } finally {
    agent.destroy();
    await server.stop();
    await db.drop();
  }
}
