import { type ZlibOptions, type ZstdOptions, constants as zlibConstants } from 'node:zlib';
import fastifyCompress, { type FastifyCompressOptions } from '@fastify/compress';
import fastifyCookie from '@fastify/cookie';
import { messages } from '@footprint/domain';
import Fastify, { type FastifyInstance, LogController } from 'fastify';
import type { DestinationStream } from 'pino';
import secureJsonParse from 'secure-json-parse';
import type { Config } from './config.ts';
import type { Database } from './db/client.ts';
import { registerAuth } from './http/auth.ts';
import { registerContracts } from './http/contracts.ts';
import { registerCsrf } from './http/csrf.ts';
import { registerErrorHandler } from './http/errors.ts';
import { registerInputGuard } from './http/input-guard.ts';
import { loggerOptions, registerRequestLog, requestIdOf } from './http/logging.ts';
import { openApiRoutes, registerOpenApi } from './http/openapi.ts';
import { recordRoutes } from './http/route-table.ts';
import { registerSecurityHeaders } from './http/security-headers.ts';
import { registerSpa } from './http/spa.ts';
import type { ProviderCatalogue } from './modules/admin/providers.ts';
import { adminRoutes } from './modules/admin/routes.ts';
import { createAdminService } from './modules/admin/service.ts';
import { createKeyAccess } from './modules/api-keys/access.ts';
import { apiKeyRoutes } from './modules/api-keys/routes.ts';
import { createApiKeyService } from './modules/api-keys/service.ts';
import { createKeySpending } from './modules/api-keys/spending.ts';
import { approvalRoutes } from './modules/approvals/routes.ts';
import { type Approvals, createApprovals } from './modules/approvals/service.ts';
import { attributionsRoutes } from './modules/attributions/routes.ts';
import { authRoutes } from './modules/auth/routes.ts';
import { securityRoutes } from './modules/auth/security-routes.ts';
import { createAuthService } from './modules/auth/service.ts';
import { createSessionCheck } from './modules/auth/session-check.ts';
import { bulkRoutes } from './modules/bulk/routes.ts';
import { createBulkService } from './modules/bulk/service.ts';
import { createBulkWorker } from './modules/bulk/worker.ts';
import { createCaseBundles } from './modules/cases/bundle.ts';
import { captureRoutes } from './modules/cases/captures/routes.ts';
import { createCaptures } from './modules/cases/captures/service.ts';
import { createCaptureSigner } from './modules/cases/captures/signer.ts';
import { createCaseExports } from './modules/cases/exports/service.ts';
import { caseFilingOf } from './modules/cases/filing.ts';
import { caseRoutes } from './modules/cases/routes.ts';
import { createCases } from './modules/cases/service.ts';
import type { Readiness } from './modules/health/readiness.ts';
import { healthRoutes } from './modules/health/routes.ts';
import { historyRoutes } from './modules/history/routes.ts';
import { createHistoryService } from './modules/history/service.ts';
import { intelRoutes } from './modules/intel/routes.ts';
import { createIntelService } from './modules/intel/service.ts';
import type { JobQueue } from './modules/jobs/queue.ts';
import { leakRoutes } from './modules/leaks/routes.ts';
import { createLeakService } from './modules/leaks/service.ts';
import { lookupRoutes } from './modules/lookup/routes.ts';
import { createLookupService } from './modules/lookup/service.ts';
import { createOutboxService, type Mailer } from './modules/mail/mailer.ts';
import { outboxRoutes } from './modules/mail/routes.ts';
import { createMediaFetcher } from './modules/media/fetcher.ts';
import { mediaRoutes } from './modules/media/routes.ts';
import { type Metrics, metricsRoute } from './modules/metrics/index.ts';
import type { LlmWriter } from './modules/reports/narrative/llm.ts';
import type { ReportPool } from './modules/reports/pool.ts';
import { reportRoutes } from './modules/reports/routes.ts';
import { createReportService } from './modules/reports/service.ts';
import { reviewRoutes } from './modules/reviews/routes.ts';
import { createReviews } from './modules/reviews/service.ts';
import { hostWriters } from './modules/searches/host-writer.ts';
import { createSearches } from './modules/searches/service.ts';
import { deploymentDefaults, isSecondFactorRequired } from './modules/settings/service.ts';
import { createQuarantineView, type QuarantineView } from './modules/site-health/quarantine.ts';
import { siteHealthRoutes } from './modules/site-health/routes.ts';
import { createSiteHealth, type SiteHealth } from './modules/site-health/service.ts';
import { unitRoutes } from './modules/units/routes.ts';
import type { UsageRecorder } from './modules/usage/recorder.ts';
import { watchlistRoutes } from './modules/watchlists/routes.ts';
import { createWatchlists, type Watchlists } from './modules/watchlists/service.ts';
import { logFailure } from './outage.ts';
import type { LeakSearcher } from './providers/leak-search.ts';
import type { Runner } from './providers/runner.ts';
import type { SiteCheckSource } from './providers/sites/source.ts';
import { createPasswordPolicy } from './security/password-policy.ts';
import type { RateLimits } from './security/rate-limit.ts';

