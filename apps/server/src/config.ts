import { isIP } from 'node:net';
import { resolve } from 'node:path';
import {
  COST_DEFAULTS,
  type CostVariable,
  costVariable,
  DEFAULT_REQUIRED_SIGNUP_FIELDS,
  REGISTRATION_MODES,
  type RegistrationMode,
  SEARCH_KINDS,
  type SearchKind,
  SIGNUP_FIELDS,
  type SignupField,
} from '@footprint/domain';
import { z } from 'zod';
import { ConfigError } from './config-error.ts';
import { describeStray, strayVariables } from './config-names.ts';
import { LEAK_VENDORS as LEAK_SEARCH_VENDORS } from './providers/leak-search.ts';
import { VENDORS, vendorVariables } from './providers/vendors.ts';
import { isAddressOrBlock } from './security/address-guard.ts';
import { isCommonPassword } from './security/password-policy.ts';

const bool = (fallback: boolean) =>
  z
    .enum(['true', 'false', '1', '0', 'yes', 'no'])
    .optional()
    .transform((value) => (value === undefined ? fallback : ['true', '1', 'yes'].includes(value)));

const int = (fallback: number, min = 0, max = Number.MAX_SAFE_INTEGER) =>
  z.coerce.number().int().min(min).max(max).default(fallback);

const optionalUrl = z
  .string()
  .trim()
  .optional()
  .transform((value) => (value ? value : undefined))
  .pipe(z.url().optional());

/** A comma-separated list; blanks are dropped. */
const list = (fallback: string) =>
  z
    .string()
    .default(fallback)
    .transform((value) =>
      value
        .split(',')
        .map((item) => item.trim().toLowerCase())
        .filter(Boolean),
    );

