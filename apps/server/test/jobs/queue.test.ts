import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../src/db/client.ts';
import { rowsOf } from '../../src/db/rows.ts';
import { createInProcessQueue } from '../../src/modules/jobs/in-process.ts';
import { createPgBossQueue } from '../../src/modules/jobs/pg-boss.ts';
import type { Job, JobQueue } from '../../src/modules/jobs/queue.ts';
import { createTestDatabase } from '../support/db.ts';

let handle: DatabaseHandle & { url?: string };
beforeAll(async () => {
  handle = await createTestDatabase();
});
afterAll(() => handle.close());

const postgres = Boolean(process.env.TEST_DATABASE_URL);

/** Resolves when `check` is true, polling; fails the test after `ms`. */
async function until(check: () => boolean | Promise<boolean>, ms = 15_000) {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** The behaviour both queues promise (queue.ts), run against each. */
function queueContract(make: () => JobQueue, unique: () => string) {
  it('retries a failing job with exponential backoff, then completes it', async () => {
    const queue = make();
    const name = unique();
    const tries: Array<{ at: number; retryCount: number }> = [];
    await queue.work<{ n: number }>(name, async (job) => {
      tries.push({ at: Date.now(), retryCount: job.retryCount });
      expect(job.data).toEqual({ n: 7 });
      if (tries.length < 3) throw new Error(`failure ${tries.length}`);
    });
    await queue.start();
    try {
      expect(
        await queue.send(name, { n: 7 }, { singletonKey: 'seven', retryLimit: 3, retryDelaySeconds: 1 }),
      ).toEqual(expect.any(String));
      await until(() => tries.length === 3, 30_000);
      expect(tries.map((t) => t.retryCount)).toEqual([0, 1, 2]);
      const first = tries[1]!.at - tries[0]!.at;
      const second = tries[2]!.at - tries[1]!.at;
      // 1 s, then about 2 s (pg-boss adds jitter: between half and all of delay × 2^tries).
      expect(first).toBeGreaterThanOrEqual(450);
      expect(second).toBeGreaterThanOrEqual(950);
      expect(second).toBeGreaterThan(first * 0.9);
    } finally {
      await queue.stop();
    }
  }, 40_000);

  it('gives up after the retry limit', async () => {
    const queue = make();
    const name = unique();
    let tries = 0;
    await queue.work(name, async () => {
      tries++;
      throw new Error('always');
    });
    await queue.start();
    try {
      await queue.send(name, {}, { singletonKey: 'failing', retryLimit: 1, retryDelaySeconds: 1 });
      await until(() => tries === 2, 20_000);
      await new Promise((resolve) => setTimeout(resolve, 2500));
      expect(tries).toBe(2);
    } finally {
      await queue.stop();
    }
  }, 30_000);

  it('folds sends of one singleton key: one waits, one runs', async () => {
    const queue = make();
    const name = unique();
    const ran: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    await queue.work<{ n: number }>(name, async (job) => {
      ran.push(String(job.data.n));
      if (job.data.n === 1) await gate;
    });
    // Before start: the second send of the key is folded into the first.
    expect(await queue.send(name, { n: 1 }, { singletonKey: 'k' })).toEqual(expect.any(String));
    expect(await queue.send(name, { n: 9 }, { singletonKey: 'k' })).toBeNull();
    // Another key is another job.
    expect(await queue.send(name, { n: 3 }, { singletonKey: 'other' })).toEqual(expect.any(String));
    await queue.start();
    try {
      await until(() => ran.includes('1'));
      // While the first runs, one more may wait (work that arrived during the run), and only one.
      expect(await queue.send(name, { n: 2 }, { singletonKey: 'k' })).toEqual(expect.any(String));
      expect(await queue.send(name, { n: 8 }, { singletonKey: 'k' })).toBeNull();
      await new Promise((resolve) => setTimeout(resolve, 1200));
      // The waiting job of the key does not start while the first still runs.
      expect(ran.filter((n) => n === '2')).toEqual([]);
      // The queue's depth (the metrics' footprint_job_queue_depth): it, and the other key's job
      // while that waits behind the one worker.
      expect((await queue.depth())[name]).toBe(ran.includes('3') ? 1 : 2);
      release();
      await until(() => ran.includes('2'));
      expect(ran.sort()).toEqual(['1', '2', '3']);
      expect((await queue.depth())[name] ?? 0).toBe(0);
    } finally {
      await queue.stop();
    }
  }, 30_000);

  it('sends an `every` job once per interval', async () => {
    const queue = make();
    const name = unique();
    const runs: number[] = [];
    await queue.work(name, async () => {
      runs.push(Date.now());
    });
    await queue.every(name, 2);
    const started = Date.now();
    await queue.start();
    try {
      // Sent every second (pg-boss: twice a slot) or every 2 s (in-process), run at most once per 2 s
      // slot. Two runs may still come close together (one slot's job late, the next one's early), so
      // what is counted is runs in 6.2 s: 7 if every send ran, at most 4 slots' worth once per slot.
      await new Promise((resolve) => setTimeout(resolve, 6_200 - (Date.now() - started)));
      const seen = runs.length;
      expect(seen).toBeGreaterThanOrEqual(2);
      expect(seen).toBeLessThanOrEqual(4);
    } finally {
      await queue.stop();
    }
  }, 20_000);
}

let counter = 0;
const uniqueName = () => `test-job-${Date.now()}-${++counter}`;

describe('in-process job queue', () => {
  queueContract(() => createInProcessQueue(handle.db, { pollMs: 50 }), uniqueName);

  it('takes back on start a job a stopped process left active, and runs it again', async () => {
    const name = uniqueName();
    const first = createInProcessQueue(handle.db, { pollMs: 50, graceMs: 100 });
    const seen: Array<Job<{ n: number }>> = [];
    // The first process takes the job and never finishes it (it dies mid-job).
    await first.work<{ n: number }>(name, (job) => {
      seen.push(job);
      return new Promise(() => {});
    });
    await first.start();
    const id = await first.send(name, { n: 5 }, { singletonKey: 'five' });
    await until(() => seen.length === 1);
    await first.stop(); // the handler is still "running": the row stays active
    const [row] = rowsOf<{ state: string }>(
      await handle.db.execute(sql`select state from jobs where id = ${id}`),
    );
    expect(row?.state).toBe('active');

    const second = createInProcessQueue(handle.db, { pollMs: 50 });
    const resumed: Array<Job<{ n: number }>> = [];
    await second.work<{ n: number }>(name, async (job) => {
      resumed.push(job);
    });
    await second.start();
    try {
      await until(() => resumed.length === 1);
      expect(resumed[0]).toMatchObject({ id, data: { n: 5 } });
      await until(async () => {
        const [done] = rowsOf<{ state: string }>(
          await handle.db.execute(sql`select state from jobs where id = ${id}`),
        );
        return done?.state === 'completed';
      });
    } finally {
      await second.stop();
    }
  });

  it('keeps a job across a restart of the queue', async () => {
    const name = uniqueName();
    const first = createInProcessQueue(handle.db, { pollMs: 50 });
    const id = await first.send(
      name,
      { n: 1 },
      { singletonKey: 'later', startAfter: new Date(Date.now() + 500) },
    );
    const second = createInProcessQueue(handle.db, { pollMs: 50 });
    const ran: string[] = [];
    await second.work(name, async (job) => {
      ran.push(job.id);
    });
    await second.start();
    try {
      await until(() => ran.length === 1);
      expect(ran).toEqual([id]);
    } finally {
      await second.stop();
    }
  });
});

describe.runIf(postgres)('pg-boss job queue (PostgreSQL)', () => {
  const make = () => createPgBossQueue({ connectionString: handle.url!, maintenanceIntervalSeconds: 1 });
  queueContract(make, uniqueName);

  it('runs again a job whose process died while it was active', async () => {
    const name = uniqueName();
    const queue = make();
    const ran: Array<Job<{ n: number }>> = [];
    const id = await queue.send(
      name,
      { n: 4 },
      { singletonKey: 'four', retryLimit: 2, retryDelaySeconds: 1 },
    );
    // A process took the job an hour ago and died with it: pg-boss expires it and retries it.
    const client = new pg.Client({ connectionString: handle.url });
    await client.connect();
    await client.query(
      `update pgboss.job set state = 'active', started_on = now() - interval '1 hour', expire_in = interval '1 minute' where id = $1`,
      [id],
    );
    await client.end();
    await queue.work<{ n: number }>(name, async (job) => {
      ran.push(job);
    });
    await queue.start();
    try {
      await until(() => ran.length === 1, 20_000);
      expect(ran[0]).toMatchObject({ id, data: { n: 4 }, retryCount: 1 });
    } finally {
      await queue.stop();
    }
  }, 30_000);
});
