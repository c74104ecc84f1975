import { messages } from '@footprint/domain';
import { and, desc, eq, gt, isNotNull, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { lookups, type UserRow, users } from '../../db/schema.ts';
import { AppError } from '../../http/errors.ts';
import type { FanOutResult, Runner } from '../../providers/runner.ts';
import type { QueryKind } from '../../providers/types.ts';
import { recordAudit } from '../audit/service.ts';
import type { ClientContext } from '../auth/service.ts';
import { createChargeBatcher } from '../credits/charge-batcher.ts';
import { refundPendingLookup, rowsOf } from '../credits/service.ts';
import { requireCaseReference } from '../settings/case-reference.ts';
import { type DeploymentDefaults, readDeploymentSettings } from '../settings/service.ts';
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
  /** Defaults of the deployment settings (the retention period bounds the cache window). */
  settings: DeploymentDefaults;
  now?: () => Date;
}

/** The newest moment a stored result may come from and still be served: the cache window, capped by retention. */
export function reuseWindowStart(now: Date, cacheHours: number, retentionDays: number): Date {
  const hours = Math.min(cacheHours, retentionDays * 24);
  return new Date(now.getTime() - hours * 3_600_000);
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

  interface Search {
    user: UserRow;
    kind: QueryKind;
    query: string;
    client: ClientContext;
    caseReference: string | null;
  }

  async function fromCache({ user, kind, query, client, caseReference }: Search) {
    if (deps.cacheHours <= 0) return undefined;
    const { lookupRetentionDays } = await readDeploymentSettings(db, deps.settings);
    const since = reuseWindowStart(now(), deps.cacheHours, lookupRetentionDays);
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
    const at = now().toISOString();
    // The repeat is still a search by this person: it gets its own row at no cost, and its audit
    // row, in one statement that also reads the balance.
    const [row] = rowsOf<{ id: string; credits: number }>(
      await db.execute(sql`
        with repeat as (
          insert into lookups (user_id, kind, query, cost, status, sources_answered, source_errors, sandbox,
            cache_of, ip, device_id, case_reference, created_at, completed_at)
          values (${user.id}, ${kind}, ${query}, 0, 'complete', ${JSON.stringify(hit.answered)}::jsonb,
            ${JSON.stringify(stored.errors)}::jsonb, ${hit.sandbox}, ${hit.id}, ${client.ip},
            ${client.deviceId ?? null}, ${caseReference}, ${at}::timestamptz, ${at}::timestamptz)
          returning id
        ), audited as (
          insert into audit_events (user_id, actor_email, ip, device_id, action, target, cost, outcome,
            case_reference, details)
          select ${user.id}, ${user.email}, ${client.ip}, ${client.deviceId ?? null}, ${`lookup.${kind}`},
            ${query}, 0, 'success', ${caseReference},
            jsonb_build_object('lookup_id', repeat.id, 'cached', true, 'cache_of', ${hit.id}::text,
              'sandbox', ${hit.sandbox}::boolean, 'sources_answered', ${JSON.stringify(hit.answered)}::jsonb)
          from repeat
        )
        select repeat.id, (select credits from users where id = ${user.id}) as credits from repeat
      `),
    );
    return {
      payloads: stored.payloads,
      errors: stored.errors,
      sandbox: hit.sandbox,
      credits: Number(row!.credits),
      lookupId: row!.id,
      cached: true,
      sourcesMs: 0,
    } satisfies LookupOutcome;
  }

  async function charge({ user, kind, query, client, caseReference }: Search) {
    const cost = deps.costs[kind];
    const charged = await chargeLookup({
      userId: user.id,
      cost,
      kind,
      query,
      ip: client.ip,
      deviceId: client.deviceId ?? null,
      caseReference,
      at: now(),
    });
    if (!charged) {
      const balance = await balanceOf(user.id);
      await recordAudit(db, {
        action: `lookup.${kind}`,
        outcome: 'denied',
        user,
        client,
        target: query,
        cost: 0,
        caseReference,
        details: { reason: 'insufficient_credits', balance, price: cost },
      });
      throw insufficientCredits(balance);
    }
    return { ...charged, cost };
  }

  async function settle(search: Search, lookupId: string, cost: number, fanOut: FanOutResult) {
    const { user } = search;
    if (fanOut.answered.length === 0) {
      return db.transaction(async (tx) => {
        const credits = await refundPendingLookup(tx, {
          userId: user.id,
          lookupId,
          cost,
          reason: 'No source answered',
          at: now(),
          set: { sourceErrors: fanOut.errors },
        });
        await recordAudit(tx, {
          action: `lookup.${search.kind}`,
          outcome: 'failure',
          user,
          client: search.client,
          target: search.query,
          cost: 0,
          caseReference: search.caseReference,
          details: { lookup_id: lookupId, reason: 'no_source_answered', refunded: cost },
        });
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
      actorEmail: user.email,
    });
    return null;
  }

  return {
    /**
     * `caseReference` is the request's raw value: checked here (length, and presence when the
     * deployment requires one) before anything is charged or written.
     */
    async lookup(
      user: UserRow,
      kind: QueryKind,
      query: string,
      client: ClientContext,
      caseReference?: unknown,
    ): Promise<LookupOutcome> {
      const search: Search = {
        user,
        kind,
        query,
        client,
        caseReference: await requireCaseReference(db, caseReference),
      };
      const cached = await fromCache(search);
      if (cached) return cached;

      const { lookupId, credits, cost } = await charge(search);
      const started = performance.now();
      const fanOut = await runner.run({ kind, value: query });
      const sourcesMs = performance.now() - started;
      const refunded = await settle(search, lookupId, cost, fanOut);
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
