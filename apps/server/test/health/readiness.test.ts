// GET /api/health, /api/health/live and /api/health/ready: each check failing for real (a database
// and a Redis on closed ports, a migration the database lacks, a stopped queue, draining).
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrationsFolder, openDatabase } from '../../src/db/client.ts';
import { createReadiness } from '../../src/modules/health/readiness.ts';
import { createJobQueue } from '../../src/modules/jobs/index.ts';
import { createRateLimits } from '../../src/security/rate-limit.ts';
import { createTestApp } from '../support/app.ts';

/** A port nothing listens on (bound, then closed). */
const closedPort = () =>
  new Promise<number>((resolve) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });

const logLines: string[] = [];
const logStream = new Writable({
  write(chunk, _encoding, done) {
    logLines.push(...chunk.toString().split('\n').filter(Boolean));
    done();
  },
});

let t: Awaited<ReturnType<typeof createTestApp>>;
beforeAll(async () => {
  t = await createTestApp({ env: { LOG_LEVEL: 'info' }, logStream });
});
afterAll(() => t.close());

describe('health endpoints of a running app', () => {
  it('answers live, ready (every check named) and the older /api/health; none logged at info', async () => {
    const before = logLines.length;
    const live = await t.app.inject({ method: 'GET', url: '/api/health/live' });
    expect(live.statusCode).toBe(200);
    expect(live.json()).toEqual({ status: 'ok' });
    const ready = await t.app.inject({ method: 'GET', url: '/api/health/ready' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({
      status: 'ready',
      checks: { database: 'ok', migrations: 'ok', redis: 'not configured', jobs: 'ok', draining: false },
    });
    const health = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(health.statusCode).toBe(200);
    expect(health.json()).toEqual({ status: 'ok' });
    expect(logLines.slice(before).filter((line) => line.includes('/api/health'))).toEqual([]);
    // Another route is logged per call, so the silence above is the routes' own.
    await t.app.inject({ method: 'GET', url: '/api/registration-status' });
    expect(logLines.slice(before).some((line) => line.includes('/api/registration-status'))).toBe(true);
  });

  it('lists the three in the OpenAPI document, with their 503', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json();
    expect(Object.keys(doc.paths['/api/health/ready'].get.responses)).toEqual(
      expect.arrayContaining(['200', '503']),
    );
    expect(doc.paths['/api/health/live'].get.responses['200']).toBeDefined();
    expect(doc.paths['/api/health'].get.responses['503']).toBeDefined();
    expect(doc.paths['/api/health/ready'].get.security).toEqual([]);
  });

  it('fails readiness at once when draining, with Retry-After, while live stays 200', async () => {
    t.readiness.drain();
    const ready = await t.app.inject({ method: 'GET', url: '/api/health/ready' });
    expect(ready.statusCode).toBe(503);
    expect(Number(ready.headers['retry-after'])).toBeGreaterThan(0);
    expect(ready.json()).toMatchObject({
      status: 'not_ready',
      failing: ['draining'],
      message: 'Not ready: draining for shutdown.',
      checks: { database: 'ok', draining: true },
    });
    expect((await t.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(503);
    expect((await t.app.inject({ method: 'GET', url: '/api/health/live' })).statusCode).toBe(200);
  });
});

describe('readiness checks against dependencies that fail', () => {
  const dir = mkdtempSync(join(tmpdir(), 'fp-ready-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('names a database that does not answer and a configured Redis that does not, within about a second', async () => {
    const down = await openDatabase({ url: `postgres://postgres@127.0.0.1:${await closedPort()}/none` });
    const limits = createRateLimits({ enabled: true, redisUrl: `redis://127.0.0.1:${await closedPort()}` });
    try {
      const readiness = createReadiness({
        db: down.db,
        migrationsFolder,
        limits,
        jobs: { isRunning: () => true },
      });
      const started = Date.now();
      const verdict = await readiness.check();
      expect(Date.now() - started).toBeLessThan(3000);
      expect(verdict.ready).toBe(false);
      expect(verdict.failing).toEqual(['database', 'redis']);
      expect(verdict.checks).toMatchObject({
        database: 'unreachable',
        migrations: 'unknown',
        redis: 'unreachable',
      });
    } finally {
      await limits.close();
      await down.close();
    }
  });

  it('names migrations this build carries that the database lacks, and a job queue not running', async () => {
    // The build's journal with one migration more than the database has applied.
    const folder = join(dir, 'drizzle');
    mkdirSync(join(folder, 'meta'), { recursive: true });
    const journal = JSON.parse(readFileSync(join(migrationsFolder, 'meta', '_journal.json'), 'utf8'));
    journal.entries.push({
      idx: journal.entries.length,
      version: '7',
      when: Date.now(),
      tag: '9999_next',
      breakpoints: true,
    });
    writeFileSync(join(folder, 'meta', '_journal.json'), JSON.stringify(journal));
    const jobs = createJobQueue({ db: t.db });
    const readiness = createReadiness({ db: t.db, migrationsFolder: folder, limits: {}, jobs });
    const verdict = await readiness.check();
    expect(verdict.failing).toEqual(['migrations', 'jobs']);
    expect(verdict.checks).toMatchObject({
      database: 'ok',
      migrations: 'pending',
      redis: 'not configured',
      jobs: 'stopped',
    });
  });
});