/** A host name, or `*.` and a domain (any name below it). */
const HOST_PATTERN = /^(\*\.)?[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/;

/** The operator's tile server: an http(s) URL template with {z}, {x} and {y}. */
const tileTemplate = z
  .string()
  .trim()
  .optional()
  .transform((value) => (value ? value : undefined))
  .refine(
    (value) =>
      value === undefined ||
      (/^https?:\/\//i.test(value) &&
        ['{z}', '{x}', '{y}'].every((part) => value.includes(part)) &&
        URL.canParse(value.replace(/\{[a-z]\}/g, '0'))),
    'must be an http(s) URL template with {z}, {x} and {y}',
  );

/**
 * The price of each paid search in credits, 0 to 1000: COST_TEL, COST_EMAIL, COST_LEAK, COST_RC,
 * COST_UPI, COST_CHALLAN, COST_CORPORATE, COST_VERIFICATION and COST_CREDIT_REPORT, one per search
 * family or separately priced kind of the domain's kind table, with its default.
 */
const costVariables = Object.fromEntries(
  Object.entries(COST_DEFAULTS).map(([name, fallback]) => [name, int(fallback, 0, 1000)]),
) as Record<CostVariable, ReturnType<typeof int>>;

/** Where the vendors the product integrates keep their pictures (Gravatar avatars, HIBP breach logos). */
export const DEFAULT_MEDIA_HOSTS = 'gravatar.com,*.gravatar.com,haveibeenpwned.com,*.haveibeenpwned.com';

/** The demo accounts' password when DEMO_PASSWORD is unset: published in the README, so never in production. */
export const DEFAULT_DEMO_PASSWORD = 'footprint-demo';

/** Have I Been Pwned's Pwned Passwords range API, the production default of PWNED_PASSWORDS_URL. */
export const DEFAULT_PWNED_PASSWORDS_URL = 'https://api.pwnedpasswords.com';

/**
 * Every environment variable the server reads, parsed once at boot. README.md documents each one;
 * keep the two in step. Bad values stop the process with a list; so does, in production, a variable
 * that looks like one of these but is not (config-names.ts; elsewhere it is a warning).
 */
export const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  HOST: z.string().default('127.0.0.1'),
  PORT: int(3000, 0, 65535),
  APP_URL: optionalUrl,
  DATABASE_URL: optionalUrl,
  MIGRATION_DATABASE_URL: optionalUrl,
  JOBS_DATABASE_URL: optionalUrl,
  /** Production on the embedded PGlite (one process, a data folder): only when asked for by name. */
  ALLOW_EMBEDDED_DATABASE: bool(false),
  /** Apply the migrations at start (under an advisory lock); false: the `migrate` command does. */
  MIGRATE_ON_START: bool(true),
  /** After SIGTERM, seconds the server keeps serving while readiness fails. Default: 5 in production, else 0. */
  SHUTDOWN_DRAIN_SECONDS: z.coerce.number().int().min(0).max(600).optional(),
  DATA_DIR: z.string().default('./data'),
  APP_KEY: z.string().min(32).optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  TRUST_PROXY: bool(false),
  METRICS_TOKEN: z
    .string()
    .optional()
    .refine(
      (value) => !value || value.length >= 16,
      'must be at least 16 characters (or empty: no /metrics)',
    ),
  WEB_DIST: z.string().optional(),

  TOKEN_TTL_MINUTES: int(480, 1),
  OTP_TTL_MINUTES: int(10, 1, 60),
  OTP_MAX_ATTEMPTS: int(5, 1, 20),
  OTP_RESEND_COOLDOWN_SECONDS: int(60, 0, 3600),
  RESET_TOKEN_TTL_MINUTES: int(60, 5),
  TRIAL_CREDITS: int(20, 0),
  REGISTRATION_ENABLED: bool(true),
  REGISTRATION_MODE: z
    .enum(REGISTRATION_MODES)
    .optional()
    .or(z.literal('').transform(() => undefined)),
  /** Comma-separated sign-up profile fields; `none`: none; unset or empty: organisation and designation. */
  REGISTRATION_REQUIRED_FIELDS: z
    .string()
    .trim()
    .optional()
    .transform((value, ctx) => {
      if (!value) return [...DEFAULT_REQUIRED_SIGNUP_FIELDS];
      if (value === 'none') return [];
      const fields = value.split(',').map((field) => field.trim());
      const unknown = fields.filter((field) => !(SIGNUP_FIELDS as readonly string[]).includes(field));
      if (unknown.length > 0) {
        ctx.addIssue({
          code: 'custom',
          message: `must be none or a comma-separated list of ${SIGNUP_FIELDS.join(', ')} (not ${unknown.join(', ')})`,
        });
        return z.NEVER;
      }
      return SIGNUP_FIELDS.filter((field) => fields.includes(field));
    }),
  RATE_LIMIT_ENABLED: bool(true),
  API_KEY_RATE_LIMIT: int(60, 1, 100_000),
  REDIS_URL: optionalUrl,
  /** Unset: the public API in production, off elsewhere; empty: off. */
  PWNED_PASSWORDS_URL: z
    .string()
    .trim()
    .optional()
    .refine((value) => !value || URL.canParse(value), 'must be an http(s) URL or empty'),
  PWNED_PASSWORDS_TIMEOUT_MS: int(1500, 100, 30_000),

  SMTP_URL: optionalUrl,
  MAIL_FROM: z.string().default('Footprint <no-reply@footprint.test>'),
  DEV_OUTBOX_ALLOW_NON_LOOPBACK_HOST: bool(false),

  HEADERS_TIMEOUT_MS: int(10_000, 1000, 600_000),
  REQUEST_TIMEOUT_MS: int(30_000, 1000, 600_000),
  CONNECTION_TIMEOUT_MS: int(120_000, 1000, 3_600_000),

  ...costVariables,
  SANDBOX_LEAK_RECORDS: z.coerce.number().int().min(0).max(50_000_000).optional(),
  LOOKUP_CACHE_HOURS: int(24, 0, 24 * 90),
  LOOKUP_RETENTION_DAYS: int(90, 1, 3650),
  LOOKUP_PURGE_INTERVAL_MINUTES: int(60, 0, 7 * 24 * 60),
  REVIEW_SAMPLE_SECONDS: int(60, 0, 24 * 3600),
  REVIEW_SAMPLE_LAG_SECONDS: int(300, 0, 24 * 3600),
  AUDIT_SEAL_MS: int(1000, 0, 3_600_000),
  AUDIT_CHECKPOINT_FILE: z
    .string()
    .trim()
    .optional()
    .transform((value) => (value ? resolve(value) : undefined)),
  AUDIT_CHECKPOINT_EMAIL: z
    .string()
    .trim()
    .optional()
    .transform((value) => (value ? value : undefined))
    .pipe(z.email().optional()),
  AUDIT_CHECKPOINT_MINUTES: int(60, 1, 7 * 24 * 60),
  LOOKUP_ABANDON_SECONDS: int(120, 1, 24 * 60 * 60),
  HOST_WRITER: bool(false),
  JOBS_CONCURRENCY: int(2, 1, 64),
  BULK_ROW_CONCURRENCY: int(96, 1, 200),
  BULK_STALE_SECONDS: int(30, 3, 3600),
  PROVIDER_TIMEOUT_MS: int(8000, 100, 120_000),
  BREAKER_FAILURES: int(5, 1, 1000),
  BREAKER_HALF_OPEN_SECONDS: int(30, 1, 3600),
  SANDBOX: z.enum(['true', 'false', '1', '0', 'yes', 'no']).optional(),
  SANDBOX_LATENCY: z.string().default(''),
  SANDBOX_FAILURES: z.string().default(''),

  LLM_BASE_URL: optionalUrl,
  LLM_API_KEY: z.string().optional(),
  LLM_MODEL: z.string().default('gpt-4o-mini'),
  LLM_TIMEOUT_MS: int(20_000, 500, 300_000),
  REPORT_THREADS: int(0, 0, 64),
  // Reports that may wait for a render thread (pool.ts DEFAULT_REPORT_QUEUE); past it a request answers 503.
  REPORT_QUEUE: int(50, 0, 10_000),
  // Keep one render thread started and warm (fonts parsed, code compiled) from server start, so that
  // the first report or case bundle does not pay ~1 s of thread start. Off by default under NODE_ENV=test.
  REPORT_WARM: z
    .enum(['true', 'false', '1', '0', 'yes', 'no'])
    .optional()
    .transform((value) => (value === undefined ? undefined : ['true', '1', 'yes'].includes(value))),

  SEED_DEMO: bool(false),
  DEMO_PASSWORD: z.string().min(12).default(DEFAULT_DEMO_PASSWORD),

  MEDIA_HOSTS: list(DEFAULT_MEDIA_HOSTS).refine(
    (hosts) => hosts.every((host) => HOST_PATTERN.test(host)),
    'must be host names or *.domain, separated by commas',
  ),
  MEDIA_MAX_BYTES: int(5 * 1024 * 1024, 1024, 100 * 1024 * 1024),
  MEDIA_TIMEOUT_MS: int(5000, 100, 60_000),
  MEDIA_CACHE_MB: int(32, 0, 4096),
  MEDIA_ALLOW_ADDRESSES: list('').refine(
    (entries) => entries.every(isAddressOrBlock),
    'must be IP addresses or CIDR blocks, each with an optional port (10.0.0.5:8080, [fd00::1]:443), separated by commas',
  ),
  SITE_CHECK_ENABLED: bool(false),
  SITE_CHECK_USER_AGENT: z
    .string()
    .trim()
    .max(300)
    .optional()
    .transform((value) => (value ? value : undefined)),
  SITE_CHECK_CONCURRENCY: int(64, 1, 256),
  SITE_CHECK_INTERVAL_MS: int(1000, 0, 600_000),
  SITE_CHECK_TIMEOUT_MS: int(10_000, 500, 120_000),
  SITE_CHECK_DEADLINE_MS: int(60_000, 1000, 600_000),
  SITE_CHECK_MAX_BYTES: int(1024 * 1024, 4096, 16 * 1024 * 1024),
  SITE_CHECK_SELF_CHECK_HOURS: int(24, 0, 24 * 30),
  SITE_CHECK_CATALOGUE: z
    .string()
    .trim()
    .optional()
    .transform((value) => (value ? value : undefined)),
  SITE_CHECK_ALLOW_ADDRESSES: list('').refine(
    (entries) => entries.every(isAddressOrBlock),
    'must be IP addresses or CIDR blocks, each with an optional port (10.0.0.5:8080, [fd00::1]:443), separated by commas',
  ),
  CAPTURE_ENABLED: bool(false),
  CAPTURE_CHROMIUM_PATH: z
    .string()
    .trim()
    .optional()
    .transform((value) => (value ? value : undefined)),
  CAPTURE_TIMEOUT_MS: int(45_000, 5000, 300_000),
  CAPTURE_MAX_BYTES: int(50 * 1024 * 1024, 1024 * 1024, 500 * 1024 * 1024),
  CAPTURE_CONCURRENCY: int(1, 1, 8),
  CAPTURE_ALLOW_ADDRESSES: list('').refine(
    (entries) => entries.every(isAddressOrBlock),
    'must be IP addresses or CIDR blocks, each with an optional port (10.0.0.5:8080, [fd00::1]:443), separated by commas',
  ),
  MAP_TILE_URL: tileTemplate,
  MAP_TILE_ATTRIBUTION: z
    .string()
    .trim()
    .max(300)
    .optional()
    .transform((value) => (value ? value : undefined)),
});

