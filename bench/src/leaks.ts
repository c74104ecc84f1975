// Benchmark of the Leak Data Finder. Run: npm run bench:leaks [-- --records 2000000 --queries 200 --runs 3]
// On PostgreSQL: load N synthetic records (leaks:sandbox, rows/s), then, `runs` times, every query
// shape `queries` times over HTTP (POST /api/leak-data-finder, as a browser sends it) and the
// service's SQL for the same query straight on a pg client, interleaved one by one so both see the
// same machine; p50/p95 of each, and the server's and PostgreSQL's CPU per search. Then the embedded
// PGlite default with 100,000 records, over HTTP, with the server's CPU per search.
// Goals: exact shapes (e-mail, phone, username): HTTP p95 <= SQL p95 + 5 ms in 3 of 3 runs; exact
// lookups p95 <= 10 ms; name and multi-row p95 <= 100 ms; memory < 500 MB; PGlite every shape
// p95 <= 50 ms in 3 of 3 runs. `--grep` adds the grep -F baseline over the records as JSONL.
import { createWriteStream, readFileSync } from 'node:fs';
import http from 'node:http';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import pg from 'pg';
import {
  cpuMeter,
  cpuSecondsOf,
  fmt,
  freshDatabase,
  loadAverage,
  mailTo,
  main,
  percentile,
  repeatRuns,
  runCommand,
  seedUsers,
  spawnGroup,
  startServer,
  tempDir,
} from './harness.ts';

const { values } = parseArgs({
  options: {
    records: { type: 'string', default: '2000000' },
    queries: { type: 'string', default: '200' },
    runs: { type: 'string', default: '3' },
    grep: { type: 'boolean', default: false },
    pglite: { type: 'boolean', default: true },
    postgres: { type: 'boolean', default: true },
  },
  allowNegative: true,
});
const records = Number(values.records);
const queries = Number(values.queries);
const runs = Number(values.runs);
for (const [name, n] of Object.entries({ records, queries, runs }))
  if (!Number.isInteger(n) || n < 1) throw new Error(`--${name} must be a whole number >= 1`);

/** The allowance of the goal: HTTP p95 within this many ms of the SQL p95, for the exact shapes. */
const HTTP_OVER_SQL_MS = 5;

type Field = { type: 'name' | 'email' | 'phone' | 'username'; value: string };
type Shape = { name: string; fields: Field[]; page?: number; grep: string; exact: boolean };
const shapes: Shape[] = [
  {
    name: 'exact e-mail',
    fields: [{ type: 'email', value: 'rich.demo@example.test' }],
    grep: 'rich.demo@example.test',
    exact: true,
  },
  { name: 'phone', fields: [{ type: 'phone', value: '9876543210' }], grep: '9876543210', exact: true },
  { name: 'username', fields: [{ type: 'username', value: 'rohand90' }], grep: '"rohand90"', exact: true },
  {
    name: 'two-word name',
    fields: [{ type: 'name', value: 'Rohan Deshmukh' }],
    grep: 'Rohan Deshmukh',
    exact: false,
  },
  {
    name: 'two-row AND (name + phone)',
    fields: [
      { type: 'name', value: 'Rohan Deshmukh' },
      { type: 'phone', value: '9876543210' },
    ],
    grep: '9876543210',
    exact: false,
  },
  {
    name: 'many matches, page 50',
    fields: [{ type: 'name', value: 'Priya Sharma' }],
    page: 50,
    grep: 'Priya Sharma',
    exact: false,
  },
];

const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

