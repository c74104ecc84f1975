import { isIP } from 'node:net';
import { resolve } from 'node:path';
import {
  COST_DEFAULTS,
  type CostVariable,
  costVariable,
  REGISTRATION_MODES,
  type RegistrationMode,
  SEARCH_KINDS,
  type SearchKind,
} from '@footprint/domain';
import { z } from 'zod';

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

/** An IP address or a CIDR block (`127.0.0.1`, `10.0.0.0/8`, `::1`, `fd00::/8`). */
export function isAddressOrBlock(value: string): boolean {
  const [address, bits, ...rest] = value.split('/');
  if (rest.length > 0 || !address) return false;
  const family = isIP(address);
  if (family === 0) return false;
  if (bits === undefined) return true;
  if (!/^\d{1,3}$/.test(bits)) return false;
  return Number(bits) <= (family === 4 ? 32 : 128);
}

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

/**
 * Every environment variable the server reads, parsed once at boot. README.md documents each one;
 * keep the two in step. Unknown variables are ignored; bad values stop the process with a list.
 */
export const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  HOST: z.string().default('127.0.0.1'),
  PORT: int(3000, 0, 65535),
  APP_URL: optionalUrl,
  DATABASE_URL: optionalUrl,
  MIGRATION_DATABASE_URL: optionalUrl,
  DATA_DIR: z.string().default('./data'),
  APP_KEY: z.string().min(32).optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  TRUST_PROXY: bool(false),
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
  RATE_LIMIT_ENABLED: bool(true),
  REDIS_URL: optionalUrl,

  SMTP_URL: optionalUrl,
  MAIL_FROM: z.string().default('Footprint <no-reply@footprint.test>'),

  ...costVariables,
  SANDBOX_LEAK_RECORDS: z.coerce.number().int().min(0).max(50_000_000).optional(),
  LOOKUP_CACHE_HOURS: int(24, 0, 24 * 90),
  LOOKUP_RETENTION_DAYS: int(90, 1, 3650),
  LOOKUP_PURGE_INTERVAL_MINUTES: int(60, 0, 7 * 24 * 60),
  LOOKUP_ABANDON_SECONDS: int(120, 1, 24 * 60 * 60),
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

  SEED_DEMO: bool(false),
  DEMO_PASSWORD: z.string().min(8).default('footprint-demo'),

  MEDIA_HOSTS: list(DEFAULT_MEDIA_HOSTS).refine(
    (hosts) => hosts.every((host) => HOST_PATTERN.test(host)),
    'must be host names or *.domain, separated by commas',
  ),
  MEDIA_MAX_BYTES: int(5 * 1024 * 1024, 1024, 100 * 1024 * 1024),
  MEDIA_TIMEOUT_MS: int(5000, 100, 60_000),
  MEDIA_CACHE_MB: int(32, 0, 4096),
  MEDIA_ALLOW_ADDRESSES: list('').refine(
    (entries) => entries.every(isAddressOrBlock),
    'must be IP addresses or CIDR blocks, separated by commas',
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
  dataDir: string;
  appKey: string | undefined;
  logLevel: Env['LOG_LEVEL'];
  trustProxy: boolean;
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
  };
  rateLimit: { enabled: boolean; redisUrl: string | undefined };
  mail: { smtpUrl: string | undefined; from: string };
  demo: { seed: boolean; password: string };
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
    /**
     * A paid lookup still pending this long after its charge was left by a process that stopped
     * (crash, kill -9): the recovery sweep refunds it. Keep it well above PROVIDER_TIMEOUT_MS.
     */
    abandonSeconds: number;
  };
  reports: {
    /** Worker threads for PDF rendering; 0 means one fewer than the cores. */
    threads: number;
    llm: { baseUrl: string; apiKey: string | undefined; model: string; timeoutMs: number } | undefined;
  };
  /** The media proxy (GET /api/media): pictures reach the browser only through the server. */
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

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

export function loadConfig(source: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(source);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`));
  }
  const env = parsed.data;
  const embedded = !env.DATABASE_URL;
  return {
    env: env.NODE_ENV,
    isProduction: env.NODE_ENV === 'production',
    host: env.HOST,
    port: env.PORT,
    appUrl: (env.APP_URL ?? `http://localhost:${env.PORT}`).replace(/\/$/, ''),
    databaseUrl: env.DATABASE_URL,
    migrationDatabaseUrl: env.DATABASE_URL ? env.MIGRATION_DATABASE_URL : undefined,
    dataDir: resolve(env.DATA_DIR),
    appKey: env.APP_KEY,
    logLevel: env.LOG_LEVEL,
    trustProxy: env.TRUST_PROXY,
    webDist: resolve(env.WEB_DIST ?? new URL('../../web/dist', import.meta.url).pathname),
    auth: {
      tokenTtlMinutes: env.TOKEN_TTL_MINUTES,
      otpTtlMinutes: env.OTP_TTL_MINUTES,
      otpMaxAttempts: env.OTP_MAX_ATTEMPTS,
      otpResendCooldownSeconds: env.OTP_RESEND_COOLDOWN_SECONDS,
      resetTokenTtlMinutes: env.RESET_TOKEN_TTL_MINUTES,
      trialCredits: env.TRIAL_CREDITS,
      registrationModeDefault: env.REGISTRATION_MODE ?? (env.REGISTRATION_ENABLED ? 'approval' : 'closed'),
    },
    rateLimit: { enabled: env.RATE_LIMIT_ENABLED, redisUrl: env.REDIS_URL },
    mail: { smtpUrl: env.SMTP_URL, from: env.MAIL_FROM },
    // The embedded default is the "try it on my laptop" mode: it always has the demo accounts.
    demo: { seed: env.SEED_DEMO || embedded, password: env.DEMO_PASSWORD },
    costs: Object.fromEntries(SEARCH_KINDS.map((kind) => [kind, env[costVariable(kind)]])) as Record<
      SearchKind,
      number
    >,
    sandboxLeakRecords: env.SANDBOX_LEAK_RECORDS ?? (embedded ? 100_000 : 0),
    lookups: {
      cacheHours: env.LOOKUP_CACHE_HOURS,
      retentionDays: env.LOOKUP_RETENTION_DAYS,
      purgeIntervalMinutes: env.LOOKUP_PURGE_INTERVAL_MINUTES,
      abandonSeconds: env.LOOKUP_ABANDON_SECONDS,
    },
    reports: {
      threads: env.REPORT_THREADS,
      llm: env.LLM_BASE_URL
        ? {
            baseUrl: env.LLM_BASE_URL.replace(/\/$/, ''),
            apiKey: env.LLM_API_KEY,
            model: env.LLM_MODEL,
            timeoutMs: env.LLM_TIMEOUT_MS,
          }
        : undefined,
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
