import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import type { Database } from '../db/client.ts';
import { authTokens, passkeys, type UserRow, users, userTotp } from '../db/schema.ts';
import { sha256 } from '../security/crypto.ts';
import { bearerOf } from './context.ts';
import { forbidden, secondFactorSetupRequired, unauthenticated } from './errors.ts';

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
  app.decorateRequest('user', null);
  app.decorateRequest('tokenId', null);
  app.decorateRequest('secondFactorSetupRequired', false);

  const authenticate: preHandlerAsyncHookHandler = async (request: FastifyRequest) => {
    const token = bearerOf(request);
    if (!token) throw unauthenticated();
    const [found] = await tokenLookup.execute({ hash: sha256(token) });
    if (!found) throw unauthenticated();
    request.user = found.user;
    request.tokenId = found.tokenId;
    request.secondFactorSetupRequired = !found.hasSecondFactor && (await secondFactorRequired());
    if (request.secondFactorSetupRequired && !request.routeOptions.config.allowWithoutSecondFactor) {
      throw secondFactorSetupRequired();
    }
    // Touch at most once a minute: a write per request would cost more than it tells.
    if (!found.lastUsedAt || Date.now() - found.lastUsedAt.getTime() > 60_000) {
      await db.update(authTokens).set({ lastUsedAt: new Date() }).where(eq(authTokens.id, found.tokenId));
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
