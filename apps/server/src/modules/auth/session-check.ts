import { and, eq, gt, isNull, type SQL, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { authTokens, users } from '../../db/schema.ts';
import { type Session, sessionCacheOf } from '../../http/session-cache.ts';
import { hasSecondFactor } from './factors.ts';

/**
 * Resolves a bearer token to its active user, or nothing. Expired, revoked and disabled all fail.
 * Prepared once per database: every authenticated request runs it.
 */
function prepareTokenLookup(db: Database, byHash: SQL, name: string) {
  return db
    .select({
      user: users,
      tokenId: authTokens.id,
      tokenHash: authTokens.tokenHash,
      lastUsedAt: authTokens.lastUsedAt,
      expiresAt: authTokens.expiresAt,
      hasSecondFactor: hasSecondFactor(users.id),
    })
    .from(authTokens)
    .innerJoin(users, eq(users.id, authTokens.userId))
    .where(
      and(
        byHash,
        isNull(authTokens.revokedAt),
        gt(authTokens.expiresAt, sql`now()`),
        eq(users.status, 'active'),
      ),
    )
    .prepare(name);
}

/** A token's last use is written at most once a minute: a write per request would cost more than it tells. */
const TOUCH_AFTER_MS = 60_000;
/** How often the tokens used since are written, all in one statement (its own commit, not a request's). */
export const TOUCH_FLUSH_MS = 1000;

/**
 * The session behind a token hash, for the `authenticate` guard (http/auth.ts, given it by app.ts):
 * from the cache when it was checked less than SESSION_CACHE_MS ago (so a revocation elsewhere takes
 * effect within that time), else from the database; `fresh` skips the cache. `secondFactorRequired`
 * says whether the deployment requires a second factor (the settings module answers it, cached).
 */
export function createSessionCheck(db: Database, secondFactorRequired: () => Promise<boolean>) {
  const tokenLookup = prepareTokenLookup(
    db,
    eq(authTokens.tokenHash, sql.placeholder('hash')),
    'footprint_token_lookup',
  );
  // Every session in use, checked again in one statement (SessionCache.keepFresh): one fixed text,
  // the hashes as one array parameter, so it is prepared once per connection whatever their number.
  const tokensLookup = prepareTokenLookup(
    db,
    sql`${authTokens.tokenHash} = any(${sql.placeholder('hashes')}::text[])`,
    'footprint_tokens_lookup',
  );
  const cache = sessionCacheOf(db);

  /** Tokens whose last use is to be written, by the next flush. */
  const touches = new Set<string>();
  const touch = (found: Session) => {
    if (found.lastUsedAt && Date.now() - found.lastUsedAt.getTime() <= TOUCH_AFTER_MS) return;
    found.lastUsedAt = new Date();
    touches.add(found.tokenId);
  };
  const flush = setInterval(() => {
    if (touches.size === 0) return;
    const ids = [...touches];
    touches.clear();
    // Other processes may have written it meanwhile: the condition keeps it at once a minute.
    void db
      .execute(sql`update ${authTokens} set last_used_at = now()
        where id = any(${sql.param(ids)}::uuid[]) and (last_used_at is null or last_used_at < now() - interval '1 minute')`)
      .catch(() => {});
  }, TOUCH_FLUSH_MS);
  flush.unref();

  cache.keepFresh(async (hashes) => {
    const found = await tokensLookup.execute({ hashes });
    const required = found.some((row) => !row.hasSecondFactor) && (await secondFactorRequired());
    const sessions = new Map<string, Session>();
    for (const { tokenHash, ...session } of found) {
      touch(session);
      // As in sessionOf: an account that must still set up a second factor is not kept.
      if (session.hasSecondFactor || !required) sessions.set(tokenHash, session);
    }
    return sessions;
  });

  return async function sessionOf(hash: string, fresh: boolean): Promise<Session | undefined> {
    if (!fresh) {
      const cached = cache.get(hash);
      if (cached) return cached;
    }
    const ticket = cache.ticket();
    const [row] = await tokenLookup.execute({ hash });
    if (!row) return undefined;
    const { tokenHash: _, ...found } = row;
    touch(found);
    // An account that must still set up a second factor is not kept: once it has one, the next
    // request sees it.
    if (found.hasSecondFactor || !(await secondFactorRequired())) cache.set(hash, found, ticket);
    return found;
  };
}

export type SessionCheck = ReturnType<typeof createSessionCheck>;
