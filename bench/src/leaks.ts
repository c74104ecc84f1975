// Benchmark of the Leak Data Finder. Run: npm run bench:leaks [-- --records 10000000 --runs 200]
// On PostgreSQL: load N synthetic records (rows/s), then p50/p95/p99 of every query shape, server-side
// (the SQL the service runs) and over HTTP, beside grep -F over the same records exported as JSONL,
// and the server's memory. Then the embedded PGlite default with 100,000 records, over HTTP.
// Goals: exact lookups p95 <= 10 ms; name and multi-row p95 <= 100 ms; memory < 500 MB; import
// >= 100,000 rows/s; PGlite every shape p95 <= 50 ms.
import { execFile, spawn } from 'node:child_process';
import { createWriteStream, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs, promisify } from 'node:util';
import pg from 'pg';
import { fmt, freshDatabase, percentile, root, seedUsers, startServer } from './harness.ts';

const run = promisify(execFile);
const { values } = parseArgs({
  options: { records: { type: 'string', default: '1000000' }, runs: { type: 'string', default: '200' } },
});
const records = Number(values.records);
const runs = Number(values.runs);

type Field = { type: 'name' | 'email' | 'phone' | 'username'; value: string };
const shapes: Array<{ name: string; fields: Field[]; page?: number; grep: string }> = [
  {
    name: 'exact e-mail',
    fields: [{ type: 'email', value: 'rich.demo@example.test' }],
    grep: 'rich.demo@example.test',
  },
  { name: 'phone', fields: [{ type: 'phone', value: '9876543210' }], grep: '9876543210' },
  { name: 'username', fields: [{ type: 'username', value: 'rohand90' }], grep: '"rohand90"' },
  { name: 'two-word name', fields: [{ type: 'name', value: 'Rohan Deshmukh' }], grep: 'Rohan Deshmukh' },
  {
    name: 'two-row AND (name + phone)',
    fields: [
      { type: 'name', value: 'Rohan Deshmukh' },
      { type: 'phone', value: '9876543210' },
    ],
    grep: '9876543210',
  },
  {
    name: 'many matches, page 50',
    fields: [{ type: 'name', value: 'Priya Sharma' }],
    page: 50,
    grep: 'Priya Sharma',
  },
];

async function cli(args: string[], env: Record<string, string>) {
  const started = performance.now();
  await new Promise<void>((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/cli/index.ts', ...args], {
      cwd: root,
      env: { PATH: process.env.PATH ?? '', ...env },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`cli exited ${code}`))));
  });
  return (performance.now() - started) / 1000;
}

async function http(port: number, token: string, shape: (typeof shapes)[number]) {
  const t0 = performance.now();
  const res = await fetch(
    `http://127.0.0.1:${port}/api/leak-data-finder/?page=${shape.page ?? 1}&per_page=10`,
    {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ fields: shape.fields }),
    },
  );
  const body = (await res.json()) as { total?: number };
  return { ms: performance.now() - t0, status: res.status, total: body.total };
}

const rssOf = (pid: number) =>
  Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;