export type Env = z.infer<typeof envSchema>;

export interface Config {
  env: Env['NODE_ENV'];
  isProduction: boolean;
  host: string;
  port: number;
  appUrl: string;
  databaseUrl: string | undefined;
  /**
   * PostgreSQL: the URL migrations run with (the owner of the schema, `footprint_owner`), so that
   * DATABASE_URL can name a role that may not change the audit trail. Unset: DATABASE_URL migrates.
   */
  migrationDatabaseUrl: string | undefined;
  /** Migrations run at start (MIGRATE_ON_START); otherwise start waits until `migrate` applied them. */
  migrateOnStart: boolean;
  /** SIGTERM: readiness fails at once, the server serves `drainSeconds` more, then stops (main.ts). */
  shutdown: { drainSeconds: number };
  /**
   * Lines to print at start: variables that look like ours but are not (outside production; in
   * production they stop the start).
   */
  warnings: string[];
  dataDir: string;
  appKey: string | undefined;
  logLevel: Env['LOG_LEVEL'];
  trustProxy: boolean;
  /** The bearer token GET /metrics asks for; unset: the endpoint does not exist. */
  metricsToken: string | undefined;
  webDist: string;
  auth: {
    tokenTtlMinutes: number;
    otpTtlMinutes: number;
    otpMaxAttempts: number;
    otpResendCooldownSeconds: number;
    resetTokenTtlMinutes: number;
    trialCredits: number;
    /**
     * The registration mode until an admin changes it: REGISTRATION_MODE, else `closed` when
     * REGISTRATION_ENABLED is false, else `approval`.
     */
    registrationModeDefault: RegistrationMode;
    /** The sign-up profile fields required until an admin changes it (REGISTRATION_REQUIRED_FIELDS). */
    registrationRequiredFields: readonly SignupField[];
  };
  rateLimit: {
    enabled: boolean;
    redisUrl: string | undefined;
    /** Requests one API key may make per minute (with RATE_LIMIT_ENABLED). */
    apiKeyPerMinute: number;
  };
  /** New passwords are also checked against this Pwned Passwords range API (undefined: offline list only). */
  passwords: { pwnedUrl: string | undefined; timeoutMs: number };
  mail: {
    smtpUrl: string | undefined;
    from: string;
    /**
     * The development outbox (/dev/outbox): on outside production when SMTP_URL is unset. It answers
     * only requests from this machine (loopback).
     */
    outbox: boolean;
  };
  /** How long a client may take to send a request (Node's HTTP server, set through Fastify). */
  http: {
    /** The request line and headers (Node's headersTimeout). */
    headersTimeoutMs: number;
    /** The whole request, body included (Fastify's requestTimeout). */
    requestTimeoutMs: number;
    /** A socket with no traffic either way is closed (Fastify's connectionTimeout). */
    connectionTimeoutMs: number;
  };
  demo: { seed: boolean; password: string };
  /** The audit trail's sealer and where its signed checkpoints go (modules/audit/sealer.ts). */
  audit: {
    /** ms between sealing rounds; 0: this process does not seal (another one, or `audit:checkpoint`, does). */
    sealMs: number;
    /** A file the newest signed checkpoint is appended to every `checkpointMinutes` (when the tree grew). */
    checkpointFile: string | undefined;
    /** An auditor's address the newest signed checkpoint is mailed to at the same cadence. */
    checkpointEmail: string | undefined;
    checkpointMinutes: number;
  };
  /** The price in credits of each paid search kind. */
  costs: Readonly<Record<SearchKind, number>>;
  /** Synthetic leak records loaded on start when the table is empty (default: 100,000 on PGlite, none on PostgreSQL). */
  sandboxLeakRecords: number;
  lookups: {
    cacheHours: number;
    /** Stored results are purged after this many days (the admin setting lookup_retention_days wins). */
    retentionDays: number;
    /** How often the server runs the purge; 0 leaves it to `npm run cli -- lookups:purge`. */
    purgeIntervalMinutes: number;
    /** How often searches are drawn for sampled review (seconds; 0: never). */
    reviewSampleSeconds: number;
    /** A search is drawn for review this long after it was made at the earliest (it has its answer by then). */
    reviewSampleLagSeconds: number;
    /**
     * A paid lookup still pending this long after its charge was left by a process that stopped
     * (crash, kill -9): the recovery sweep refunds it. Start refuses less than ABANDON_FACTOR
     * times the slowest source's timeout.
     */
    abandonSeconds: number;
    /**
     * The server processes of one host on one PostgreSQL database write their charges and answers
     * through one of them (modules/searches/host-writer.ts), so their group commits stay as large as
     * one process's. Off by default, and on the embedded database.
     */
    hostWriter: boolean;
  };
  /** Background jobs (modules/jobs) and the bulk lookups they run (modules/bulk). */
  jobs: {
    /**
     * PostgreSQL only: the URL the job queue (pg-boss, in the schema `pgboss`, which it creates and
     * migrates itself) connects with; DATABASE_URL when unset.
     */
    databaseUrl: string | undefined;
    /** Bulk jobs one server process runs at once. */
    concurrency: number;
    /** Rows of one bulk job whose lookups run at once. */
    bulkRowConcurrency: number;
    /**
     * A running bulk job whose worker has not been heard from for this long was left by a process
     * that stopped: another process (or this one after a restart) takes it over.
     */
    bulkStaleSeconds: number;
  };
  reports: {
    /** Worker threads for PDF rendering; 0 means one fewer than the cores. */
    threads: number;
    /** Reports that may wait for a render thread before a request is refused with 503. */
    queue: number;
    /** One render thread kept started and warm from server start (REPORT_WARM; off in tests by default). */
    warm: boolean;
    llm: { baseUrl: string; apiKey: string | undefined; model: string; timeoutMs: number } | undefined;
  };
  /**
   * The username site check (providers/sites): off unless the operator turns it on. It asks each site of
   * the catalogue for a public profile page, politely, identifying itself.
   */
  siteCheck: {
    enabled: boolean;
    userAgent: string;
    /** Requests in flight at most, all sites together. */
    concurrency: number;
    /** Least time between two requests to one site. */
    intervalMs: number;
    /** Deadline of one site's check (redirects and body included). */
    timeoutMs: number;
    /** Deadline of a whole username lookup: sites not answered by then are `not_checked`. */
    deadlineMs: number;
    maxBytes: number;
    /** Hours between the catalogue's scheduled self-checks (modules/site-health); 0: none scheduled. */
    selfCheckHours: number;
    /** A catalogue file of the shipped format used instead of the shipped one. */
    cataloguePath: string | undefined;
    /** Private addresses the check may reach (tests: a loopback fake). */
    allowAddresses: readonly string[];
  };
  /** The media proxy (GET /api/media): pictures reach the browser only through the server. */
  /**
   * Web pages captured into cases (modules/cases/captures): off unless the operator turns it on. The
   * server's Chromium loads the page through a guarded proxy of its own.
   */
  capture: {
    enabled: boolean;
    /** The Chromium binary (CAPTURE_CHROMIUM_PATH, else `chromium` on the PATH). */
    chromiumPath: string;
    /** One capture, from the browser's start to the last artefact. */
    timeoutMs: number;
    /** Bytes a page may pull in, and the most one artefact may hold. */
    maxBytes: number;
    /** Captures one process runs at once. */
    concurrency: number;
    /** Private addresses a capture may reach (tests: a loopback page). */
    allowAddresses: readonly string[];
  };
  media: {
    /** Host names (exact, or `*.domain` for any name below it) the proxy fetches from. */
    hosts: readonly string[];
    maxBytes: number;
    timeoutMs: number;
    /** Bytes the in-memory cache may hold; 0 turns it off. */
    cacheBytes: number;
    /** Addresses and CIDR blocks the proxy may reach although they are private or loopback. */
    allowAddresses: readonly string[];
  };
  /** The operator's map tiles, served through the proxy; none: the map draws no background. */
  map: { tileUrl: string | undefined; attribution: string | undefined };
  providers: {
    timeoutMs: number;
    breakerFailures: number;
    breakerHalfOpenSeconds: number;
    /**
     * Synthetic data for the sources no vendor answers (SANDBOX). Off, such a source is
     * `not_configured` and nothing invented reaches a user.
     */
    sandbox: boolean;
    sandboxLatency: string;
    sandboxFailures: string;
    /** The raw environment, from which each vendor adapter reads its own variables (src/registry.ts). */
    env: Readonly<Record<string, string | undefined>>;
  };
}

