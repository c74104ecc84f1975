import type { FastifyInstance } from 'fastify';
import type { DestinationStream } from 'pino';
import { buildApp } from './app.ts';
import type { Config } from './config.ts';
import { type DatabaseHandle, migrationsFolder, openDatabase } from './db/client.ts';
import { migrationStatus } from './db/migrations.ts';
import { scheduleApprovalSweep } from './modules/approvals/sweep.ts';
import { roleCanRewriteTrail } from './modules/audit/chain.ts';
import { auditOrigin, checkpointSigner } from './modules/audit/checkpoint.ts';
import { createSealer, type Sealer } from './modules/audit/sealer.ts';
import { recordAudit } from './modules/audit/service.ts';
import { createReadiness, type Readiness } from './modules/health/readiness.ts';
import { createJobQueue, type JobQueue } from './modules/jobs/index.ts';
import { schedulePurge } from './modules/lookup/retention.ts';
import { type Mailer, outboxMailer, smtpMailer } from './modules/mail/mailer.ts';
import { createMetrics, meteredJobs } from './modules/metrics/index.ts';
import { createLlmWriter } from './modules/reports/narrative/llm.ts';
import { createReportPool, type ReportPool } from './modules/reports/pool.ts';
import { scheduleReviewSampling } from './modules/reviews/sampler.ts';
import { scheduleRecovery } from './modules/searches/recovery.ts';
import { deploymentDefaults, resolveAppKey } from './modules/settings/service.ts';
import { registerSiteHealthJobs } from './modules/site-health/jobs.ts';
import { createQuarantineView } from './modules/site-health/quarantine.ts';
import { createUsageRecorder, USAGE_FLUSH_MS } from './modules/usage/recorder.ts';
import { registerWatchJobs } from './modules/watchlists/jobs.ts';
import { setOutageLog } from './outage.ts';
import { type LeakSearcher, leakSearchersFrom } from './providers/leak-search.ts';
import { createRunner } from './providers/runner.ts';
import { createSiteCheck } from './providers/sites/source.ts';
import type { Provider } from './providers/types.ts';
import { buildProviders, describeProviders, sourceModes, VENDORS } from './registry.ts';
import { ensureSandboxLeaks } from './sandbox/index.ts';
import {
  createRateLimits,
  type LimitName,
  type LimitRule,
  type RateLimits,
  type SlowdownRule,
} from './security/rate-limit.ts';
import { demoAccounts, seedDemoAccounts } from './seed.ts';

export interface Runtime {
  app: FastifyInstance;
  database: DatabaseHandle;
  mailer: Mailer;
  limits: RateLimits;
  demoCreated: string[];
  /** Synthetic leak records loaded on this start (0 when the table already had records). */
  leaksLoaded: number;
  /** One line on which providers answer (sandbox or real), for the start-up banner. */
  providers: string;
  /** One line on who could rewrite the audit trail, for the start-up banner. */
  auditTrail: string;
  /** The background jobs' queue (bulk lookups), started with the runtime and stopped on close. */
  jobs: JobQueue;
  /** Seals the audit trail into its Merkle tree and hands its checkpoints over (modules/audit/sealer.ts). */
  sealer: Sealer;
  /** GET /api/health/ready's checks; `drain()` makes them fail from SIGTERM on (main.ts). */
  readiness: Readiness;
  /**
   * Stops: the server stops accepting connections and its requests in flight finish, then the job
   * queue stops (its running rows finish), then everything else closes. `step` is told each stage.
   */
  close(step?: (message: string) => void): Promise<void>;
}

export interface RuntimeOverrides {
  database?: DatabaseHandle;
  mailer?: Mailer;
  limits?: Partial<Record<LimitName, LimitRule>>;
  /** Replaces the per-account sign-in slowdown (tests use short delays). */
  slowdown?: SlowdownRule;
  /** Replaces the providers the config would build (tests use their own). */
  providers?: Provider[];
  /** How often provider usage is written (default USAGE_FLUSH_MS). */
  usageFlushMs?: number;
  /** Replaces the leak-search vendors the config would switch on. */
  leakSearchers?: LeakSearcher[];
  /** Wraps the report pool the config makes (tests delay some reports to draw them out of order). */
  wrapReportPool?: (pool: ReportPool) => ReportPool;
  now?: () => Date;
  /** Where the log goes instead of stdout (tests read it). */
  logStream?: DestinationStream;
  /** Seconds between the watchlist's ticks (default 60); 0: none (tests call `runDue` themselves). */
  watchTickSeconds?: number;
  /** Milliseconds between the approvals' sweeps (default 60 000); 0: none (tests call `sweep`). */
  approvalSweepMs?: number;
  /** MIGRATE_ON_START=false: how often to look again for the pending migrations (ms; default 2000). */
  migrationWait?: number;
}

/**
 * MIGRATE_ON_START=false (a deploy pipeline runs `migrate` once): start waits until the migrations
 * of this build are applied, saying so once, since the code below needs their tables.
 */
