import { API_KEY_PREFIX, type ApiKeyScope, messages } from '@footprint/domain';
import { and, eq, gt, isNull, or, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import type { Database } from '../db/client.ts';
import { apiKeys, authTokens, passkeys, type UserRow, users, userTotp } from '../db/schema.ts';
import { forbidden, secondFactorSetupRequired, tooManyRequests, unauthenticated } from '../errors.ts';
import { sha256 } from '../security/crypto.ts';
import { RateLimitedError, type RateLimits } from '../security/rate-limit.ts';
import { type ApiKeyActor, bearerOf } from './context.ts';
import { type Session, sessionCacheOf } from './session-cache.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the `authenticate` guard; routes behind it can rely on it. */
    user: UserRow | null;
    tokenId: string | null;
    /** The deployment requires a second factor and this account has none yet (set by `authenticate`). */
    secondFactorSetupRequired: boolean;
    /** The API key the request was authenticated with; null for a session (set by `authenticate`). */
    apiKey: ApiKeyActor | null;
  }
  interface FastifyContextConfig {
    /** The route stays open to an account that must still set up a second factor (the Security page). */
    allowWithoutSecondFactor?: boolean;
    /**
     * The route reads the account from the database on every request, never from the session cache
     * (http/session-cache.ts): it shows the balance, or changes the account or its sessions.
     */
    freshSession?: boolean;
    /**
     * The API-key scope the route belongs to (docs/api.md): an `fp_` key with this scope may call it.
     * A route without one answers any API key 403: account, security, sessions, admin and the keys
     * themselves are for a signed-in person only.
     */
    scope?: ApiKeyScope;
  }
}

/**
 * A route's options that let API keys with `scope` call it, e.g.
 * `api.post('/api/bulk', { preHandler, ...apiKeyScope('bulk'), schema }, …)`. Spread it before any
 * `config` of the route's own, or merge the two.
 */
export const apiKeyScope = (scope: ApiKeyScope) => ({ config: { scope } });

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
      hasSecondFactor: sql<boolean>`(exists (select 1 from ${userTotp} where ${userTotp.userId} = ${users.id} and ${userTotp.confirmedAt} is not null) or exists (select 1 from ${passkeys} where ${passkeys.userId} = ${users.id}))`,
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
 * Resolves a bearer token to its active user, or nothing. Expired, revoked and disabled all fail.
 * Prepared once per database: every authenticated request runs it.
 */
function prepareTokenLookup(db: Database) {
  return db
    .select({
      user: users,
      tokenId: authTokens.id,
      lastUsedAt: authTokens.lastUsedAt,
      expiresAt: authTokens.expiresAt,
      hasSecondFactor: sql<boolean>`(exists (select 1 from ${userTotp} where ${userTotp.userId} = ${users.id} and ${userTotp.confirmedAt} is not null) or exists (select 1 from ${passkeys} where ${passkeys.userId} = ${users.id}))`,
    })
    .from(authTokens)
    .innerJoin(users, eq(users.id, authTokens.userId))
    .where(
      and(
        eq(authTokens.tokenHash, sql.placeholder('hash')),
        isNull(authTokens.revokedAt),
        gt(authTokens.expiresAt, sql`now()`),
        eq(users.status, 'active'),
      ),
    )
    .prepare('footprint_token_lookup');
}

/**
 * `secondFactorRequired` says whether the deployment requires a second factor (the settings module
 * answers it, cached); an account without one then reaches only the routes marked
 * `allowWithoutSecondFactor`.
 */