/**
 * How answers made at request time are compressed (@fastify/compress: one sync call per answer under
 * its 8 KB `syncThreshold` on two cores). Chosen by measuring a real /api/tel answer of 4.7 KB
 * (`npm run lookup-cost --workspace @footprint/bench -- --compression`, docs/benchmarks.md): the
 * fastest settings that still shrink it to about 40 %, each 20-45 µs of CPU, where brotli at quality 4
 * cost ~90 µs (13 % of a 0.70 ms lookup). zstd for the clients that take it (Chrome), brotli at
 * quality 1 for the other browsers, gzip at level 1 for the rest. bench:lookup reads these settings to
 * price compression per lookup.
 */
export const ANSWER_COMPRESSION = {
  threshold: 1024,
  encodings: ['zstd', 'br', 'gzip'],
  brotliOptions: { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 1 } },
  // gzip reads `level`, zstd its `params`.
  zlibOptions: { level: 1, params: { [zlibConstants.ZSTD_c_compressionLevel]: 1 } } as ZlibOptions &
    ZstdOptions,
} satisfies FastifyCompressOptions;

export interface AppDeps {
  config: Config;
  db: Database;
  mailer: Mailer;
  limits: RateLimits;
  appKey: string;
  runner: Runner;
  /** The providers, their sources' modes and their vendors' variable prefixes (the Providers screen). */
  catalogue: ProviderCatalogue;
  /** Calls and vendor spend per provider, written to the database (the Providers screen reads it). */
  usage: UsageRecorder;
  /** Leak-search vendors the Leak Data Finder queries alongside its index (none by default). */
  leakSearchers?: readonly LeakSearcher[];
  reportPool: ReportPool;
  /** The background jobs' queue (runtime.ts starts and stops it): bulk lookups run on it. */
  jobs: JobQueue;
  /** The readiness checks of GET /api/health/ready, and the drain switch main.ts turns on SIGTERM. */
  readiness: Readiness;
  llm?: LlmWriter;
  /** The username site check of this process (its one fetcher and catalogue), when the operator turned it on. */
  siteCheck?: SiteCheckSource;
  /** The sites the self-check quarantined, as the site check reads them (modules/site-health). */
  quarantine?: QuarantineView;
  /** This app's Prometheus figures (modules/metrics), scraped at GET /metrics when METRICS_TOKEN is set. */
  metrics: Metrics;
  now?: () => Date;
  /** Where the log goes instead of stdout (tests read it). */
  logStream?: DestinationStream;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The watchlists' runs, for the runtime's schedule (modules/watchlists/jobs.ts) and tests. */
    watchlists: Watchlists;
    /** The approvals' sweep, for the runtime's schedule (modules/approvals/sweep.ts) and tests. */
    approvals: Approvals;
    /** The catalogue's self-check, for the runtime's schedule (modules/site-health/jobs.ts) and tests. */
    siteHealth: SiteHealth;
  }
}

/** JSON.parse that refuses prototype-poisoning keys, as Fastify's own parser does. */
function parseJsonSafely(text: string): unknown {
  return secureJsonParse.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' });
}

/** Paths the SPA never owns: they answer JSON 404s instead of index.html. */
const API_PREFIXES = ['/api/', '/dev/', '/sanctum/'];

