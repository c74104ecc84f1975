import { Redis } from 'ioredis';
import nodemailer from 'nodemailer';
import pg from 'pg';
import type { Config } from './config.ts';

/**
 * At start, before anything else opens them: can the database, Redis and the mail server be
 * reached? Each one that cannot gives one line (where, why, what to check) instead of a stack, and
 * the process stops. While the server runs, an outage is answered with 503s instead (not here).
 */
const TIMEOUT_MS = 5000;

/** A URL without its credentials: `postgres://…@db.example.org:5432/footprint`. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    const who = u.username || u.password ? '…@' : '';
    return `${u.protocol}//${who}${u.host}${u.pathname === '/' ? '' : u.pathname}`;
  } catch {
    return '(a URL that does not parse)';
  }
}

/** The error's code (ECONNREFUSED, ENOTFOUND, 28P01…), or its message. */
export function reasonOf(error: unknown): string {
  const err = error as { code?: unknown; errors?: unknown[]; message?: unknown };
  if (typeof err?.code === 'string' && err.code) return err.code;
  const inner = err?.errors?.find((e) => typeof (e as { code?: unknown }).code === 'string');
  if (inner) return (inner as { code: string }).code;
  return typeof err?.message === 'string' && err.message ? err.message : String(error);
}

const POSTGRES_WORDS: Record<string, string> = {
  '28P01': 'the password was refused',
  '28000': 'the login was refused',
  '3D000': 'that database does not exist',
};

export async function checkDatabase(url: string, variable = 'DATABASE_URL'): Promise<string | undefined> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: TIMEOUT_MS });
  client.on('error', () => {});
  try {
    await client.connect();
    await client.query('select 1');
    return undefined;
  } catch (error) {
    const reason = reasonOf(error);
    const words = POSTGRES_WORDS[reason];
    return words
      ? `Cannot use the database at ${redactUrl(url)} (${variable}): ${words} (${reason}).`
      : `Cannot reach the database at ${redactUrl(url)} (${variable}; ${reason}). Is PostgreSQL running?`;
  } finally {
    await client.end().catch(() => {});
  }
}

export async function checkRedis(url: string): Promise<string | undefined> {
  const redis = new Redis(url, {
    lazyConnect: true,
    connectTimeout: TIMEOUT_MS,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  redis.on('error', () => {});
  try {
    await redis.connect();
    await redis.ping();
    return undefined;
  } catch (error) {
    return `Cannot reach Redis at ${redactUrl(url)} (REDIS_URL; ${reasonOf(error)}). Is Redis running?`;
  } finally {
    redis.disconnect();
  }
}

export async function checkSmtp(url: string): Promise<string | undefined> {
  const transport = nodemailer.createTransport({
    url,
    connectionTimeout: TIMEOUT_MS,
    greetingTimeout: TIMEOUT_MS,
    socketTimeout: TIMEOUT_MS,
  });
  try {
    await transport.verify();
    return undefined;
  } catch (error) {
    return `Cannot reach the mail server at ${redactUrl(url)} (SMTP_URL; ${reasonOf(error)}). Is it running, and are its credentials right?`;
  } finally {
    transport.close();
  }
}

/** The lines for every dependency of this configuration that cannot be reached (none: all can). */
export async function unreachableAtStart(config: Config): Promise<string[]> {
  const checks: Array<Promise<string | undefined>> = [];
  if (config.databaseUrl) checks.push(checkDatabase(config.databaseUrl));
  if (config.migrationDatabaseUrl && config.migrateOnStart) {
    checks.push(checkDatabase(config.migrationDatabaseUrl, 'MIGRATION_DATABASE_URL'));
  }
  if (config.rateLimit.enabled && config.rateLimit.redisUrl)
    checks.push(checkRedis(config.rateLimit.redisUrl));
  if (config.mail.smtpUrl) checks.push(checkSmtp(config.mail.smtpUrl));
  return (await Promise.all(checks)).filter((line): line is string => line !== undefined);
}
