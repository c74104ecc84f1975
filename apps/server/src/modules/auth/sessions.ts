import { messages, type TokenResponse } from '@footprint/domain';
import { and, eq, isNull } from 'drizzle-orm';
import { apiKeys, authTokens, type UserRow, users } from '../../db/schema.ts';
import { forbidden } from '../../errors.ts';
import type { ClientContext } from '../../http/context.ts';
import { forgetSessions } from '../../http/session-cache.ts';
import { randomToken, sha256 } from '../../security/crypto.ts';
import { type AuditEntry, recordAudit } from '../audit/service.ts';
import { findUserById } from '../users/repository.ts';
import { type AuthDeps, authAudit, clockOf, minutes } from './types.ts';

/** Sessions: bearer tokens, stored only as their SHA-256, issued on sign-in and revoked on logout. */
export function createSessions(deps: Pick<AuthDeps, 'db' | 'config' | 'now'>) {
  const { db, config } = deps;
  const now = clockOf(deps);

  const isApiKey = async (tokenHash: string) =>
    (await db.select({ id: apiKeys.id }).from(apiKeys).where(eq(apiKeys.keyHash, tokenHash)).limit(1))
      .length > 0;

  return {
    /** A new session: the token row, the account's last sign-in time and the audit rows, together. */
    async issueToken(user: UserRow, client: ClientContext, events: AuditEntry[]): Promise<TokenResponse> {
      const token = randomToken();
      const expiresAt = new Date(now().getTime() + minutes(config.auth.tokenTtlMinutes));
      await db.transaction(async (tx) => {
        await tx.insert(authTokens).values({
          userId: user.id,
          tokenHash: sha256(token),
          deviceId: client.deviceId ?? null,
          ip: client.ip,
          userAgent: client.userAgent?.slice(0, 300) ?? null,
          expiresAt,
        });
        await tx.update(users).set({ lastLoginAt: now() }).where(eq(users.id, user.id));
        await recordAudit(tx, events);
      });
      return { token, expires_at: expiresAt.toISOString() };
    },

    async logout(tokenHash: string | undefined, client: ClientContext) {
      if (tokenHash) {
        const [revoked] = await db
          .update(authTokens)
          .set({ revokedAt: now() })
          .where(and(eq(authTokens.tokenHash, tokenHash), isNull(authTokens.revokedAt)))
          .returning({ id: authTokens.id, userId: authTokens.userId });
        if (revoked) forgetSessions(db);
        // An API key is not a session: logging out cannot end it (revoke it instead), as docs/api.md says.
        else if (await isApiKey(tokenHash)) throw forbidden(messages.apiKeys.routeNotForKeys);
        const user = revoked ? await findUserById(db, revoked.userId) : undefined;
        if (user) {
          await recordAudit(
            db,
            authAudit('auth.logout', 'success', { user }, client, { token_id: revoked!.id }),
          );
        }
      }
      return { message: messages.logout.done };
    },
  };
}

export type Sessions = ReturnType<typeof createSessions>;