async function awaitMigrations(database: DatabaseHandle, pollMs = 2000): Promise<void> {
  let told = false;
  for (;;) {
    const { pending } = await migrationStatus(database.db, migrationsFolder);
    if (pending.length === 0) {
      if (told) console.log('Migrations applied: starting.');
      return;
    }
    if (!told) {
      console.log(
        `Waiting for ${pending.length} migration(s) to be applied (MIGRATE_ON_START=false): run the ` +
          `migrate command (npm run cli -- migrate, or node apps/server/dist/cli.js migrate). First: ${pending[0]}.`,
      );
      told = true;
    }
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
}

/** Opens the database, migrates it, seeds what the config asks for and builds the app. */
export async function startRuntime(config: Config, overrides: RuntimeOverrides = {}): Promise<Runtime> {
  const database =
    overrides.database ??
    (await openDatabase({
      url: config.databaseUrl,
      migrationUrl: config.migrationDatabaseUrl,
      dataDir: config.dataDir,
    }));
  if (config.migrateOnStart) await database.migrate();
  else await awaitMigrations(database, overrides.migrationWait);
  const auditTrail =
    database.kind === 'pglite'
      ? 'sealed in a signed Merkle log (embedded: one database user)'
      : (await roleCanRewriteTrail(database.db))
        ? 'sealed in a signed Merkle log; this database role could rewrite it (one role for migrations and the app: see docs/security.md)'
        : 'sealed in a signed Merkle log; this database role may only append to it';
  const appKey = await resolveAppKey(database.db, config.appKey);
  const demoCreated = config.demo.seed ? await seedDemoAccounts(database.db, config.demo.password) : [];
  // Synthetic leak records only in the sandbox: with SANDBOX off nothing invented is ever loaded.
  const leaksLoaded =
    config.providers.sandbox && config.sandboxLeakRecords > 0
      ? await ensureSandboxLeaks(database, config.sandboxLeakRecords, { url: config.databaseUrl })
      : null;
  const mailer =
    overrides.mailer ??
    (config.mail.smtpUrl ? smtpMailer(config.mail.smtpUrl, config.mail.from) : outboxMailer(database.db));
  // Redis when configured, else the database's rate_limits table: locks survive a restart either way.
  const limits = createRateLimits({
    enabled: config.rateLimit.enabled,
    redisUrl: config.rateLimit.redisUrl,
    db: database.db,
    limits: {
      apiKeyRequests: { points: config.rateLimit.apiKeyPerMinute, durationSeconds: 60 },
      ...overrides.limits,
    },
    slowdown: overrides.slowdown,
  });
  await limits.ready();
  // This app's Prometheus figures; process metrics (CPU, memory, event loop) only when they can be read.
  const metrics = createMetrics({ processMetrics: config.metricsToken !== undefined });
  if (database.poolUse) metrics.watch({ dbPool: database.poolUse });
  // The username site check, when the operator turned it on: one per process, so that its politeness
  // (one request at a time per site, the interval, the cap, the 429 holds) covers every lookup.
  // Sites the catalogue's self-check quarantined are not asked: the view is filled once the modules
  // exist (modules/site-health), and read again after each run and every few minutes.
  const quarantine = createQuarantineView();
  const siteCheck = config.siteCheck.enabled
    ? createSiteCheck(config.siteCheck, {
        onRequest: metrics.siteRequest,
        quarantined: (siteId) => quarantine.get(siteId),
      })
    : undefined;
  const providers = overrides.providers ?? buildProviders(config, siteCheck ? [siteCheck.provider] : []);
  // Every call that reaches a provider is counted in memory and written with the others every few
  // seconds (and on close): the usage and vendor spend of the Providers screen.
  const usage = createUsageRecorder(database.db);
  const leakSearchers = overrides.leakSearchers ?? leakSearchersFrom(config.providers.env);
  const runner = createRunner(providers, {
    timeoutMs: config.providers.timeoutMs,
    breakerFailures: config.providers.breakerFailures,
    halfOpenAfterMs: config.providers.breakerHalfOpenSeconds * 1000,
    onCall: (call) => {
      usage.record(call);
      metrics.sourceCall(call);
    },
  });
  metrics.watch({ breakers: runner.stats });
  const catalogue = {
    providers,
    modes: sourceModes(providers),
    envPrefixes: Object.fromEntries(VENDORS.map((vendor) => [vendor.id, vendor.prefix])),
  };
  const madePool = createReportPool({
    threads: config.reports.threads || undefined,
    queue: config.reports.queue,
    warm: config.reports.warm,
    onRendered: metrics.report,
  });
  const reportPool = overrides.wrapReportPool?.(madePool) ?? madePool;
  const llm = config.reports.llm ? createLlmWriter(config.reports.llm) : undefined;
  // pg-boss on PostgreSQL, the in-process runner on PGlite. A database handed in (tests) is reached
  // through its own URL when it has one, never the config's; without one this process runs its jobs
  // alone, in-process.
  const postgresUrl =
    database.kind !== 'postgres'
      ? undefined
      : overrides.database
        ? (overrides.database as DatabaseHandle & { url?: string }).url
        : config.jobs.databaseUrl;
  let log: FastifyInstance['log'] | undefined;
  const jobs = meteredJobs(
    createJobQueue({
      db: database.db,
      postgresUrl,
      log: { error: (o, m) => log?.error(o, m), warn: (o, m) => log?.warn(o, m) },
    }),
    metrics,
  );
  const readiness = createReadiness({
    db: database.db,
    migrationsFolder,
    limits,
    jobs,
    log: { warn: (o, m) => log?.warn(o, m) },
  });
  const app = await buildApp({
    jobs,
    readiness,
    config,
    db: database.db,
    mailer,
    limits,
    appKey,
    runner,
    catalogue,
    usage,
    leakSearchers,
    reportPool,
    llm,
    metrics,
    siteCheck,
    quarantine,
    now: overrides.now,
    logStream: overrides.logStream,
  });
  log = app.log;
  // Outages of the database, Redis and SMTP, and their recoveries, are logged once each (outage.ts).
  setOutageLog(app.log);
  if (config.isProduction && config.providers.sandbox) await warnSandboxInProduction(database, app);
  usage.start(overrides.usageFlushMs ?? USAGE_FLUSH_MS, app.log);
  // Stored lookup results go after the retention period; the rows and the audit trail stay.
  const stopPurge = schedulePurge(
    database.db,
    deploymentDefaults(config),
    config.lookups.purgeIntervalMinutes,
    app.log,
  );
  // Sampled review: the admin's share of searches is drawn for their supervisors (every minute).
  const stopSampling = scheduleReviewSampling(
    database.db,
    deploymentDefaults(config),
    {
      intervalMs: config.lookups.reviewSampleSeconds * 1000,
      lagMs: config.lookups.reviewSampleLagSeconds * 1000,
    },
    app.log,
  );
  // Requests for approval: expired when due (their requesters told), and approved ones a stopped
  // process left without an answer settled (modules/approvals/sweep.ts), every minute.
  const stopApprovalSweep = scheduleApprovalSweep(
    () => app.approvals.sweep(),
    overrides.approvalSweepMs ?? 60_000,
    app.log,
  );
  // Paid lookups a previous process left pending (it died mid-lookup) are refunded once.
  const stopRecovery = scheduleRecovery(database.db, config.lookups.abandonSeconds, app.log);
  // Watched searches due to run: a tick on the job queue, once across all processes; the claim in
  // `runDue` is atomic, so a tick delivered twice runs nothing twice.
  if (overrides.watchTickSeconds !== 0) {
    await registerWatchJobs(jobs, app.watchlists, overrides.watchTickSeconds);
  }
  // The username catalogue's self-check (with the site check on): its runs, its schedule, the quarantine.
  const stopSiteHealth = await registerSiteHealthJobs(jobs, app.siteHealth, { log: app.log });
  // The audit trail's rows are sealed into its Merkle tree every AUDIT_SEAL_MS by one process at a
  // time; the newest signed checkpoint goes to the file or auditor configured.
  const sealer = createSealer({
    db: database.db,
    signer: checkpointSigner(appKey, auditOrigin(config.appUrl)),
    intervalMs: config.audit.sealMs,
    anchor: {
      file: config.audit.checkpointFile,
      email: config.audit.checkpointEmail,
      minutes: config.audit.checkpointMinutes,
      mailer,
    },
    log: app.log,
  });
  sealer.start();
  await jobs.start();
  return {
    app,
    database,
    mailer,
    limits,
    demoCreated,
    leaksLoaded: leaksLoaded?.inserted ?? 0,
    providers: describeProviders(providers),
    auditTrail,
    jobs,
    readiness,
    sealer,
    async close(step) {
      stopPurge();
      stopSampling();
      stopApprovalSweep();
      stopRecovery();
      stopSiteHealth();
      // First the requests in flight finish (new connections are refused; a new request on a kept-alive
      // one gets 503), so that none of them sends a job to a stopped queue; then the running jobs
      // finish their rows in flight (or leave them to the next start) while the database is open.
      await app.close();
      step?.('requests in flight finished; stopping the job queue (running rows finish)');
      await jobs.stop();
      // After the app: the lookups it finished on the way out are counted too.
      await usage.close();
      // What was written on the way out is sealed before the database closes.
      if (config.audit.sealMs > 0) await sealer.stop();
      await reportPool.close();
      await limits.close();
      await mailer.close();
      if (!overrides.database) await database.close();
    },
  };
}

export { demoAccounts };

/**
 * SANDBOX on in production: every source without a vendor answers synthetic data. Legitimate for a
 * staging copy, never for real investigations, so it is said loudly and kept in the audit trail.
 */
async function warnSandboxInProduction(database: DatabaseHandle, app: FastifyInstance) {
  const message =
    'SANDBOX is on in production: sources without a configured vendor answer SYNTHETIC data. ' +
    'Set SANDBOX=false for real investigations.';
  app.log.warn(message);
  console.warn(`\n${'!'.repeat(78)}\n!! ${message}\n${'!'.repeat(78)}\n`);
  await recordAudit(database.db, {
    action: 'system.sandbox_in_production',
    outcome: 'success',
    user: { id: null, email: 'system' },
    target: 'providers',
    details: { message },
  });
}