export { ConfigError };

/**
 * A pending lookup counts as abandoned only after twice the slowest source's timeout: the margin
 * covers the database writes around the calls and a loaded machine.
 */
export const ABANDON_FACTOR = 2;

/** The leak vendors' own timeouts, counted when the vendor is on (its adapter validates the value). */
const LEAK_VENDORS = [
  { key: 'DEHASHED_API_KEY', timeout: 'DEHASHED_TIMEOUT_MS' },
  { key: 'LEAKCHECK_API_KEY', timeout: 'LEAKCHECK_TIMEOUT_MS' },
];
const LEAK_VENDOR_TIMEOUT_MS = 5000;

/** The longest a source may take before a lookup answers without it. */
export function slowestSourceMs(providerTimeoutMs: number, source: NodeJS.ProcessEnv): number {
  const leak = LEAK_VENDORS.filter((vendor) => source[vendor.key]).map(
    (vendor) => Number(source[vendor.timeout] || LEAK_VENDOR_TIMEOUT_MS) || LEAK_VENDOR_TIMEOUT_MS,
  );
  return Math.max(providerTimeoutMs, ...leak);
}

/** 127.0.0.0/8, ::1, its IPv4-mapped form and localhost: an address only this machine reaches. */
export function isLoopback(address: string | undefined): boolean {
  if (!address) return false;
  const value = address
    .trim()
    .toLowerCase()
    .replace(/^\[|\]$/g, '');
  if (value === 'localhost' || value === '::1' || value === '0:0:0:0:0:0:0:1') return true;
  const v4 = value.startsWith('::ffff:') ? value.slice(7) : value;
  return isIP(v4) === 4 && v4.startsWith('127.');
}

