// What one /api/tel lookup costs, counted rather than timed, so that two versions can be compared on a
// busy machine: PostgreSQL's work per lookup (transactions, rows written, index scans per table, from
// pg_stat_database and pg_stat_user_tables) and the server process's CPU per request (utime + stime
// from /proc), beside the baseline route (token check + one SELECT) on the same server in the same run.
// Run: npm run lookup-cost --workspace @footprint/bench [-- --seconds 8]
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { fmt, freshDatabase, load, seedUsers, startServer } from './harness.ts';

const { values } = parseArgs({
  options: { seconds: { type: 'string', default: '8' }, workers: { type: 'string', default: '20' } },
});
const seconds = Number(values.seconds);
const workers = Number(values.workers);
const port = 3900 + Math.floor(Math.random() * 90);
const tel = (w: number, i: number) =>
  `/api/tel?number=91${String(7_000_000_000 + w * 1_000_000 + i).slice(0, 10)}`;

/** CPU time of a process in ms (fields 14 and 15 of /proc/<pid>/stat, in clock ticks of 10 ms). */
const cpuMs = (pid: number) => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
};

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
