import { and, gte, lte, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { providerUsage } from '../../db/schema.ts';
import { monthStart } from './recorder.ts';

/** One provider's written usage in the UTC month of `today`, per currency it was priced in. */
export interface MonthUsage {
  providerId: string;
  /** Null for the sandbox. */
  currency: string | null;
  callsToday: number;
  spendToday: number;
  spendMonth: number;
}

/**
 * Calls today and spend today and this month (UTC calendar month up to `today`, YYYY-MM-DD) of every
 * provider with usage this month, whichever process wrote it. One row per provider and currency.
 */
export async function readMonthUsage(db: Executor, today: string): Promise<MonthUsage[]> {
  const isToday = sql`${providerUsage.day} = ${today}::date`;
  return db
    .select({
      providerId: providerUsage.providerId,
      currency: providerUsage.currency,
      callsToday: sql`coalesce(sum(${providerUsage.calls}) filter (where ${isToday}), 0)`.mapWith(Number),
      spendToday: sql`coalesce(sum(${providerUsage.spend}) filter (where ${isToday}), 0)`.mapWith(Number),
      spendMonth: sql`coalesce(sum(${providerUsage.spend}), 0)`.mapWith(Number),
    })
    .from(providerUsage)
    .where(and(gte(providerUsage.day, monthStart(today)), lte(providerUsage.day, today)))
    .groupBy(providerUsage.providerId, providerUsage.currency);
}
