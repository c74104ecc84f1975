/**
 * Provider usage and vendor spend, kept in the database so it survives a restart.
 *
 * The runner tells the recorder of every call that reached a provider (its `onCall`); the recorder
 * only adds it to a tally in memory, so a lookup never waits on a statement for it. Every few seconds,
 * and when the runtime closes, the tally goes to `provider_usage` as one aggregated upsert: one row
 * per provider and UTC day, adding calls, successes, failures and spend (calls × the vendor's
 * configured price, `<PREFIX>_COST_PER_CALL`). Sandbox calls are counted too, at no cost.
 *
 * Calls rejected by an open breaker or answered for a vendor that asked us to wait never reach it: the
 * runner does not report them, so they are neither counted nor priced. A failed write puts its tally
 * back for the next one, so a database hiccup delays the figures rather than losing them.
 */
import type { SourceState } from '@footprint/domain';
import { sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { providerUsage } from '../../db/schema.ts';
import { logFailure } from '../../outage.ts';
import type { ProviderCall } from '../../providers/runner.ts';

/** How often the tally is written: short enough that the Providers screen and a crash lose little. */
export const USAGE_FLUSH_MS = 5_000;

/** Spend is counted in millionths of the currency unit (the column's scale), as exact integers. */
const MICROS = 1_000_000n;

/** One provider's calls on one UTC day, not yet written. */
export interface UsageTally {
  providerId: string;
  vendorId: string | null;
  /** YYYY-MM-DD, UTC. */
  day: string;
  calls: number;
  successes: number;
  failures: number;
  /** Millionths of `currency`. */
  spendMicros: bigint;
  currency: string | null;
}

/** Calls and answers of one provider since this process started. */
export interface CallCount {
  calls: number;
  successes: number;
}

interface Log {
  error(obj: object, msg: string): void;
}

/** The last day formatted: every provider call of a lookup asks for it (11 a phone lookup), nearly always the same. */
let lastDay = { number: Number.NaN, text: '' };

/** The UTC day of a moment, YYYY-MM-DD. */
export function utcDay(at: Date): string {
  const number = Math.floor(at.getTime() / 86_400_000);
  if (number !== lastDay.number) lastDay = { number, text: at.toISOString().slice(0, 10) };
  return lastDay.text;
}

/** The first day of the UTC month of a day (YYYY-MM-DD → YYYY-MM-01). */
export const monthStart = (day: string): string => `${day.slice(0, 8)}01`;

/** A payload or a definite "no record" is an answer; anything else that reached the vendor failed. */
export const isAnswer = (state: SourceState): boolean => state === 'ok' || state === 'not_found';

/** A price per call in millionths, rounded to the column's scale. */
export const priceMicros = (price: number): bigint => BigInt(Math.round(price * 1_000_000));

/** Millionths as the exact decimal text PostgreSQL's numeric reads (1234567n → '1.234567'). */
export function microsToDecimal(micros: bigint): string {
  const whole = micros / MICROS;
  const fraction = (micros % MICROS).toString().padStart(6, '0');
  return `${whole}.${fraction}`;
}

/** The tally of one call: one call of its provider on its UTC day, at its vendor's price. */
export function tallyOf(call: ProviderCall): UsageTally {
  const answered = isAnswer(call.state);
  const vendor = call.provider.vendor;
  return {
    providerId: call.provider.id,
    vendorId: vendor?.id ?? null,
    day: utcDay(call.at),
    calls: 1,
    successes: answered ? 1 : 0,
    failures: answered ? 0 : 1,
    spendMicros: vendor ? priceMicros(vendor.costPerCall) : 0n,
    currency: vendor?.currency ?? null,
  };
}

const keyOf = (tally: UsageTally) => `${tally.providerId}\u0000${tally.day}`;

/** Adds a tally into a map keyed by provider and day (the upsert's primary key: one row per key). */
export function addTally(into: Map<string, UsageTally>, tally: UsageTally): void {
  const key = keyOf(tally);
  const current = into.get(key);
  if (!current) {
    into.set(key, { ...tally });
    return;
  }
  current.calls += tally.calls;
  current.successes += tally.successes;
  current.failures += tally.failures;
  current.spendMicros += tally.spendMicros;
  current.vendorId = tally.vendorId ?? current.vendorId;
  current.currency = tally.currency ?? current.currency;
}

/** Adds the tallies to their rows of `provider_usage` in one statement (a row is made on its first call). */
export async function writeUsage(db: Executor, tallies: readonly UsageTally[]): Promise<void> {
  if (tallies.length === 0) return;
  await db
    .insert(providerUsage)
    .values(
      tallies.map((tally) => ({
        providerId: tally.providerId,
        vendorId: tally.vendorId,
        day: tally.day,
        calls: tally.calls,
        successes: tally.successes,
        failures: tally.failures,
        spend: microsToDecimal(tally.spendMicros),
        currency: tally.currency,
      })),
    )
    .onConflictDoUpdate({
      target: [providerUsage.providerId, providerUsage.day],
      set: {
        calls: sql`${providerUsage.calls} + excluded.calls`,
        successes: sql`${providerUsage.successes} + excluded.successes`,
        failures: sql`${providerUsage.failures} + excluded.failures`,
        spend: sql`${providerUsage.spend} + excluded.spend`,
        vendorId: sql`coalesce(excluded.vendor_id, ${providerUsage.vendorId})`,
        currency: sql`coalesce(excluded.currency, ${providerUsage.currency})`,
        updatedAt: sql`now()`,
      },
    });
}

/**
 * The recorder of one runtime: `record` is the runner's `onCall`, `start` writes the tally every
 * `intervalMs`, `flush` writes it now (the Providers screen does, so it shows the latest calls),
 * `close` stops the timer and writes what is left.
 */
export function createUsageRecorder(db: Executor) {
  let pending = new Map<string, UsageTally>();
  const counts = new Map<string, CallCount>();
  let writing: Promise<void> = Promise.resolve();
  let timer: NodeJS.Timeout | undefined;
  let log: Log | undefined;

  async function writePending(): Promise<void> {
    if (pending.size === 0) return;
    const batch = [...pending.values()];
    pending = new Map();
    try {
      await writeUsage(db, batch);
    } catch (error) {
      for (const tally of batch) addTally(pending, tally);
      throw error;
    }
  }

  /** Writes are one at a time, in order: a flush waits for the one before it. */
  function flush(): Promise<void> {
    const next = writing.then(writePending);
    writing = next.catch(() => {});
    return next;
  }

  const flushAndLog = () =>
    flush().catch((err) => logFailure(log, err, {}, 'provider usage not written; kept for the next attempt'));

  return {
    record(call: ProviderCall): void {
      const tally = tallyOf(call);
      addTally(pending, tally);
      const count = counts.get(tally.providerId) ?? { calls: 0, successes: 0 };
      count.calls += 1;
      count.successes += tally.successes;
      counts.set(tally.providerId, count);
    },

    flush,

    /** Calls that reached the provider and those it answered, since this process started. */
    countSinceStart: (providerId: string): CallCount => ({
      ...(counts.get(providerId) ?? { calls: 0, successes: 0 }),
    }),

    /** Writes every `intervalMs` until `close`; the timer never keeps the process alive. */
    start(intervalMs: number, logger: Log): void {
      log = logger;
      if (timer) clearInterval(timer);
      timer = setInterval(() => void flushAndLog(), intervalMs);
      timer.unref();
    },

    async close(): Promise<void> {
      if (timer) clearInterval(timer);
      timer = undefined;
      await flushAndLog();
    },
  };
}

export type UsageRecorder = ReturnType<typeof createUsageRecorder>;
