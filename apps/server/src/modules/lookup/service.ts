import { messages } from '@footprint/domain';
import { and, desc, eq, gt, isNotNull } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { lookups, type UserRow, users } from '../../db/schema.ts';
import { AppError } from '../../http/errors.ts';
import type { FanOutResult, Runner } from '../../providers/runner.ts';
import type { QueryKind } from '../../providers/types.ts';
import type { ClientContext } from '../auth/service.ts';
import { createChargeBatcher } from '../credits/charge-batcher.ts';
import { applyCreditChange } from '../credits/service.ts';
import { createSettleWriter } from './settle.ts';

/** What a lookup stores and answers, before it is shaped into the spec's response for its kind. */
export interface LookupOutcome {
  payloads: Record<string, unknown>;
  errors: Record<string, string>;
  sandbox: boolean;
  credits: number;
  lookupId: string;
  cached: boolean;
  /** Time spent waiting for the sources, for the Server-Timing header (0 for cache hits). */
  sourcesMs: number;
}

interface StoredResult {
  payloads: Record<string, unknown>;
  errors: Record<string, string>;
}

export interface LookupDeps {
  db: Database;
  runner: Runner;
  costs: Record<QueryKind, number>;
  cacheHours: number;
  now?: () => Date;
}

export const insufficientCredits = (credits: number) =>
  new AppError(402, 'insufficient_credits', messages.credits.insufficient, { credits });

/**
 * Every paid lookup goes through here: serve from the user's own recent identical lookup for free,
 * or charge (the charge and the lookups row in one transaction), ask the sources, and refund in a
 * second ledger row when not one source answered.
 */
export function createLookupService(deps: LookupDeps) {
  const { db, runner } = deps;
  const now = deps.now ?? (() => new Date());
  const writeSettled = createSettleWriter(db);
  const chargeLookup = createChargeBatcher(db);

  async function balanceOf(userId: string): Promise<number> {
    const [row] = await db.select({ credits: users.credits }).from(users).where(eq(users.id, userId));
    return row?.credits ?? 0;
  }

  async function fromCache(user: UserRow, kind: QueryKind, query: string, client: ClientContext) {
    if (deps.cacheHours <= 0) return undefined;
    const since = new Date(now().getTime() - deps.cacheHours * 3_600_000);
    const [hit] = await db
      .select({
        id: lookups.id,
        result: lookups.result,
        sandbox: lookups.sandbox,
        answered: lookups.sourcesAnswered,
      })
      .from(lookups)
      .where(
        and(
          eq(lookups.userId, user.id),
          eq(lookups.kind, kind),
          eq(lookups.query, query),
          eq(lookups.status, 'complete'),
          isNotNull(lookups.result),
          gt(lookups.createdAt, since),
        ),
      )
      .orderBy(desc(lookups.createdAt))
      .limit(1);
    if (!hit) return undefined;
    const stored = hit.result as StoredResult;
    // The repeat is still a search by this person: it gets its own row, at no cost.
    const [row] = await db
      .insert(lookups)
      .values({
        userId: user.id,
        kind,
        query,
        cost: 0,
        status: 'complete',
        sourcesAnswered: hit.answered,
        sourceErrors: stored.errors,
        sandbox: hit.sandbox,
        cacheOf: hit.id,
        ip: client.ip,
        deviceId: client.deviceId ?? null,
        createdAt: now(),
        completedAt: now(),
      })
      .returning({ id: lookups.id });
    return {
      payloads: stored.payloads,
      errors: stored.errors,
      sandbox: hit.sandbox,
      credits: await balanceOf(user.id),
      lookupId: row!.id,
      cached: true,
      sourcesMs: 0,
    } satisfies LookupOutcome;
  }

  async function charge(user: UserRow, kind: QueryKind, query: string, client: ClientContext) {
    const cost = deps.costs[kind];
    const charged = await chargeLookup({
      userId: user.id,
      cost,
      kind,
      query,
      ip: client.ip,
      deviceId: client.deviceId ?? null,
      at: now(),
    });
    if (!charged) throw insufficientCredits(await balanceOf(user.id));
    return { ...charged, cost };
  }

  async function settle(
    lookupId: string,
    userId: string,
    cost: number,
    fanOut: FanOutResult,
  ): Promise<number | null> {
    if (fanOut.answered.length === 0) {
      return db.transaction(async (tx) => {
        const credits =
          cost > 0
            ? await applyCreditChange(tx, {
                userId,
                delta: cost,
                kind: 'refund',
                reason: 'No source answered',
                lookupId,
              })
            : null;
        await tx
          .update(lookups)
          .set({ status: 'refunded', sourceErrors: fanOut.errors, completedAt: now() })
          .where(eq(lookups.id, lookupId));
        return credits;
      });
    }
    const stored: StoredResult = { payloads: fanOut.payloads, errors: fanOut.errors };
    await writeSettled({
      id: lookupId,
      answered: fanOut.answered,
      errors: fanOut.errors,
      result: stored,
      sandbox: fanOut.sandbox,
      at: now(),
    });
    return null;
  }

  return {
    async lookup(
      user: UserRow,
      kind: QueryKind,
      query: string,
      client: ClientContext,
    ): Promise<LookupOutcome> {
      const cached = await fromCache(user, kind, query, client);
      if (cached) return cached;

      const { lookupId, credits, cost } = await charge(user, kind, query, client);
      const started = performance.now();
      const fanOut = await runner.run({ kind, value: query });
      const sourcesMs = performance.now() - started;
      const refunded = await settle(lookupId, user.id, cost, fanOut);
      if (fanOut.answered.length === 0) {
        throw new AppError(
          502,
          'no_source_answered',
          'No source answered this lookup. Your credits were refunded.',
          {
            credits: refunded ?? (await balanceOf(user.id)),
            errors_by_source: fanOut.errors,
          },
        );
      }
      return {
        payloads: fanOut.payloads,
        errors: fanOut.errors,
        sandbox: fanOut.sandbox,
        credits,
        lookupId,
        cached: false,
        sourcesMs,
      };
    },
  };
}

export type LookupService = ReturnType<typeof createLookupService>;