/**
 * The combinations each variable allows on its own but that together would be unsafe or broken:
 * each is a line of the ConfigError the process stops with.
 */
function unsafeCombinations(env: Env, source: NodeJS.ProcessEnv): string[] {
  const problems: string[] = [];
  const production = env.NODE_ENV === 'production';
  if (production && !env.DATABASE_URL && !env.ALLOW_EMBEDDED_DATABASE) {
    problems.push(
      'DATABASE_URL: required in production (NODE_ENV=production). Without it the server would run on ' +
        'the embedded database in DATA_DIR, one process only. Set DATABASE_URL=postgres://…, or ' +
        'ALLOW_EMBEDDED_DATABASE=true to run on the embedded database on purpose.',
    );
  }
  if (env.SITE_CHECK_ENABLED && !env.SITE_CHECK_USER_AGENT) {
    problems.push(
      'SITE_CHECK_USER_AGENT: required with SITE_CHECK_ENABLED. The site check identifies itself to every ' +
        'site it asks: name your deployment and a contact, e.g. "Footprint-SiteCheck/1.0 ' +
        '(+https://cyber-cell.example/contact)".',
    );
  }
  if (production && env.SEED_DEMO) {
    const password = source.DEMO_PASSWORD;
    if (!password || password === DEFAULT_DEMO_PASSWORD || isCommonPassword(password)) {
      problems.push(
        'SEED_DEMO: the demo accounts (an admin among them) would sign in with ' +
          (!password || password === DEFAULT_DEMO_PASSWORD
            ? 'the password the README publishes'
            : 'a common password') +
          ' in production. Set SEED_DEMO=false, or DEMO_PASSWORD to a password of your own (12 characters ' +
          'or more, not a common one).',
      );
    }
  }
  if (production && !env.SMTP_URL) {
    problems.push(
      'SMTP_URL: required in production (NODE_ENV=production). Without it no sign-in code or reset link ' +
        'can reach anyone: there is no development outbox in production. Set SMTP_URL, e.g. ' +
        'smtp://user:pass@mail.example.org:587.',
    );
  }
  if (!production && !env.SMTP_URL && !isLoopback(env.HOST) && !env.DEV_OUTBOX_ALLOW_NON_LOOPBACK_HOST) {
    problems.push(
      `HOST: ${env.HOST} is not a loopback address, and with SMTP_URL unset every sign-in code and reset ` +
        'link goes to the development outbox. Set SMTP_URL, or HOST=127.0.0.1, or ' +
        'DEV_OUTBOX_ALLOW_NON_LOOPBACK_HOST=true to listen there anyway (the outbox still answers only ' +
        'requests from this machine).',
    );
  }
  const slowest = slowestSourceMs(env.PROVIDER_TIMEOUT_MS, source);
  const minimum = Math.ceil((slowest * ABANDON_FACTOR) / 1000);
  if (env.LOOKUP_ABANDON_SECONDS < minimum) {
    problems.push(
      `LOOKUP_ABANDON_SECONDS: ${env.LOOKUP_ABANDON_SECONDS} s would refund lookups that are still running: ` +
        `a source may take ${slowest} ms (PROVIDER_TIMEOUT_MS, or a leak vendor's own timeout). Set it to ` +
        `at least ${minimum} (${ABANDON_FACTOR} times that timeout), or lower PROVIDER_TIMEOUT_MS.`,
    );
  }
  if (env.HEADERS_TIMEOUT_MS > env.REQUEST_TIMEOUT_MS) {
    problems.push(
      `HEADERS_TIMEOUT_MS: ${env.HEADERS_TIMEOUT_MS} must not be longer than REQUEST_TIMEOUT_MS (${env.REQUEST_TIMEOUT_MS}).`,
    );
  }
  return problems;
}

