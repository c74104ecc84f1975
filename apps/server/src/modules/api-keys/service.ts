import {
  API_KEY_MAX_EXPIRY_YEARS,
  API_KEY_PREFIX,
  type ApiKeyCreated,
  type ApiKeyCreateRequest,
  type ApiKeyScope,
  type ApiKeySummary,
  apiKeyExpiryOf,
  latestApiKeyExpiry,
  MAX_API_KEYS,
  messages,
} from '@footprint/domain';
import { and, desc, eq, gt, gte, inArray, isNull, or, sql } from 'drizzle-orm';
import { own } from '../../access/policy.ts';
import type { Database, Executor } from '../../db/client.ts';
import { apiKeys, creditEntries, lookups, type UserRow, users } from '../../db/schema.ts';
import { notFound, tooManyApiKeys, validationError } from '../../errors.ts';
import type { ClientContext } from '../../http/context.ts';
import { randomToken, sha256 } from '../../security/crypto.ts';
import { recordAudit } from '../audit/service.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Characters of the key kept in the clear for the list: `fp_` and four of the secret. */
const PREFIX_LENGTH = API_KEY_PREFIX.length + 4;

/** The first instant of the calendar month (UTC) of `at`: a key's cap counts from here. */
export const monthStartOf = (at: Date): Date => new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1));

/**
 * A lookups row whose charge stands: not refunded, nor a "no record" whose charge came back (every
 * kind's, by the charging rule; the ledger's refund row is the proof, as history reads it).
 */
const chargeStands = sql`not (${lookups.status} = 'refunded' or (${lookups.status} = 'no_record' and exists (
  select 1 from ${creditEntries} where ${creditEntries.lookupId} = ${lookups.id} and ${creditEntries.kind} = 'refund')))`;

/**
 * Credits a key's searches spent since `since`: its charged lookups rows, refunds excluded (a refunded
 * row, or a refunded "no record", gave its charge back). Free repeats are rows of cost 0.
 */
export async function keySpendSince(db: Executor, keyId: string, since: Date): Promise<number> {
  const [row] = await db
    .select({ spent: sql<string>`coalesce(sum(${lookups.cost}), 0)` })
    .from(lookups)
    .where(and(eq(lookups.apiKeyId, keyId), gte(lookups.createdAt, since), chargeStands));
  return Number(row?.spent ?? 0);
}

type KeyRow = typeof apiKeys.$inferSelect;

const iso = (value: Date | null) => (value ? value.toISOString() : null);

function present(row: KeyRow, creditsThisMonth: number): ApiKeySummary {
  return {
    id: row.id,
    name: row.name,
    scopes: row.scopes as ApiKeyScope[],
    prefix: `${row.prefix}…`,
    created_at: row.createdAt.toISOString(),
    last_used_at: iso(row.lastUsedAt),
    expires_at: iso(row.expiresAt),
    revoked_at: iso(row.revokedAt),
    monthly_credit_cap: row.monthlyCreditCap,
    credits_this_month: creditsThisMonth,
  };
}

/**
 * A user's API keys (docs/api.md): made, listed and revoked from a signed-in session (the routes refuse
 * keys), each change written to the audit trail. The key is answered once; only its SHA-256 is kept,
 * as for session tokens. The same module checks keys for the guard (access.ts) and enforces their
 * monthly cap for the paid search (spending.ts).
 */
