import {
  LEAK_TOTAL_CAP,
  type LeakFieldType,
  type LeakRecord,
  type LeakSearchResponse,
  leakRowError,
  messages,
  nameTokens,
  normalizeLeakEmail,
  normalizeLeakPhone,
  normalizeLeakUsername,
} from '@footprint/domain';
import { and, desc, eq, gt, type SQL, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { leakRecords, leakSources, lookups, type UserRow, users } from '../../db/schema.ts';
import { AppError, validationError } from '../../http/errors.ts';
import { recordAudit } from '../audit/service.ts';
import type { ClientContext } from '../auth/service.ts';
import { chargeForLookup, refundPendingLookup, rowsOf } from '../credits/service.ts';
import { insufficientCredits } from '../lookup/service.ts';
import { requireCaseReference } from '../settings/case-reference.ts';

export interface LeakCondition {
  type: LeakFieldType;
  /** Normalized: lower-case e-mail or username, last 10 phone digits, or name tokens. */
  value: string | string[];
}

/** One row of the query, normalized the way records were indexed at import. */
function conditionOf(type: LeakFieldType, raw: string): LeakCondition {
  switch (type) {
    case 'email':
      return { type, value: normalizeLeakEmail(raw) };
    case 'phone':
      return { type, value: normalizeLeakPhone(raw) };
    case 'username':
      return { type, value: normalizeLeakUsername(raw) };
    case 'name':
      return { type, value: nameTokens(raw) };
  }
}

/** Each condition uses its own index (docs/scaling.md has the EXPLAIN of every shape). */
function predicate(condition: LeakCondition): SQL {
  switch (condition.type) {
    case 'email':
      return eq(leakRecords.emailNorm, condition.value as string);
    case 'phone':
      return eq(leakRecords.phoneNorm, condition.value as string);
    case 'username':
      return eq(leakRecords.usernameNorm, condition.value as string);
    case 'name': {
      const tokens = condition.value as string[];
      return sql`${leakRecords.nameTokens} @> array[${sql.join(
        tokens.map((token) => sql`${token}`),
        sql`, `,
      )}]::text[]`;
    }
  }
}

/** The same query whatever the row order or formatting: the key the charge and the cache use. */
const queryKey = (conditions: LeakCondition[]) =>
  JSON.stringify(
    conditions
      .map((c) => [c.type, Array.isArray(c.value) ? [...c.value].sort() : c.value] as const)
      .sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b))),
  );

function matchedTypes(record: Record<string, unknown>, conditions: LeakCondition[]): LeakFieldType[] {
  const hit = new Set<LeakFieldType>();
  for (const c of conditions) {
    if (c.type === 'email' && record.email_norm === c.value) hit.add('email');
    if (c.type === 'phone' && record.phone_norm === c.value) hit.add('phone');
    if (c.type === 'username' && record.username_norm === c.value) hit.add('username');
    if (c.type === 'name') {
      const tokens = new Set((record.name_tokens as string[] | null) ?? []);
      if ((c.value as string[]).every((t) => tokens.has(t))) hit.add('name');
    }
  }
  return [...hit];
}