export function registerAuth(
  app: FastifyInstance,
  db: Database,
  secondFactorRequired: () => Promise<boolean> = async () => false,
  limits?: RateLimits,
) {
  const tokenLookup = prepareTokenLookup(db);
  const keyLookup = prepareKeyLookup(db);
  const cache = sessionCacheOf(db);
  app.decorateRequest('user', null);
  app.decorateRequest('tokenId', null);
  app.decorateRequest('secondFactorSetupRequired', false);
  app.decorateRequest('apiKey', null);

  /**
   * The session behind a token hash: from the cache when it was checked less than SESSION_CACHE_MS
   * ago (so a revocation elsewhere takes effect within that time), else from the database.
   */
  async function sessionOf(hash: string, fresh: boolean): Promise<Session | undefined> {
    if (!fresh) {
      const cached = cache.get(hash);
      if (cached) return cached;
    }
    const ticket = cache.ticket();
    const [found] = await tokenLookup.execute({ hash });
    if (!found) return undefined;
    // Touch at most once a minute: a write per request would cost more than it tells.
    if (!found.lastUsedAt || Date.now() - found.lastUsedAt.getTime() > 60_000) {
      found.lastUsedAt = new Date();
      await db
        .update(authTokens)
        .set({ lastUsedAt: found.lastUsedAt })
        .where(eq(authTokens.id, found.tokenId));
    }
    // An account that must still set up a second factor is not kept: once it has one, the next
    // request sees it.
    if (found.hasSecondFactor || !(await secondFactorRequired())) cache.set(hash, found, ticket);
    return found;
  }

  /**
   * An `fp_` bearer that is an active key: the route must declare a scope the key holds (403 otherwise),
   * and the key's own rate limit must have room (429). Answers false when no key has this hash, so
   * that a session token that happens to start with `fp_` is still looked up as one.
   */
  async function authenticateKey(request: FastifyRequest, token: string): Promise<boolean> {
    const [found] = await keyLookup.execute({ hash: sha256(token) });
    if (!found) return false;
    const scope = request.routeOptions.config.scope;
    if (!scope) throw forbidden(messages.apiKeys.routeNotForKeys);
    if (!found.scopes.includes(scope)) throw forbidden(messages.apiKeys.missingScope(scope));
    try {
      await limits?.consume('apiKeyRequests', found.keyId);
    } catch (error) {
      if (!(error instanceof RateLimitedError)) throw error;
      const seconds = error.retryAfterSeconds;
      throw tooManyRequests(seconds, messages.apiKeys.rateLimited(seconds));
    }
    if (!found.hasSecondFactor && (await secondFactorRequired())) throw secondFactorSetupRequired();
    // Touch at most once a minute, as sessions do.
    if (!found.lastUsedAt || Date.now() - found.lastUsedAt.getTime() > 60_000) {
      await db.update(apiKeys).set({ lastUsedAt: new Date() }).where(eq(apiKeys.id, found.keyId));
    }
    request.user = { ...found.user };
    request.tokenId = null;
    request.apiKey = { id: found.keyId, name: found.name, monthlyCreditCap: found.monthlyCreditCap };
    request.secondFactorSetupRequired = false;
    return true;
  }

  const authenticate: preHandlerAsyncHookHandler = async (request: FastifyRequest) => {
    const token = bearerOf(request);
    if (!token) throw unauthenticated();
    if (token.startsWith(API_KEY_PREFIX) && (await authenticateKey(request, token))) return;
    const config = request.routeOptions.config;
    const found = await sessionOf(sha256(token), config.freshSession === true);
    if (!found) throw unauthenticated();
    // Each request its own copy: a handler may not change what the next one reads.
    request.user = { ...found.user };
    request.tokenId = found.tokenId;
    request.secondFactorSetupRequired = !found.hasSecondFactor && (await secondFactorRequired());
    if (request.secondFactorSetupRequired && !config.allowWithoutSecondFactor) {
      throw secondFactorSetupRequired();
    }
  };

  const requireAdmin: preHandlerAsyncHookHandler = async (request) => {
    if (request.user?.role !== 'admin') throw forbidden();
  };

  const requireLive: preHandlerAsyncHookHandler = async (request) => {
    if (request.user?.appMode !== 'live') throw forbidden('This feature is only available to live accounts.');
  };

  return { authenticate, requireAdmin, requireLive };
}

export type Guards = ReturnType<typeof registerAuth>;