// ---------------- PostgreSQL ----------------
const db = await freshDatabase();
const dir = mkdtempSync(join(tmpdir(), 'fp-bench-leaks-'));
try {
  const port = 3700 + Math.floor(Math.random() * 90);
  // Start once to migrate, then load through the CLI (the importer's COPY path).
  let server = await startServer({ DATABASE_URL: db.url }, port);
  await server.stop();
  const loadSeconds = await cli(['leaks:sandbox', '--count', String(records), '--seed', 'bench'], {
    DATABASE_URL: db.url,
  });
  console.log(
    `Loaded ${records.toLocaleString('en')} synthetic records in ${fmt(loadSeconds)} s: ${fmt(records / loadSeconds, 0)} rows/s (goal >= 100,000)`,
  );

  const client = new pg.Client({ connectionString: db.url });
  await client.connect();
  await client.query('analyze leak_records');

  // grep baseline over the same records as JSONL.
  const jsonl = join(dir, 'leaks.jsonl');
  await new Promise<void>((resolve, reject) => {
    const out = createWriteStream(jsonl);
    const copy = spawn(
      'psql',
      [
        db.url,
        '-At',
        '-c',
        'select row_to_json(r) from (select name, email, phone, username, address, other from leak_records) r',
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    copy.stdout.pipe(out);
    copy.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`psql exited ${code}`))));
  });

  server = await startServer({ DATABASE_URL: db.url, RATE_LIMIT_ENABLED: 'false' }, port);
  const [token] = await seedUsers(db.url, 1, 10_000_000);
  const serverPid = server.pid;

  console.log(
    `\n| query shape | matches | SQL p50 / p95 / p99 ms | HTTP p50 / p95 / p99 ms | grep -F ms | grep ÷ HTTP p50 |`,
  );
  console.log('|---|---|---|---|---|---|');
  for (const shape of shapes) {
    for (let i = 0; i < 5; i++) await http(port, token!, shape); // warm-up (and the one paid run)
    const httpMs: number[] = [];
    let total = 0;
    for (let i = 0; i < runs; i++) {
      const r = await http(port, token!, shape);
      if (r.status !== 200) throw new Error(`${shape.name}: HTTP ${r.status}`);
      httpMs.push(r.ms);
      total = r.total ?? 0;
    }
    // Server-side: the two statements the service runs for a page (capped count, then the page).
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
    const sqlMs: number[] = [];
    for (let i = 0; i < runs; i++) {
      const t0 = performance.now();
      await client.query(
        `select count(*) from (select 1 from leak_records where ${where} limit 10001) c`,
        params,
      );
      await client.query(
        `select r.*, s.name as source from leak_records r join leak_sources s on s.id = r.source_id where r.id in (select id from (select id from leak_records where ${where} limit 10001) m order by id limit 10 offset ${((shape.page ?? 1) - 1) * 10}) and ${where} order by r.id`,
        params,
      );
      sqlMs.push(performance.now() - t0);
    }
    const g0 = performance.now();
    await run('grep', ['-F', '-c', shape.grep, jsonl]).catch(() => undefined);
    const grepMs = performance.now() - g0;
    console.log(
      `| ${shape.name} | ${total} | ${fmt(percentile(sqlMs, 50))} / ${fmt(percentile(sqlMs, 95))} / ${fmt(percentile(sqlMs, 99))} | ${fmt(percentile(httpMs, 50))} / ${fmt(percentile(httpMs, 95))} / ${fmt(percentile(httpMs, 99))} | ${fmt(grepMs, 0)} | ${fmt(grepMs / percentile(httpMs, 50), 0)}x |`,
    );
  }
  console.log(`\nserver RSS after the runs: ${fmt(rssOf(serverPid), 0)} MB (goal < 500 MB)`);
  const plan = await client.query(
    "explain (analyze, costs off, timing off, summary off) select id from (select id from leak_records where name_tokens @> array['priya','sharma']::text[] limit 10001) m order by id limit 10 offset 490",
  );
  console.log(
    `\nEXPLAIN ANALYZE, many matches page 50:\n${plan.rows.map((r) => `    ${r['QUERY PLAN']}`).join('\n')}`,
  );
  await client.end();
  await server.stop();
} finally {
  await db.drop();
  rmSync(dir, { recursive: true, force: true });
}

// ---------------- embedded PGlite, 100,000 records ----------------
const dataDir = mkdtempSync(join(tmpdir(), 'fp-bench-pglite-'));
try {
  const port = 3600 + Math.floor(Math.random() * 90);
  const started = performance.now();
  const server = await startServer(
    {
      NODE_ENV: 'development',
      DATA_DIR: dataDir,
      SANDBOX_LEAK_RECORDS: '100000',
      RATE_LIMIT_ENABLED: 'false',
      SEED_DEMO: 'false',
      // The bench registers a user and signs it in at once.
      REGISTRATION_MODE: 'open',
    },
    port,
  );
  console.log(
    `\nPGlite: first start with 100,000 synthetic records took ${fmt((performance.now() - started) / 1000)} s`,
  );
  // A token straight into PGlite is not possible from outside the process; sign in a registered user instead.
  const email = `bench-${Date.now()}@example.test`;
  const password = 'bench password 1';
  await fetch(`http://127.0.0.1:${port}/api/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      name: 'Bench',
      email,
      password,
      password_confirmation: password,
      organisation: 'Bench Bureau',
      designation: 'Analyst',
    }),
  });
  const device = crypto.randomUUID();
  await fetch(`http://127.0.0.1:${port}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-device-id': device },
    body: JSON.stringify({ email, password }),
  });
  const mails = (await (await fetch(`http://127.0.0.1:${port}/dev/outbox.json`)).json()) as Array<{
    to: string;
    text: string;
  }>;
  const otp = /code is (\d{6})/.exec(mails.find((m) => m.to === email)!.text)![1];
  const verified = (await (
    await fetch(`http://127.0.0.1:${port}/api/verify-email-otp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-device-id': device },
      body: JSON.stringify({ email, otp }),
    })
  ).json()) as { token: string };
  console.log(
    '\n| PGlite query shape (100,000 records) | matches | HTTP p50 / p95 / p99 ms |\n|---|---|---|',
  );
  for (const shape of shapes) {
    const page = shape.page ? { ...shape, page: 1 } : shape;
    await http(port, verified.token, page);
    const ms: number[] = [];
    let total = 0;
    for (let i = 0; i < Math.min(runs, 100); i++) {
      const r = await http(port, verified.token, page);
      if (r.status !== 200) throw new Error(`${shape.name}: HTTP ${r.status}`);
      ms.push(r.ms);
      total = r.total ?? 0;
    }
    console.log(
      `| ${shape.name}${shape.page ? ' (page 1)' : ''} | ${total} | ${fmt(percentile(ms, 50))} / ${fmt(percentile(ms, 95))} / ${fmt(percentile(ms, 99))} |`,
    );
  }
  await server.stop();
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