/**
 * Every name the server reads: the schema's and the vendors'. Names under a vendor's prefix are
 * the vendor's to read, whatever they are.
 */
export function knownVariables(): { names: string[]; vendorPrefixes: string[] } {
  return {
    names: [...Object.keys(envSchema.shape), ...Object.keys(vendorVariables())],
    vendorPrefixes: [...VENDORS, ...LEAK_SEARCH_VENDORS].map((vendor) => vendor.prefix),
  };
}

/** The lines for the variables of `source` that look like ours but are not (config-names.ts). */
export function strayVariableLines(source: NodeJS.ProcessEnv): string[] {
  const { names, vendorPrefixes } = knownVariables();
  const set = Object.keys(source).filter((name) => source[name] !== undefined);
  return strayVariables(set, names, vendorPrefixes).map((stray) => describeStray(stray, names));
}

export function loadConfig(source: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(source);
  const strays = strayVariableLines(source);
  const production = source.NODE_ENV === 'production';
  if (!parsed.success) {
    throw new ConfigError([
      ...parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`),
      ...(production ? strays : []),
    ]);
  }
  const env = parsed.data;
  // In production a misspelt setting stops the start: it would otherwise be silently ignored.
  const problems = [...unsafeCombinations(env, source), ...(production ? strays : [])];
  if (problems.length > 0) throw new ConfigError(problems);
  const embedded = !env.DATABASE_URL;
  return {
    env: env.NODE_ENV,
    isProduction: env.NODE_ENV === 'production',
    host: env.HOST,
    port: env.PORT,
    appUrl: (env.APP_URL ?? `http://localhost:${env.PORT}`).replace(/\/$/, ''),
    databaseUrl: env.DATABASE_URL,
    migrationDatabaseUrl: env.DATABASE_URL ? env.MIGRATION_DATABASE_URL : undefined,
    migrateOnStart: env.MIGRATE_ON_START,
    shutdown: { drainSeconds: env.SHUTDOWN_DRAIN_SECONDS ?? (production ? 5 : 0) },
    warnings: production ? [] : strays,
    dataDir: resolve(env.DATA_DIR),
    appKey: env.APP_KEY,
    logLevel: env.LOG_LEVEL,
    trustProxy: env.TRUST_PROXY,
    metricsToken: env.METRICS_TOKEN || undefined,
    webDist: resolve(env.WEB_DIST ?? new URL('../../web/dist', import.meta.url).pathname),
    auth: {
      tokenTtlMinutes: env.TOKEN_TTL_MINUTES,
      otpTtlMinutes: env.OTP_TTL_MINUTES,
      otpMaxAttempts: env.OTP_MAX_ATTEMPTS,
      otpResendCooldownSeconds: env.OTP_RESEND_COOLDOWN_SECONDS,
      resetTokenTtlMinutes: env.RESET_TOKEN_TTL_MINUTES,
      trialCredits: env.TRIAL_CREDITS,
      registrationModeDefault: env.REGISTRATION_MODE ?? (env.REGISTRATION_ENABLED ? 'approval' : 'closed'),
      registrationRequiredFields: env.REGISTRATION_REQUIRED_FIELDS,
    },
    rateLimit: {
      enabled: env.RATE_LIMIT_ENABLED,
      redisUrl: env.REDIS_URL,
      apiKeyPerMinute: env.API_KEY_RATE_LIMIT,
    },
    passwords: {
      pwnedUrl:
        env.PWNED_PASSWORDS_URL === undefined
          ? env.NODE_ENV === 'production'
            ? DEFAULT_PWNED_PASSWORDS_URL
            : undefined
          : env.PWNED_PASSWORDS_URL || undefined,
      timeoutMs: env.PWNED_PASSWORDS_TIMEOUT_MS,
    },
    mail: {
      smtpUrl: env.SMTP_URL,
      from: env.MAIL_FROM,
      outbox: env.NODE_ENV !== 'production' && !env.SMTP_URL,
    },
    http: {
      headersTimeoutMs: env.HEADERS_TIMEOUT_MS,
      requestTimeoutMs: env.REQUEST_TIMEOUT_MS,
      connectionTimeoutMs: env.CONNECTION_TIMEOUT_MS,
    },
    // The embedded default is the "try it on my laptop" mode: it has the demo accounts, except in
    // production (ALLOW_EMBEDDED_DATABASE), where only SEED_DEMO with a password of its own makes them.
    audit: {
      sealMs: env.AUDIT_SEAL_MS,
      checkpointFile: env.AUDIT_CHECKPOINT_FILE,
      checkpointEmail: env.AUDIT_CHECKPOINT_EMAIL,
      checkpointMinutes: env.AUDIT_CHECKPOINT_MINUTES,
    },
    demo: { seed: env.SEED_DEMO || (embedded && !production), password: env.DEMO_PASSWORD },
    costs: Object.fromEntries(SEARCH_KINDS.map((kind) => [kind, env[costVariable(kind)]])) as Record<
      SearchKind,
      number
    >,
    sandboxLeakRecords: env.SANDBOX_LEAK_RECORDS ?? (embedded ? 100_000 : 0),
    lookups: {
      cacheHours: env.LOOKUP_CACHE_HOURS,
      retentionDays: env.LOOKUP_RETENTION_DAYS,
      purgeIntervalMinutes: env.LOOKUP_PURGE_INTERVAL_MINUTES,
      reviewSampleSeconds: env.REVIEW_SAMPLE_SECONDS,
      reviewSampleLagSeconds: env.REVIEW_SAMPLE_LAG_SECONDS,
      abandonSeconds: env.LOOKUP_ABANDON_SECONDS,
      hostWriter: env.HOST_WRITER && env.DATABASE_URL !== undefined,
    },
    jobs: {
      databaseUrl: env.DATABASE_URL ? (env.JOBS_DATABASE_URL ?? env.DATABASE_URL) : undefined,
      concurrency: env.JOBS_CONCURRENCY,
      bulkRowConcurrency: env.BULK_ROW_CONCURRENCY,
      bulkStaleSeconds: env.BULK_STALE_SECONDS,
    },
    reports: {
      threads: env.REPORT_THREADS,
      queue: env.REPORT_QUEUE,
      warm: env.REPORT_WARM ?? env.NODE_ENV !== 'test',
      llm: env.LLM_BASE_URL
        ? {
            baseUrl: env.LLM_BASE_URL.replace(/\/$/, ''),
            apiKey: env.LLM_API_KEY,
            model: env.LLM_MODEL,
            timeoutMs: env.LLM_TIMEOUT_MS,
          }
        : undefined,
    },
    siteCheck: {
      enabled: env.SITE_CHECK_ENABLED,
      userAgent: env.SITE_CHECK_USER_AGENT ?? '',
      concurrency: env.SITE_CHECK_CONCURRENCY,
      intervalMs: env.SITE_CHECK_INTERVAL_MS,
      timeoutMs: env.SITE_CHECK_TIMEOUT_MS,
      deadlineMs: env.SITE_CHECK_DEADLINE_MS,
      maxBytes: env.SITE_CHECK_MAX_BYTES,
      cataloguePath: env.SITE_CHECK_CATALOGUE,
      selfCheckHours: env.SITE_CHECK_SELF_CHECK_HOURS,
      allowAddresses: env.SITE_CHECK_ALLOW_ADDRESSES,
    },
    capture: {
      enabled: env.CAPTURE_ENABLED,
      chromiumPath: env.CAPTURE_CHROMIUM_PATH ?? 'chromium',
      timeoutMs: env.CAPTURE_TIMEOUT_MS,
      maxBytes: env.CAPTURE_MAX_BYTES,
      concurrency: env.CAPTURE_CONCURRENCY,
      allowAddresses: env.CAPTURE_ALLOW_ADDRESSES,
    },
    media: {
      hosts: env.MEDIA_HOSTS,
      maxBytes: env.MEDIA_MAX_BYTES,
      timeoutMs: env.MEDIA_TIMEOUT_MS,
      cacheBytes: env.MEDIA_CACHE_MB * 1024 * 1024,
      allowAddresses: env.MEDIA_ALLOW_ADDRESSES,
    },
    map: { tileUrl: env.MAP_TILE_URL, attribution: env.MAP_TILE_ATTRIBUTION },
    providers: {
      timeoutMs: env.PROVIDER_TIMEOUT_MS,
      breakerFailures: env.BREAKER_FAILURES,
      breakerHalfOpenSeconds: env.BREAKER_HALF_OPEN_SECONDS,
      // A mode the operator chooses: on by default except in production.
      sandbox:
        env.SANDBOX === undefined
          ? env.NODE_ENV !== 'production'
          : ['true', '1', 'yes'].includes(env.SANDBOX),
      sandboxLatency: env.SANDBOX_LATENCY,
      sandboxFailures: env.SANDBOX_FAILURES,
      env: { ...source },
    },
  };
}