export function createApiKeyService(deps: { db: Database; now?: () => Date }) {
  const { db } = deps;
  const now = deps.now ?? (() => new Date());

  /** Keys that still work: not revoked, not expired. */
  const active = (at: Date) =>
    and(isNull(apiKeys.revokedAt), or(isNull(apiKeys.expiresAt), gt(apiKeys.expiresAt, at)));

  return {
    async list(user: UserRow): Promise<ApiKeySummary[]> {
      const rows = await db
        .select()
        .from(apiKeys)
        .where(own(apiKeys, user.id))
        .orderBy(desc(apiKeys.createdAt), desc(apiKeys.id));
      if (rows.length === 0) return [];
      const spent = await db
        .select({ keyId: lookups.apiKeyId, spent: sql<string>`coalesce(sum(${lookups.cost}), 0)` })
        .from(lookups)
        .where(
          and(
            inArray(
              lookups.apiKeyId,
              rows.map((row) => row.id),
            ),
            gte(lookups.createdAt, monthStartOf(now())),
            chargeStands,
          ),
        )
        .groupBy(lookups.apiKeyId);
      const spentBy = new Map(spent.map((row) => [row.keyId, Number(row.spent)]));
      return rows.map((row) => present(row, spentBy.get(row.id) ?? 0));
    },

    async create(user: UserRow, input: ApiKeyCreateRequest, client: ClientContext): Promise<ApiKeyCreated> {
      const at = now();
      const expiresAt = input.expires_at ? (apiKeyExpiryOf(input.expires_at) ?? null) : null;
      if (expiresAt && expiresAt.getTime() <= at.getTime()) {
        throw validationError({ expires_at: [messages.apiKeys.expiryInPast] });
      }
      if (expiresAt && expiresAt.getTime() > latestApiKeyExpiry(at).getTime()) {
        throw validationError({ expires_at: [messages.apiKeys.expiryTooFar(API_KEY_MAX_EXPIRY_YEARS)] });
      }
      const key = `${API_KEY_PREFIX}${randomToken(32)}`;
      const scopes = [...new Set(input.scopes)] as ApiKeyScope[];
      const row = await db.transaction(async (tx) => {
        // One creation at a time per account, so two at once cannot both pass the count.
        await tx.select({ id: users.id }).from(users).where(eq(users.id, user.id)).for('update');
        const [count] = await tx
          .select({ n: sql<string>`count(*)` })
          .from(apiKeys)
          .where(and(own(apiKeys, user.id), active(at)));
        if (Number(count?.n ?? 0) >= MAX_API_KEYS) throw tooManyApiKeys(MAX_API_KEYS);
        const [created] = await tx
          .insert(apiKeys)
          .values({
            userId: user.id,
            name: input.name.trim(),
            keyHash: sha256(key),
            prefix: key.slice(0, PREFIX_LENGTH),
            scopes,
            monthlyCreditCap: input.monthly_credit_cap ?? null,
            createdAt: at,
            expiresAt,
          })
          .returning();
        if (!created) throw new Error('api key insert failed');
        await recordAudit(tx, {
          action: 'api_key.create',
          outcome: 'success',
          user,
          client,
          target: created.id,
          details: {
            api_key_id: created.id,
            api_key_name: created.name,
            scopes,
            expires_at: iso(expiresAt),
            monthly_credit_cap: created.monthlyCreditCap,
          },
        });
        return created;
      });
      return { ...present(row, 0), key };
    },

    /** Revokes one of the user's keys; another user's id, or no such key, is a 404. Revoking twice is fine. */
    async revoke(user: UserRow, id: string, client: ClientContext): Promise<ApiKeySummary> {
      if (!UUID.test(id)) throw notFound(messages.errors.notFound);
      const at = now();
      const row = await db.transaction(async (tx) => {
        const [mine] = await tx
          .select()
          .from(apiKeys)
          .where(and(eq(apiKeys.id, id), own(apiKeys, user.id)))
          .for('update');
        if (!mine) return undefined;
        if (mine.revokedAt) return mine;
        const [revoked] = await tx
          .update(apiKeys)
          .set({ revokedAt: at })
          .where(eq(apiKeys.id, id))
          .returning();
        await recordAudit(tx, {
          action: 'api_key.revoke',
          outcome: 'success',
          user,
          client,
          target: id,
          details: { api_key_id: id, api_key_name: mine.name },
        });
        return revoked;
      });
      if (!row) throw notFound(messages.errors.notFound);
      return present(row, await keySpendSince(db, row.id, monthStartOf(at)));
    },
  };
}

export type ApiKeyService = ReturnType<typeof createApiKeyService>;
