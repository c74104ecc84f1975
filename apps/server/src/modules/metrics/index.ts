import { timingSafeEqual } from 'node:crypto';
import type { SearchKind } from '@footprint/domain';
import type { FastifyInstance } from 'fastify';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import { unauthenticated } from '../../errors.ts';
import type { ProviderCall, ProviderStats } from '../../providers/runner.ts';
import { sha256 } from '../../security/crypto.ts';
import type { JobHandler, JobQueue } from '../jobs/index.ts';
import type { SearchOutcome } from '../searches/ports.ts';

/**
 * The Prometheus figures of one app (docs/observability.md). Each app owns its registry (tests build
 * many apps in one process); runtime.ts makes it and hands it to the parts that report to it. What is
 * counted on a request's path is a histogram observe or a counter increment, nothing more; the gauges
 * (breakers, job queue depth, database pool) are read when the endpoint is scraped.
 */
export function createMetrics(options: { processMetrics?: boolean } = {}) {
  const registry = new Registry();
  if (options.processMetrics) collectDefaultMetrics({ register: registry });
  const registers = [registry];

  const http = new Histogram({
    name: 'footprint_http_request_duration_seconds',
    help: 'HTTP requests by route pattern (never the raw URL), method and status class',
    labelNames: ['method', 'route', 'status_class'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers,
  });
  const lookups = new Counter({
    name: 'footprint_lookups_total',
    help: 'Paid searches by kind and outcome (charged, no_record, refunded, failed, cached, denied)',
    labelNames: ['kind', 'outcome'] as const,
    registers,
  });
  const credits = new Counter({
    name: 'footprint_credits_total',
    help: 'Credits charged for searches and given back (refunds and no-record answers), by kind',
    labelNames: ['direction', 'kind'] as const,
    registers,
  });
  const sourceLatency = new Histogram({
    name: 'footprint_source_call_duration_seconds',
    help: 'Calls that reached a source provider, by source and provider',
    labelNames: ['source', 'provider'] as const,
    buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers,
  });
  const sourceCalls = new Counter({
    name: 'footprint_source_calls_total',
    help: 'Calls that reached a source provider, by how they ended (ok, not_found, failed, timed_out, rate_limited)',
    labelNames: ['source', 'provider', 'status'] as const,
    registers,
  });
  const jobDuration = new Histogram({
    name: 'footprint_job_duration_seconds',
    help: 'Background job runs by queue and outcome (completed, failed)',
    labelNames: ['queue', 'outcome'] as const,
    buckets: [0.05, 0.1, 0.5, 1, 5, 15, 60, 300, 900],
    registers,
  });
  const reportRender = new Histogram({
    name: 'footprint_report_render_duration_seconds',
    help: 'Reports drawn in the render pool (its queue wait included), by outcome (ok, failed)',
    labelNames: ['outcome'] as const,
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers,
  });

  const siteRequest = siteCheckMetrics(registers);
  // Gauges read on scrape from whatever runtime.ts hands in with `watch`.
  let breakers: (() => readonly ProviderStats[]) | undefined;
  let jobDepth: (() => Promise<Record<string, number>>) | undefined;
  let dbPool: (() => { total: number; idle: number; waiting: number }) | undefined;
  const BREAKER_VALUE = { closed: 0, 'half-open': 1, open: 2, isolated: 3 } as const;
  new Gauge({
    name: 'footprint_source_breaker_state',
    help: "Each source provider's circuit breaker: 0 closed, 1 half-open, 2 open, 3 isolated",
    labelNames: ['source', 'provider'] as const,
    registers,
    collect() {
      this.reset();
      for (const stats of breakers?.() ?? []) {
        this.set({ source: stats.source, provider: stats.id }, BREAKER_VALUE[stats.breaker]);
      }
    },
  });
  new Gauge({
    name: 'footprint_job_queue_depth',
    help: 'Background jobs waiting to run, by queue',
    labelNames: ['queue'] as const,
    registers,
    async collect() {
      if (!jobDepth) return;
      // A scrape during a database outage keeps the last figures rather than failing.
      const depth = await jobDepth().catch(() => undefined);
      if (!depth) return;
      this.reset();
      for (const [queue, count] of Object.entries(depth)) this.set({ queue }, count);
    },
  });
  new Gauge({
    name: 'footprint_db_pool_connections',
    help: 'The PostgreSQL pool: total, idle and waiting clients (absent on the embedded PGlite)',
    labelNames: ['state'] as const,
    registers,
    collect() {
      const pool = dbPool?.();
      if (!pool) return;
      this.set({ state: 'total' }, pool.total);
      this.set({ state: 'idle' }, pool.idle);
      this.set({ state: 'waiting' }, pool.waiting);
    },
  });

  return {
    registry,

    /** A request answered: its route pattern (or `unmatched`), method, status and duration in ms. */
    request(method: string, route: string, status: number, ms: number) {
      http.observe(
        { method, route, status_class: STATUS_CLASS[Math.floor(status / 100)] ?? 'other' },
        ms / 1000,
      );
    },

    /** A paid search ended (modules/searches/run.ts). */
    lookup(kind: SearchKind, outcome: SearchOutcome) {
      lookups.inc({ kind, outcome });
    },

    /** Credits taken for a search, or given back (a refund actually made, never one found done). */
    credits(direction: 'charged' | 'refunded', kind: SearchKind, amount: number) {
      if (amount > 0) credits.inc({ direction, kind }, amount);
    },

    /** The runner's `onCall`: a call that reached a provider. */
    sourceCall(call: ProviderCall) {
      const labels = { source: call.provider.source, provider: call.provider.id };
      sourceLatency.observe(labels, call.ms / 1000);
      sourceCalls.inc({ ...labels, status: call.state });
    },

    siteRequest,

    /** A background job's run ended. */
    job(queue: string, outcome: 'completed' | 'failed', ms: number) {
      jobDuration.observe({ queue, outcome }, ms / 1000);
    },

    /** A report left the render pool (modules/reports/pool.ts). */
    report(outcome: 'ok' | 'failed', ms: number) {
      reportRender.observe({ outcome }, ms / 1000);
    },

    /** What the gauges read on scrape. */
    watch(sources: {
      breakers?: () => readonly ProviderStats[];
      jobDepth?: () => Promise<Record<string, number>>;
      dbPool?: () => { total: number; idle: number; waiting: number };
    }) {
      breakers = sources.breakers ?? breakers;
      jobDepth = sources.jobDepth ?? jobDepth;
      dbPool = sources.dbPool ?? dbPool;
    },
  };
}

export type Metrics = ReturnType<typeof createMetrics>;

/** The username site check's requests (each redirect is one): by outcome, and how long each took. */
function siteCheckMetrics(registers: Registry[]) {
  const requests = new Counter({
    name: 'footprint_site_check_requests_total',
    help: "The username site check's HTTP requests (each redirect is one), by outcome: the status class, or error",
    labelNames: ['outcome'] as const,
    registers,
  });
  const duration = new Histogram({
    name: 'footprint_site_check_request_duration_seconds',
    help: "The username site check's HTTP requests, from their start to the answer's headers or their failure",
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers,
  });
  return (event: { status?: number; ms: number }) => {
    const outcome = event.status ? (STATUS_CLASS[Math.floor(event.status / 100)] ?? 'other') : 'error';
    requests.inc({ outcome });
    duration.observe(event.ms / 1000);
  };
}

/** The queue with each handler's runs timed (footprint_job_duration_seconds) and its depth watched. */
export function meteredJobs(queue: JobQueue, metrics: Metrics): JobQueue {
  metrics.watch({ jobDepth: () => queue.depth() });
  return {
    ...queue,
    work<T>(name: string, handler: JobHandler<T>, options?: Parameters<JobQueue['work']>[2]) {
      return queue.work<T>(
        name,
        async (job) => {
          const started = performance.now();
          try {
            await handler(job);
            metrics.job(name, 'completed', performance.now() - started);
          } catch (error) {
            metrics.job(name, 'failed', performance.now() - started);
            throw error;
          }
        },
        options,
      );
    },
  };
}

const STATUS_CLASS: Record<number, string> = { 1: '1xx', 2: '2xx', 3: '3xx', 4: '4xx', 5: '5xx' };

/**
 * `GET /metrics` for Prometheus, only with `Authorization: Bearer <METRICS_TOKEN>` (compared in constant
 * time); with no token configured the route does not exist (404).
 */
export function metricsRoute(app: FastifyInstance, metrics: Metrics, token: string | undefined) {
  if (!token) return;
  // Hashes of equal length, so the comparison takes the same time whatever was sent.
  const expected = sha256(token);
  app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
    const header = request.headers.authorization;
    const sent = typeof header === 'string' && header.startsWith('Bearer ') ? header.slice(7).trim() : '';
    if (!timingSafeEqual(Buffer.from(sha256(sent)), Buffer.from(expected))) {
      throw unauthenticated();
    }
    return reply.header('content-type', metrics.registry.contentType).send(await metrics.registry.metrics());
  });
}
