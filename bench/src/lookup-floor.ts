// Floor B of the phone lookup: what a lookup must write, with nothing else. The server's own
// group-committing charge batcher and settle writer (apps/server/src/modules/searches/), driven by the
// same number of concurrent clients as bench:lookup, against a fresh migrated database: per lookup one
// charge (users, lookups and ledger rows) and one settle (the lookups row with its stored answer, and
// its audit row), as /api/tel writes them. No HTTP, no token check, no sources (each client's answers
// are made before the clock starts), no serialisation of an answer. Its CPU is this process's plus
// that of the PostgreSQL backends serving the database, from /proc.
//
// bench:lookup runs it as a child process (`node --import tsx bench/src/lookup-floor.ts --url …`), so
// its garbage and JIT are its own, as the server's are; it prints one JSON line.
import { parseArgs } from 'node:util';
import pg from 'pg';
import { openDatabase } from '../../apps/server/src/db/client.ts';
import { createChargeBatcher } from '../../apps/server/src/modules/searches/charge-batcher.ts';
import { createSettleWriter } from '../../apps/server/src/modules/searches/settle.ts';
import { createRunner } from '../../apps/server/src/providers/runner.ts';
import { createSandboxProviders } from '../../apps/server/src/sandbox/index.ts';
import { analyzeDatabase, backendCpu, backendDelta, cpuSeconds } from './lookup-load.ts';

export interface FloorResult {
  lookups: number;
  seconds: number;
  /** Lookups per second. */
  rate: number;
  /** CPU ms per lookup: this process, and the PostgreSQL backends. */
  cpuMs: number;
  dbCpuMs: number;
  errors: number;
}

/** A /api/tel number of client `w`, its `i`th lookup (the same numbers bench:lookup asks). */
export const telNumber = (w: number, i: number) =>
  `91${String(7_000_000_000 + w * 1_000_000 + i).slice(0, 10)}`;

async function main() {
  const { values } = parseArgs({
    options: {
      url: { type: 'string' },
      admin: { type: 'string' },
      seconds: { type: 'string', default: '6' },
      workers: { type: 'string', default: '50' },
      // A probe: the clients split over this many independent batcher pairs, each with its own pool,
      // as that many server processes would group-commit them (one process, so no CPU contention).
      writers: { type: 'string', default: '1' },
    },
  });
  const url = values.url!;
  const database = new URL(url).pathname.slice(1);
  const seconds = Number(values.seconds);
  const workers = Number(values.workers);
  const handle = await openDatabase({ url });
  await handle.migrate();

  // Users as the bench's: a large balance and a ledger row each.
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  const users: Array<{ id: string; email: string }> = [];
  for (let w = 0; w < workers; w++) {
    const email = `floor${w}@example.test`;
    const { rows } = await admin.query<{ id: string }>(
      `insert into users (name, email, password_hash, app_mode, role, credits) values ($1, $2, 'x', 'live', 'admin', 1000000000) returning id`,
      [`Floor User ${w}`, email],
    );
    await admin.query(
      `insert into credit_entries (user_id, delta, balance_after, kind, reason) values ($1, 1000000000, 1000000000, 'grant', 'benchmark')`,
      [rows[0]!.id],
    );
    users.push({ id: rows[0]!.id, email });
  }
  await admin.end();

  // What each client's lookups store: the sandbox's real answers to 16 numbers (made before the clock).
  const runner = createRunner(createSandboxProviders(), {
    timeoutMs: 5000,
    breakerFailures: 5,
    halfOpenAfterMs: 30_000,
  });
  const answers: Array<Array<{ result: unknown; answered: string[]; errors: Record<string, string> }>> = [];
  for (let w = 0; w < workers; w++) {
    const own = [];
    for (let i = 0; i < 16; i++) {
      const fan = await runner.run({ kind: 'tel', value: telNumber(w, i) });
      own.push({
        result: { payloads: fan.payloads, errors: fan.errors, status: fan.status },
        answered: fan.answered,
        errors: fan.errors,
      });
    }
    answers.push(own);
  }

  const writers = Number(values.writers);
  const handles = [handle];
  for (let k = 1; k < writers; k++) handles.push(await openDatabase({ url }));
  const pairs = handles.map((h) => ({ charge: createChargeBatcher(h.db), write: createSettleWriter(h.db) }));
  let errors = 0;
  const lookup = async (w: number, i: number) => {
    const { charge, write } = pairs[w % writers]!;
    const user = users[w]!;
    const query = telNumber(w, 900_000 + i);
    const charged = await charge({
      userId: user.id,
      cost: 1,
      kind: 'tel',
      query,
      queryTyped: query,
      ip: '127.0.0.1',
      deviceId: null,
      caseReference: null,
      apiKeyId: null,
      at: new Date(),
    });
    if (!charged) throw new Error('charge refused');
    const answer = answers[w]![i % 16]!;
    await write({
      mode: 'settle',
      id: charged.lookupId,
      noRecord: false,
      answered: answer.answered,
      errors: answer.errors,
      result: answer.result,
      sandbox: true,
      at: new Date(),
      actorEmail: user.email,
      action: 'lookup.tel',
      target: query,
      details: { query_typed: query, query, cached: false, sandbox: true, sources_answered: answer.answered },
    });
  };
  const loadFor = async (ms: number, offset: number) => {
    let done = 0;
    const end = performance.now() + ms;
    await Promise.all(
      Array.from({ length: workers }, async (_, w) => {
        for (let i = offset; performance.now() < end; i++) {
          try {
            await lookup(w, i);
            done++;
          } catch {
            errors++;
          }
        }
      }),
    );
    return done;
  };

  // Warm-up (JIT, the pool's connections), then the measured load.
  await loadFor(2000, 0);
  await analyzeDatabase(url);
  errors = 0;
  const adminUrl = values.admin ?? url;
  const cpuBefore = cpuSeconds('self');
  const backendsBefore = await backendCpu(adminUrl, database);
  const started = performance.now();
  const lookups = await loadFor(seconds * 1000, 100_000);
  const elapsed = (performance.now() - started) / 1000;
  const cpu = cpuSeconds('self') - cpuBefore;
  const backends = backendDelta(backendsBefore, await backendCpu(adminUrl, database));
  await Promise.all(handles.map((h) => h.close()));
  const result: FloorResult = {
    lookups,
    seconds: elapsed,
    rate: lookups / elapsed,
    cpuMs: (cpu * 1000) / Math.max(lookups, 1),
    dbCpuMs: (backends * 1000) / Math.max(lookups, 1),
    errors,
  };
  console.log(JSON.stringify(result));
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop()!)) {
  await main();
  process.exit(0);
}