/**
 * The whole application, ready to `listen` or to `inject` in tests. Nothing here opens a port.
 */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { config, db } = deps;
  const app = Fastify({
    logger: config.logLevel === 'silent' ? false : loggerOptions(config.logLevel, deps.logStream),
    trustProxy: config.trustProxy,
    // Our own access line (http/logging.ts): Fastify's own request lines (incoming, completed, not
    // found, error) carry the URL and so the query string, where searches put the identifiers they
    // look for. The request id is the caller's X-Request-Id if sane, else a UUID.
    logController: new LogController({ disableRequestLogging: true }),
    requestIdHeader: false,
    genReqId: requestIdOf,
    bodyLimit: 1024 * 1024,
    // Bodies are parsed with the domain schemas; never let a payload reach the prototype chain.
    onProtoPoisoning: 'error',
    onConstructorPoisoning: 'error',
    routerOptions: { maxParamLength: 500 },
    // A client that trickles its request is cut off: the headers, then the whole request, must
    // arrive in time, and a socket silent both ways is closed. Node checks the first two every
    // `connectionsCheckingInterval`, so that runs often enough to keep them close to their values.
    requestTimeout: config.http.requestTimeoutMs,
    connectionTimeout: config.http.connectionTimeoutMs,
    http: {
      headersTimeout: config.http.headersTimeoutMs,
      connectionsCheckingInterval: Math.min(1000, config.http.headersTimeoutMs),
    },
  });

  registerRequestLog(app, deps.metrics.request);
  registerErrorHandler(app);
  registerInputGuard(app);
  recordRoutes(app);
  // The spec's browser sends a JSON content type on every request, bodiless POSTs (logout) included.
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') return done(null, undefined);
    try {
      done(null, parseJsonSafely(text));
    } catch (error) {
      const err = error as Error & { statusCode?: number; code?: string };
      err.statusCode = 400;
      err.code = 'FST_ERR_CTP_INVALID_JSON_BODY';
      done(err, undefined);
    }
  });
  await app.register(fastifyCookie);
  // Answers made at request time (JSON above all) go out brotli- or gzip-compressed when the client
  // accepts it and they are worth it. The web app's files are compressed once at build time instead
  // (http/spa.ts), so they arrive with their encoding set and pass through. PDFs are not a
  // compressible type, so report streams stay untouched; byte ranges are never compressed.
  await app.register(fastifyCompress, { global: true, ...ANSWER_COMPRESSION });
  registerSecurityHeaders(app, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'"],
        // Pictures and map tiles come through the server's media proxy: no outside host is asked.
        imgSrc: ["'self'", 'data:', 'blob:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
      },
    },
    crossOriginEmbedderPolicy: false,
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    strictTransportSecurity: config.isProduction,
  });

  const background = (task: () => Promise<void>) => {
    setImmediate(() => {
      task().catch((err) => logFailure(app.log, err, {}, 'background task failed'));
    });
  };

  // The guard checks credentials through the modules that own them: sessions (auth) and API keys.
  const secondFactorRequired = () => isSecondFactorRequired(db);
  const keyAccess = createKeyAccess({ db, limits: deps.limits, secondFactorRequired });
  const guards = registerAuth(app, {
    sessionOf: createSessionCheck(db, secondFactorRequired),
    admitKey: keyAccess.admit,
    secondFactorRequired,
  });
  registerContracts(app, guards);
  await registerOpenApi(app);
  const csrf = registerCsrf(app, config.isProduction && config.appUrl.startsWith('https:'));
  // Every new password (register, reset, admin-created accounts) meets the same rule.
  const passwordPolicy = createPasswordPolicy({
    pwnedUrl: config.passwords.pwnedUrl,
    timeoutMs: config.passwords.timeoutMs,
    onUnavailable: (err) => app.log.warn({ err }, 'Pwned Passwords unavailable: the offline list decided'),
  });
  const auth = createAuthService({ ...deps, background, passwordPolicy });

  const secureCookies = config.appUrl.startsWith('https:');
  authRoutes(app, { auth, guards, csrf, secureCookies, db });
  securityRoutes(app, { auth, guards, secureCookies });
  apiKeyRoutes(app, { apiKeys: createApiKeyService({ db, now: deps.now }), guards });
  const settings = deploymentDefaults(config);
  // One paid search for every kind: one group commit for charges and one for answers.
  const cases = createCases({ db, now: deps.now });
  // With HOST_WRITER, this host's processes on the database write through one of them.
  const writers =
    config.lookups.hostWriter && config.databaseUrl
      ? hostWriters(db, {
          databaseUrl: config.databaseUrl,
          key: deps.appKey,
          log: (message) => app.log.warn(message),
        })
      : undefined;
  if (writers) app.addHook('onClose', () => writers.close());
  // Sensitive kinds wait for a supervisor: the gate every paid search passes, and the runs it makes later.
  const approvals = createApprovals({
    db,
    mailer: deps.mailer,
    appUrl: config.appUrl,
    settings,
    now: deps.now,
    log: app.log,
  });
  const searches = createSearches({
    db,
    gate: approvals,
    writers,
    cacheHours: config.lookups.cacheHours,
    settings,
    cases: caseFilingOf(cases),
    keySpending: createKeySpending({ db, now: deps.now }),
    metrics: deps.metrics,
    now: deps.now,
  });
  const lookups = createLookupService({ searches, runner: deps.runner, costs: config.costs });
  lookupRoutes(app, { lookups, guards, sandbox: config.providers.sandbox });
  approvals.replayWith('lookup', (...held) => lookups.replayHeld(...held));
  app.decorate('approvals', approvals);
  // Bulk lookups: each row through the same lookup service, on the job queue.
  const bulkWorker = createBulkWorker({
    db,
    lookups,
    searches,
    queue: deps.jobs,
    rowConcurrency: config.jobs.bulkRowConcurrency,
    staleSeconds: config.jobs.bulkStaleSeconds,
    log: app.log,
  });
  await bulkWorker.register(config.jobs.concurrency);
  const bulk = createBulkService({
    db,
    searches,
    queue: deps.jobs,
    staleSeconds: config.jobs.bulkStaleSeconds,
    costs: { tel: config.costs.tel, email: config.costs.email, username: config.costs.username },
    approvals: approvals.bulk,
  });
  approvals.replayWith(
    'bulk',
    (_user, _client, input, auditDetails) => bulk.release(input, auditDetails),
    (input, row) => bulk.refuse(input, row.status),
  );
  await bulkRoutes(app, { bulk, guards });
  const leaks = createLeakService({
    db,
    searches,
    cost: config.costs.leak,
    sandbox: config.providers.sandbox,
    searchers: deps.leakSearchers,
  });
  leakRoutes(app, { leaks, guards });
  // Watched queries run again through the same lookup and leak services, so each run is a paid search.
  const watchlists = createWatchlists({
    db,
    lookups,
    leaks,
    mailer: deps.mailer,
    appUrl: config.appUrl,
    needsApproval: (kind) => approvals.needsApproval(kind),
    now: deps.now,
    log: app.log,
  });
  app.decorate('watchlists', watchlists);
  watchlistRoutes(app, { watchlists, guards });
  const intel = createIntelService({
    db,
    searches,
    runner: deps.runner,
    pool: deps.reportPool,
    costs: config.costs,
    now: deps.now,
  });
  intelRoutes(app, { intel, guards });
  approvals.replayWith('intel', (...held) => intel.replayHeld(...held));
  approvalRoutes(app, { approvals, guards });
  const reports = createReportService({
    db,
    pool: deps.reportPool,
    llm: deps.llm,
    now: deps.now,
    legalBasisOfLookup: cases.legalBasisOfLookup,
  });
  reportRoutes(app, { reports, guards, limits: deps.limits });
  // Web pages captured into cases: on the job queue, signed with the capture key (APP_KEY's).
  const captures = createCaptures({
    db,
    queue: deps.jobs,
    signer: createCaptureSigner(deps.appKey, config.appUrl),
    config: config.capture,
    appUrl: config.appUrl,
    now: deps.now,
    log: app.log,
  });
  await captures.register();
  const bundles = createCaseBundles({ db, cases, reports, signer: captures.signer, now: deps.now });
  const exports = createCaseExports({ db, cases, now: deps.now });
  caseRoutes(app, { cases, bundles, exports, guards });
  captureRoutes(app, { captures, guards, db, limits: deps.limits });
  unitRoutes(app, { db, guards });
  reviewRoutes(app, { reviews: createReviews({ db, legalBasisOfLookup: cases.legalBasisOfLookup }), guards });
  const history = createHistoryService({
    db,
    settings,
    now: deps.now,
    leakScope: { includeSandbox: config.providers.sandbox },
  });
  historyRoutes(app, { history, guards });
  adminRoutes(app, {
    admin: createAdminService({
      db,
      mailer: deps.mailer,
      appUrl: config.appUrl,
      trialCredits: config.auth.trialCredits,
      runner: deps.runner,
      catalogue: deps.catalogue,
      usage: deps.usage,
      settings,
      passwordPolicy,
      now: deps.now,
    }),
    guards,
  });
  // The username catalogue's self-check: its runs on the job queue, the quarantine the site check reads.
  const siteHealth = createSiteHealth({
    db,
    queue: deps.jobs,
    quarantine: deps.quarantine ?? createQuarantineView(),
    siteCheck: deps.siteCheck,
    scheduleHours: config.siteCheck.selfCheckHours,
    now: deps.now,
  });
  app.decorate('siteHealth', siteHealth);
  siteHealthRoutes(app, { siteHealth, guards });
  mediaRoutes(app, { media: createMediaFetcher(config.media), guards, map: config.map });
  // Only when mail has nowhere else to go, never in production, and only to this machine.
  if (config.mail.outbox && deps.mailer.kind === 'outbox')
    outboxRoutes(app, createOutboxService(db), config.appUrl);

  healthRoutes(app, { readiness: deps.readiness });
  attributionsRoutes(app);
  openApiRoutes(app);
  metricsRoute(app, deps.metrics, config.metricsToken);

  const spaPage = await registerSpa(app, config.webDist, { sourceMaps: !config.isProduction });
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '/';
    // A missing build file (an old chunk after a deploy, a withheld source map) is a 404, not the app.
    // /metrics without METRICS_TOKEN is off: a 404, not the web app.
    const isApi =
      API_PREFIXES.some((prefix) => path.startsWith(prefix)) ||
      path.startsWith('/assets/') ||
      path === '/metrics';
    if (spaPage && !isApi && (request.method === 'GET' || request.method === 'HEAD')) {
      return reply.header('cache-control', 'no-cache').sendFile(spaPage(path));
    }
    return reply.status(404).send({ message: messages.errors.notFound });
  });

  return app;
}
