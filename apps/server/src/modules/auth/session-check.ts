import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { authTokens, users } from '../../db/schema.ts';
import { type Session, sessionCacheOf } from '../../http/session-cache.ts';
import { hasSecondFactor } from './factors.ts';

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
      hasSecondFactor: hasSecondFactor(users.id),
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
 * The session behind a token hash, for the `authenticate` guard (http/auth.ts, given it by app.ts):
 * from the cache when it was checked less than SESSION_CACHE_MS ago (so a revocation elsewhere takes
 * effect within that time), else from the database; `fresh` skips the cache. `secondFactorRequired`
 * says whether the deployment requires a second factor (the settings module answers it, cached).
 */
export function createSessionCheck(db: Database, secondFactorRequired: () => Promise<boolean>) {
  const tokenLookup = prepareTokenLookup(db);
  const cache = sessionCacheOf(db);

  return async function sessionOf(hash: string, fresh: boolean): Promise<Session | undefined> {
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
  };
}

export type SessionCheck = ReturnType<typeof createSessionCheck>;
