import type { PasskeySummary } from '@footprint/domain';
import {
  type AuthenticationResponseJSON,
  generateAuthenticationOptions,
  generateRegistrationOptions,
  type RegistrationResponseJSON,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from '@simplewebauthn/server';
import { and, asc, eq } from 'drizzle-orm';
import { own } from '../../access/policy.ts';
import type { Executor } from '../../db/client.ts';
import { passkeys } from '../../db/schema.ts';
import { passkeyWrongHost } from '../../errors.ts';
import { type AuthDeps, clockOf } from './types.ts';

type PasskeyRow = typeof passkeys.$inferSelect;

export const presentPasskey = (row: PasskeyRow): PasskeySummary => ({
  id: row.id,
  name: row.name,
  created_at: row.createdAt.toISOString(),
  last_used_at: row.lastUsedAt?.toISOString() ?? null,
});

/**
 * WebAuthn passkeys as a second factor (@simplewebauthn/server). The relying party is APP_URL: its
 * host name is the RP ID and its origin the only origin accepted. The challenge of each ceremony is
 * kept by the caller (a second_factor_challenges row) and checked once.
 */
export function createPasskeys(deps: Pick<AuthDeps, 'db' | 'config' | 'now'>) {
  const { db, config } = deps;
  const now = clockOf(deps);
  const appUrl = new URL(config.appUrl);
  const rpID = appUrl.hostname;
  const origin = appUrl.origin;

  const ofUser = (userId: string) =>
    db.select().from(passkeys).where(own(passkeys, userId)).orderBy(asc(passkeys.createdAt));

  return {
    rpID,
    origin,
    ofUser,

    /**
     * Refuses a ceremony asked for by a page open at another origin than APP_URL's (the request's
     * Origin header, which browsers send with every POST): 127.0.0.1 for localhost above all, where
     * the browser's own refusal would say nothing about why. Calls without an Origin (scripts) pass.
     */
    assertOrigin(requestOrigin: string | undefined) {
      if (!requestOrigin || requestOrigin === origin) return;
      let openedAt = requestOrigin;
      try {
        openedAt = new URL(requestOrigin).host;
      } catch {}
      throw passkeyWrongHost(origin, openedAt.slice(0, 200));
    },

    async registrationOptions(user: { id: string; email: string; name: string }) {
      const existing = await ofUser(user.id);
      return generateRegistrationOptions({
        rpName: 'Footprint',
        rpID,
        userName: user.email,
        userDisplayName: user.name,
        userID: new TextEncoder().encode(user.id),
        attestationType: 'none',
        excludeCredentials: existing.map((row) => ({
          id: row.credentialId,
          transports: row.transports ?? [],
        })),
        authenticatorSelection: { residentKey: 'preferred', userVerification: 'preferred' },
      });
    },

    /** Verifies a registration against the challenge issued; the new credential, or undefined. */
    async verifyRegistration(response: unknown, expectedChallenge: string) {
      try {
        const result = await verifyRegistrationResponse({
          response: response as RegistrationResponseJSON,
          expectedChallenge,
          expectedOrigin: origin,
          expectedRPID: rpID,
          requireUserVerification: false,
        });
        return result.verified ? result.registrationInfo.credential : undefined;
      } catch {
        return undefined;
      }
    },

    async save(
      executor: Executor,
      userId: string,
      name: string,
      credential: { id: string; publicKey: Uint8Array; counter: number; transports?: string[] | undefined },
    ): Promise<PasskeyRow | undefined> {
      const [row] = await executor
        .insert(passkeys)
        .values({
          userId,
          credentialId: credential.id,
          publicKey: Buffer.from(credential.publicKey).toString('base64url'),
          counter: credential.counter,
          transports: credential.transports ?? null,
          name,
          createdAt: now(),
        })
        .onConflictDoNothing()
        .returning();
      return row;
    },

    async authenticationOptions(userId: string) {
      const rows = await ofUser(userId);
      return generateAuthenticationOptions({
        rpID,
        allowCredentials: rows.map((row) => ({ id: row.credentialId, transports: row.transports ?? [] })),
        userVerification: 'preferred',
      });
    },

    /**
     * Verifies an assertion by one of the account's passkeys against the challenge issued, and moves
     * its signature counter on. The passkey used, or undefined.
     */
    async verifyAuthentication(userId: string, response: unknown, expectedChallenge: string) {
      const assertion = response as AuthenticationResponseJSON;
      const [row] = await db
        .select()
        .from(passkeys)
        .where(and(own(passkeys, userId), eq(passkeys.credentialId, String(assertion.id))));
      if (!row) return undefined;
      try {
        const result = await verifyAuthenticationResponse({
          response: assertion,
          expectedChallenge,
          expectedOrigin: origin,
          expectedRPID: rpID,
          requireUserVerification: false,
          credential: {
            id: row.credentialId,
            publicKey: new Uint8Array(Buffer.from(row.publicKey, 'base64url')),
            counter: row.counter,
            transports: row.transports ?? [],
          },
        });
        if (!result.verified) return undefined;
        await db
          .update(passkeys)
          .set({ counter: result.authenticationInfo.newCounter, lastUsedAt: now() })
          .where(eq(passkeys.id, row.id));
        return row;
      } catch {
        return undefined;
      }
    },

    async rename(userId: string, id: string, name: string) {
      const [row] = await db
        .update(passkeys)
        .set({ name })
        .where(and(own(passkeys, userId), eq(passkeys.id, id)))
        .returning();
      return row;
    },

    async remove(executor: Executor, userId: string, id: string) {
      const [row] = await executor
        .delete(passkeys)
        .where(and(own(passkeys, userId), eq(passkeys.id, id)))
        .returning();
      return row;
    },
  };
}

export type Passkeys = ReturnType<typeof createPasskeys>;
