import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import type { Database } from '../db/client.ts';
import { authTokens, type UserRow, users } from '../db/schema.ts';
import { sha256 } from '../security/crypto.ts';
import { bearerOf } from './context.ts';
import { forbidden, unauthenticated } from './errors.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the `authenticate` guard; routes behind it can rely on it. */
    user: UserRow | null;
    tokenId: string | null;
  }
}

/**
 * Resolves a bearer token to its active user, or nothing. Expired, revoked and disabled all fail.
 * Prepared once per database: every authenticated request runs it.
 */
function prepareTokenLookup(db: Database) {
  return db
    .select({ user: users, tokenId: authTokens.id, lastUsedAt: authTokens.lastUsedAt })
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

export function registerAuth(app: FastifyInstance, db: Database) {
  const tokenLookup = prepareTokenLookup(db);
  app.decorateRequest('user', null);
  app.decorateRequest('tokenId', null);

  const authenticate: preHandlerAsyncHookHandler = async (request: FastifyRequest) => {
    const token = bearerOf(request);
    if (!token) throw unauthenticated();
    const [found] = await tokenLookup.execute({ hash: sha256(token) });
    if (!found) throw unauthenticated();
    request.user = found.user;
    request.tokenId = found.tokenId;
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