export function createLeakService(deps: {
  db: Database;
  cost: number;
  cacheHours: number;
  now?: () => Date;
}) {
  const { db } = deps;
  const now = deps.now ?? (() => new Date());

  async function balanceOf(userId: string) {
    const [row] = await db.select({ credits: users.credits }).from(users).where(eq(users.id, userId));
    return row?.credits ?? 0;
  }

  /** The user's paid run of this query within the cache window, if any: paging it is free. */
  async function paidRun(userId: string, query: string) {
    if (deps.cacheHours <= 0) return undefined;
    const since = new Date(now().getTime() - deps.cacheHours * 3_600_000);
    const [row] = await db
      .select({ id: lookups.id })
      .from(lookups)
      .where(
        and(
          eq(lookups.userId, userId),
          eq(lookups.kind, 'leak'),
          eq(lookups.query, query),
          eq(lookups.status, 'complete'),
          gt(lookups.createdAt, since),
        ),
      )
      .orderBy(desc(lookups.createdAt))
      .limit(1);
    return row;
  }

  async function refund(userId: string, lookupId: string, cost: number) {
    return db.transaction(async (tx) => {
      return refundPendingLookup(tx, { userId, lookupId, cost, reason: 'Leak search refused', at: now() });
    });
  }

  return {
    async search(
      user: UserRow,
      rows: Array<{ type: LeakFieldType; value: string }>,
      page: number,
      perPage: number,
      client: ClientContext,
      rawCaseReference?: unknown,
    ): Promise<LeakSearchResponse> {
      // The browser's checks, again on the server: same rules, same messages.
      const rowErrors = rows.map((row) => leakRowError(row.type, row.value));
      const firstError = rowErrors.find((e): e is string => e !== null);
      if (firstError) {
        throw validationError({ fields: rowErrors.map((e) => e ?? '') }, firstError);
      }
      const caseReference = await requireCaseReference(db, rawCaseReference);
      const conditions = rows.map((row) => conditionOf(row.type, row.value));
      const query = queryKey(conditions);
      const where = and(...conditions.map(predicate))!;

      const previous = await paidRun(user.id, query);
      let lookupId: string;
      let credits: number;
      let charged = 0;
      if (previous) {
        const [row] = await db
          .insert(lookups)
          .values({
            userId: user.id,
            kind: 'leak',
            query,
            cost: 0,
            status: 'complete',
            cacheOf: previous.id,
            ip: client.ip,
            deviceId: client.deviceId ?? null,
            caseReference,
            createdAt: now(),
            completedAt: now(),
          })
          .returning({ id: lookups.id });
        lookupId = row!.id;
        credits = await balanceOf(user.id);
      } else {
        const paid = await chargeForLookup(db, {
          userId: user.id,
          cost: deps.cost,
          kind: 'leak',
          query,
          ip: client.ip,
          deviceId: client.deviceId ?? null,
          caseReference,
          at: now(),
        });
        if (!paid) {
          const balance = await balanceOf(user.id);
          await recordAudit(db, {
            action: 'lookup.leak',
            outcome: 'denied',
            user,
            client,
            target: query,
            cost: 0,
            caseReference,
            details: { reason: 'insufficient_credits', balance, price: deps.cost },
          });
          throw insufficientCredits(balance);
        }
        ({ lookupId, credits } = paid);
        charged = deps.cost;
      }

      try {
        const counted = rowsOf<{ n: number | string }>(
          await db.execute(
            sql`select count(*) as n from (select 1 from ${leakRecords} where ${where} limit ${LEAK_TOTAL_CAP + 1}) capped`,
          ),
        );
        const matches = Number(counted[0]?.n ?? 0);
        const total = Math.min(matches, LEAK_TOTAL_CAP);
        const lastPage = Math.max(1, Math.ceil(total / perPage));
        if (page > lastPage) {
          const after = charged ? await refund(user.id, lookupId, charged) : null;
          await recordAudit(db, {
            action: 'lookup.leak',
            outcome: 'failure',
            user,
            client,
            target: query,
            cost: 0,
            caseReference,
            details: { page, per_page: perPage, total, lookup_id: lookupId, reason: 'page_out_of_range' },
          });
          throw new AppError(422, 'page_out_of_range', messages.leaks.pastLastPage(lastPage), {
            errors: { page: [messages.leaks.pastLastPage(lastPage)] },
            credits: after ?? credits,
          });
        }
        // The page comes from the capped set of matches, found through the shape's own index and then
        // sorted: ORDER BY id over the whole table would walk the id index and filter, which is slow
        // for rare combinations (the planner cannot know how rare).
        const pageIds = db
          .select({ id: sql<number>`m.id`.as('page_id') })
          .from(
            db
              .select({ id: leakRecords.id })
              .from(leakRecords)
              .where(where)
              .limit(LEAK_TOTAL_CAP + 1)
              .as('m'),
          )
          .orderBy(sql`m.id`)
          .limit(perPage)
          .offset((page - 1) * perPage);
        const records = await db
          .select({
            id: leakRecords.id,
            name: leakRecords.name,
            email: leakRecords.email,
            phone: leakRecords.phone,
            username: leakRecords.username,
            address: leakRecords.address,
            other: leakRecords.other,
            email_norm: leakRecords.emailNorm,
            phone_norm: leakRecords.phoneNorm,
            username_norm: leakRecords.usernameNorm,
            name_tokens: leakRecords.nameTokens,
            sourceName: leakSources.name,
            breachDate: leakSources.breachDate,
            description: leakSources.description,
            sandbox: leakSources.sandbox,
          })
          .from(leakRecords)
          .innerJoin(leakSources, eq(leakSources.id, leakRecords.sourceId))
          .where(and(sql`${leakRecords.id} in (${pageIds})`, where))
          .orderBy(leakRecords.id);

        const data: LeakRecord[] = records.map((r) => ({
          id: String(r.id),
          source: {
            name: r.sourceName,
            breach_date: r.breachDate ?? null,
            description: r.description ?? null,
          },
          name: r.name,
          email: r.email,
          phone: r.phone,
          username: r.username,
          address: r.address,
          other: r.other ?? {},
          matched: matchedTypes(r, conditions),
        }));
        const sandbox = records.some((r) => r.sandbox);

        if (charged) {
          await db
            .update(lookups)
            .set({
              status: 'complete',
              sourcesAnswered: ['leaks'],
              // The page the user paid for, as they saw it: history reopens it (and the retention
              // purge removes it with every other stored result). Pages viewed later from the cache
              // are free and not kept again.
              result: {
                total,
                total_capped: matches > LEAK_TOTAL_CAP,
                page,
                per_page: perPage,
                sandbox,
                data,
              },
              sandbox,
              completedAt: now(),
            })
            // A lookup the recovery sweep already refunded stays refunded (lookup/recovery.ts).
            .where(and(eq(lookups.id, lookupId), eq(lookups.status, 'pending')));
        }
        await recordAudit(db, {
          action: 'lookup.leak',
          outcome: 'success',
          user,
          client,
          target: query,
          cost: charged,
          caseReference,
          details: { page, per_page: perPage, total, lookup_id: lookupId, cached: Boolean(previous) },
        });

        return {
          data,
          total,
          total_capped: matches > LEAK_TOTAL_CAP,
          page,
          per_page: perPage,
          credits,
          cached: Boolean(previous),
          lookup_id: lookupId,
          sandbox,
        };
      } catch (error) {
        if (error instanceof AppError) throw error;
        // The search itself failed: give the credit back before reporting it.
        if (charged) await refund(user.id, lookupId, charged);
        await recordAudit(db, {
          action: 'lookup.leak',
          outcome: 'failure',
          user,
          client,
          target: query,
          cost: 0,
          caseReference,
          details: { lookup_id: lookupId, reason: 'search_failed', refunded: charged },
        }).catch(() => {});
        throw error;
      }
    },
  };
}

export type LeakService = ReturnType<typeof createLeakService>;
