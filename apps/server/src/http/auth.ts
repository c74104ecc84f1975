import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import type { Database } from '../db/client.ts';
import { authTokens, passkeys, type UserRow, users, userTotp } from '../db/schema.ts';
import { sha256 } from '../security/crypto.ts';
import { bearerOf } from './context.ts';
import { forbidden, secondFactorSetupRequired, unauthenticated } from './errors.ts';
import { type Session, sessionCacheOf } from './session-cache.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the `authenticate` guard; routes behind it can rely on it. */
    user: UserRow | null;
    tokenId: string | null;
    /** The deployment requires a second factor and this account has none yet (set by `authenticate`). */
    secondFactorSetupRequired: boolean;
  }
  interface FastifyContextConfig {
    /** The route stays open to an account that must still set up a second factor (the Security page). */
    allowWithoutSecondFactor?: boolean;
    /**
     * The route reads the account from the database on every request, never from the session cache
     * (http/session-cache.ts): it shows the balance, or changes the account or its sessions.
     */
    freshSession?: boolean;
  }
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
) {
  const tokenLookup = prepareTokenLookup(db);
  const cache = sessionCacheOf(db);
  app.decorateRequest('user', null);
  app.decorateRequest('tokenId', null);
  app.decorateRequest('secondFactorSetupRequired', false);

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

  const authenticate: preHandlerAsyncHookHandler = async (request: FastifyRequest) => {
    const token = bearerOf(request);
    if (!token) throw unauthenticated();
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