/** One search as the browser sends it (keep-alive, `Accept-Encoding: br, gzip`), body read whole. */
function search(port: number, token: string, shape: Shape, page = shape.page ?? 1) {
  const body = JSON.stringify({ fields: shape.fields });
  return new Promise<{ ms: number; status: number; total: number }>((resolve, reject) => {
    const t0 = performance.now();
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: `/api/leak-data-finder/?page=${page}&per_page=10`,
        agent,
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          accept: 'application/json',
          'accept-encoding': 'br, gzip',
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const ms = performance.now() - t0;
          const raw = Buffer.concat(chunks);
          // Decoded after the time is taken (the browser's decoding is not the server's time).
          const encoding = res.headers['content-encoding'];
          const text = (
            encoding === 'br' ? brotliDecompressSync(raw) : encoding === 'gzip' ? gunzipSync(raw) : raw
          ).toString();
          const total = (JSON.parse(text) as { total?: number }).total ?? -1;
          resolve({ ms, status: res.statusCode ?? 0, total });
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** The two statements the service runs for a page (capped count, then the page), as one measure. */
function sqlOf(shape: Shape) {
  const where = shape.fields
    .map((f, i) =>
      f.type === 'name'
        ? `name_tokens @> $${i + 1}::text[]`
        : `${f.type === 'email' ? 'email_norm' : f.type === 'phone' ? 'phone_norm' : 'username_norm'} = $${i + 1}`,
    )
    .join(' and ');
  const params = shape.fields.map((f) =>
    f.type === 'name'
      ? f.value.toLowerCase().split(/\s+/)
      : f.type === 'phone'
        ? f.value.slice(-10)
        : f.value.toLowerCase(),
  );
  return async (client: pg.Client) => {
    const t0 = performance.now();
    await client.query(
      `select count(*) from (select 1 from leak_records where ${where} limit 10001) c`,
      params,
    );
    await client.query(
      `select r.*, s.name as source from leak_records r join leak_sources s on s.id = r.source_id where r.id in (select id from (select id from leak_records where ${where} limit 10001) m order by id limit 10 offset ${((shape.page ?? 1) - 1) * 10}) and ${where} order by r.id`,
      params,
    );
    return performance.now() - t0;
  };
}

const rssOf = (pid: number) =>
  Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;

const ms3 = (values: number[]) => `${fmt(percentile(values, 50))} / ${fmt(percentile(values, 95))}`;

async function onPostgres() {
  const db = await freshDatabase();
  const dir = tempDir('fp-bench-leaks-');
  const port = 3700 + Math.floor(Math.random() * 90);
  // Start once to migrate, then load through the built CLI (the importer's path).
  await (await startServer({ DATABASE_URL: db.url, SEED_DEMO: 'false' }, port)).stop();
  console.log(`Load average before loading: ${loadAverage()}`);
  const loaded = await runCommand(
    process.execPath,
    ['apps/server/dist/cli.js', 'leaks:sandbox', '--count', String(records), '--seed', 'bench'],
    { env: { DATABASE_URL: db.url, CI: 'true' }, capture: true },
  );
  console.log(
    `Loaded ${records.toLocaleString('en')} synthetic records (leaks:sandbox) in ${fmt(loaded.seconds)} s: ${fmt(records / loaded.seconds, 0)} rows/s; load average ${loadAverage()}`,
  );

  const client = new pg.Client({ connectionString: db.url });
  await client.connect();
  const {
    rows: [own],
  } = await client.query<{ pid: number }>('select pg_backend_pid() as pid');
  await client.query('analyze leak_records');

  if (values.grep) {
    const jsonl = join(dir, 'leaks.jsonl');
    const { child, exited, stop } = spawnGroup(
      'psql',
      [
        db.url,
        '-At',
        '-c',
        'select row_to_json(r) from (select name, email, phone, username, address, other from leak_records) r',
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    child.stdout!.pipe(createWriteStream(jsonl));
    await exited;
    await stop();
    for (const shape of shapes) {
      const { seconds } = await runCommand('grep', ['-F', '-c', shape.grep, jsonl], { capture: true }).catch(
        () => ({ seconds: Number.NaN }),
      );
      console.log(`grep -F ${shape.name}: ${fmt(seconds * 1000, 0)} ms`);
    }
  }

  const server = await startServer({ DATABASE_URL: db.url, RATE_LIMIT_ENABLED: 'false' }, port);
  const [token] = await seedUsers(db.url, 1, 10_000_000);
  const totals = new Map<string, number>();
  for (const shape of shapes) {
    // The one paid search of each shape (what follows are free repeats of it), and its total.
    const first = await search(port, token!, shape, 1);
    if (first.status !== 200) throw new Error(`${shape.name}: HTTP ${first.status}`);
    totals.set(shape.name, first.total);
  }
  const sql = new Map(shapes.map((shape) => [shape.name, sqlOf(shape)]));
  const meter = cpuMeter({
    serverPid: server.pid,
    databaseUrl: db.url,
    database: db.name,
    exclude: [own!.pid],
  });

  console.log(
    `\nPer run: each shape ${queries} times over HTTP and in SQL, interleaved. Goal: exact shapes HTTP p95 <= SQL p95 + ${HTTP_OVER_SQL_MS} ms.`,
  );
  const { results } = await repeatRuns({
    name: `leak search, ${records.toLocaleString('en')} records`,
    runs,
    need: runs,
    unit: 'search',
    async measure(run) {
      const lines: string[] = [];
      let met = true;
      let seconds = 0;
      let cpu = { server: 0, postgres: 0 };
      for (const shape of shapes) {
        for (let i = 0; i < 5; i++) {
          await search(port, token!, shape);
          await sql.get(shape.name)!(client);
        }
        const httpMs: number[] = [];
        const sqlMs: number[] = [];
        // The server does nothing for the SQL measures, and the bench's own backend is left out.
        await meter.start();
        const sqlCpuBefore = cpuSecondsOf(own!.pid);
        for (let i = 0; i < queries; i++) {
          const r = await search(port, token!, shape);
          if (r.status !== 200) throw new Error(`${shape.name}: HTTP ${r.status}`);
          httpMs.push(r.ms);
          seconds += r.ms / 1000;
          sqlMs.push(await sql.get(shape.name)!(client));
        }
        const httpCpu = await meter.stop();
        // The bench's own backend ran only the SQL measures: PostgreSQL's CPU for the SQL alone.
        const sqlCpu = cpuSecondsOf(own!.pid) - sqlCpuBefore;
        cpu = { server: cpu.server + httpCpu.server, postgres: cpu.postgres + httpCpu.postgres };
        const over = percentile(httpMs, 95) - percentile(sqlMs, 95);
        const shapeMet = !shape.exact || over <= HTTP_OVER_SQL_MS;
        if (!shapeMet) met = false;
        lines.push(
          `| ${run} | ${shape.name} | ${totals.get(shape.name)} | ${ms3(sqlMs)} | ${ms3(httpMs)} | ${fmt(over)} | ${fmt((httpCpu.server / queries) * 1e6, 0)} + ${fmt((httpCpu.postgres / queries) * 1e6, 0)} | ${fmt((sqlCpu / queries) * 1e6, 0)} | ${shape.exact ? (shapeMet ? 'met' : 'NOT met') : '—'} |`,
        );
      }
      console.log(
        `\n| run | query shape | matches | SQL p50 / p95 ms | HTTP p50 / p95 ms | HTTP p95 − SQL p95 ms | CPU µs/search over HTTP: server + PostgreSQL | PostgreSQL CPU µs/query in SQL alone | goal |\n|---|---|---|---|---|---|---|---|---|\n${lines.join('\n')}`,
      );
      return {
        units: queries * shapes.length,
        seconds,
        cpu,
        met,
        detail: `${queries * shapes.length} searches over HTTP, all shapes`,
      };
    },
  });
  void results;
  console.log(`\nserver RSS after the runs: ${fmt(rssOf(server.pid), 0)} MB (goal < 500 MB)`);
  const plan = await client.query(
    "explain (analyze, costs off, timing off, summary off) select id from (select id from leak_records where name_tokens @> array['priya','sharma']::text[] limit 10001) m order by id limit 10 offset 490",
  );
  console.log(
    `\nEXPLAIN ANALYZE, many matches page 50:\n${plan.rows.map((r) => `    ${r['QUERY PLAN']}`).join('\n')}`,
  );
  await client.end();
  await server.stop();
  await db.drop();
}

async function onPGlite() {
  const dataDir = tempDir('fp-bench-pglite-');
  const port = 3600 + Math.floor(Math.random() * 90);
  const started = performance.now();
  const server = await startServer(
    {
      NODE_ENV: 'development',
      DATA_DIR: dataDir,
      SANDBOX_LEAK_RECORDS: '100000',
      RATE_LIMIT_ENABLED: 'false',
      SEED_DEMO: 'false',
      // The bench registers a user and signs it in with the code the product mails to the bench's sink.
      REGISTRATION_MODE: 'open',
    },
    port,
  );
  console.log(
    `\nPGlite: first start with 100,000 synthetic records took ${fmt((performance.now() - started) / 1000)} s; load average ${loadAverage()}`,
  );
  const post = async (path: string, body: unknown, headers: Record<string, string> = {}, allow = [200]) => {
    const res = await fetch(`http://127.0.0.1:${port}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
    const json = (await res.json().catch(() => ({}))) as Record<string, unknown>;
    if (!allow.includes(res.status)) throw new Error(`${path}: HTTP ${res.status} ${JSON.stringify(json)}`);
    return json;
  };
  const email = `bench-${Date.now()}@example.test`;
  const password = 'bench password 1';
  await post(
    '/api/register',
    {
      name: 'Bench',
      email,
      password,
      password_confirmation: password,
      organisation: 'Bench Bureau',
      designation: 'Analyst',
    },
    {},
    [200, 201],
  );
  const device = crypto.randomUUID();
  // A new device: the login answers 403 `otp_required` and mails the code.
  const login = await post('/api/login', { email, password }, { 'x-device-id': device }, [200, 403]);
  if (login.otp_required !== true) throw new Error(`login: ${JSON.stringify(login)}`);
  const otp = /\b(\d{6})\b/.exec((await mailTo(email)).text)?.[1];
  if (!otp) throw new Error('no sign-in code in the mail');
  const { token } = (await post('/api/verify-email-otp', { email, otp }, { 'x-device-id': device })) as {
    token: string;
  };
  const count = Math.min(queries, 100);
  const firstPages = shapes.map((shape) => ({ ...shape, page: 1 }));
  const totals = new Map<string, number>();
  for (const shape of firstPages) totals.set(shape.name, (await search(port, token, shape)).total);
  const meter = cpuMeter({ serverPid: server.pid });
  await repeatRuns({
    name: 'PGlite leak search, 100,000 records',
    runs,
    need: runs,
    unit: 'search',
    async measure(run) {
      const lines: string[] = [];
      let met = true;
      let seconds = 0;
      await meter.start();
      for (const shape of firstPages) {
        const ms: number[] = [];
        for (let i = 0; i < count; i++) {
          const r = await search(port, token, shape);
          if (r.status !== 200) throw new Error(`${shape.name}: HTTP ${r.status}`);
          ms.push(r.ms);
          seconds += r.ms / 1000;
        }
        if (percentile(ms, 95) > 50) met = false;
        lines.push(
          `| ${run} | ${shape.name}${shape.name.includes('page') ? ' (page 1)' : ''} | ${totals.get(shape.name)} | ${ms3(ms)} |`,
        );
      }
      const cpu = await meter.stop();
      console.log(
        `\n| run | PGlite query shape | matches | HTTP p50 / p95 ms |\n|---|---|---|---|\n${lines.join('\n')}`,
      );
      return {
        units: count * firstPages.length,
        seconds,
        cpu,
        met,
        detail: `every shape p95 <= 50 ms: ${met ? 'yes' : 'no'}`,
      };
    },
  });
  await server.stop();
}

await main(async () => {
  if (values.postgres) await onPostgres();
  if (values.pglite) await onPGlite();
  agent.destroy();
});
