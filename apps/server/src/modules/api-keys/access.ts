import { type ApiKeyScope, messages } from '@footprint/domain';
import { and, eq, gt, isNull, or, sql } from 'drizzle-orm';
import { keyMayCall } from '../../access/policy.ts';
import type { Database } from '../../db/client.ts';
import { apiKeys, users } from '../../db/schema.ts';
import { forbidden, secondFactorSetupRequired } from '../../errors.ts';
import type { KeyAdmission } from '../../http/auth.ts';
import { sha256 } from '../../security/crypto.ts';
import { type Quota, RateLimitedError, type RateLimits } from '../../security/rate-limit.ts';
import { hasSecondFactor } from '../auth/factors.ts';

/**
 * Resolves an API key to its active user, or nothing: revoked, expired, a disabled account or one no
 * longer live all fail. Prepared once per database; keys are not cached, so a revocation is immediate.
 */
function prepareKeyLookup(db: Database) {
  return db
    .select({
      user: users,
      keyId: apiKeys.id,
      name: apiKeys.name,
      scopes: apiKeys.scopes,
      monthlyCreditCap: apiKeys.monthlyCreditCap,
      lastUsedAt: apiKeys.lastUsedAt,
      hasSecondFactor: hasSecondFactor(users.id),
    })
    .from(apiKeys)
    .innerJoin(users, eq(users.id, apiKeys.userId))
    .where(
      and(
        eq(apiKeys.keyHash, sql.placeholder('hash')),
        isNull(apiKeys.revokedAt),
        or(isNull(apiKeys.expiresAt), gt(apiKeys.expiresAt, sql`now()`)),
        eq(users.status, 'active'),
        eq(users.appMode, 'live'),
      ),
    )
    .prepare('footprint_api_key_lookup');
}

/**
 * The API-key check of the `authenticate` guard (http/auth.ts is given `admit` by app.ts, as `admitKey`): a key is
 * found by its SHA-256 with its account, must hold the route's scope, spends its own per-minute
 * limit (`apiKeyRequests`, API_KEY_RATE_LIMIT) and is marked used at most once a minute.
 */
export function createKeyAccess(deps: {
  db: Database;
  limits?: RateLimits | undefined;
  /** Whether the deployment requires a second factor (the settings module answers it, cached). */
  secondFactorRequired: () => Promise<boolean>;
}) {
  const { db, limits } = deps;
  const keyLookup = prepareKeyLookup(db);

  return {
    /**
     * The key behind an `fp_` bearer, let through to a route of `scope`; null when no key has this
     * hash (a session token that happens to start with `fp_` is then looked up as one). A route
     * without a scope, or one the key lacks, is a 403; a spent limit a RateLimitedError carrying the
     * key's quota (a 429 with Retry-After).
     */
    async admit(token: string, scope: ApiKeyScope | undefined): Promise<KeyAdmission | null> {
      const [found] = await keyLookup.execute({ hash: sha256(token) });
      if (!found) return null;
      if (!scope) throw forbidden(messages.apiKeys.routeNotForKeys);
      if (!keyMayCall(found, scope)) throw forbidden(messages.apiKeys.missingScope(scope));
      let quota: Quota | undefined;
      try {
        quota = await limits?.consume('apiKeyRequests', found.keyId);
      } catch (error) {
        if (!(error instanceof RateLimitedError)) throw error;
        const seconds = error.retryAfterSeconds;
        throw new RateLimitedError(seconds, messages.apiKeys.rateLimited(seconds), error.quota);
      }
      if (!found.hasSecondFactor && (await deps.secondFactorRequired())) throw secondFactorSetupRequired();
      // Touch at most once a minute, as sessions do.
      if (!found.lastUsedAt || Date.now() - found.lastUsedAt.getTime() > 60_000) {
        await db.update(apiKeys).set({ lastUsedAt: new Date() }).where(eq(apiKeys.id, found.keyId));
      }
      return {
        user: { ...found.user },
        key: { id: found.keyId, name: found.name, monthlyCreditCap: found.monthlyCreditCap },
        quota,
      };
    },
  };
}

export type KeyAccess = ReturnType<typeof createKeyAccess>;
