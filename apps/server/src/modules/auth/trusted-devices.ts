import { TRUSTED_DEVICE_DAYS, type TrustedDeviceSummary } from '@footprint/domain';
import { and, asc, eq, gt } from 'drizzle-orm';
import { own } from '../../access/policy.ts';
import type { Executor } from '../../db/client.ts';
import { trustedDevices } from '../../db/schema.ts';
import type { ClientContext } from '../../http/context.ts';
import { hmac, randomToken, sha256 } from '../../security/crypto.ts';
import { type AuthDeps, clockOf } from './types.ts';

/** The cookie that proves a trusted device: what the route sets on the answer. */
export interface DeviceCookie {
  name: string;
  value: string;
  maxAgeSeconds: number;
}

/** Where the browser sends the cookie back: only the sign-in calls ever read it. */
export const DEVICE_COOKIE_PATH = '/api/login';

const DAY_MS = 86_400_000;

/**
 * Trusted devices, proven by a secret the server issued. When a browser proves a mailed code or a
 * second factor, the server makes a random 256-bit secret, keeps its SHA-256 beside the device id
 * and hands the secret to the browser in an HttpOnly, SameSite=Strict cookie scoped to /api/login.
 * A later sign-in from that browser skips the mailed code only if the cookie's secret matches a live
 * row of that account and the device id. The device id alone (it is in the audit trail and in
 * exports) proves nothing. A password reset or "sign out everywhere" deletes every row.
 *
 * The cookie's name is per account (an HMAC of the user id under the app key), so two officers
 * sharing a workstation each keep their own trust, and the name says nothing about who they are.
 */
export function createTrustedDevices(deps: Pick<AuthDeps, 'db' | 'appKey' | 'now'>) {
  const { db, appKey } = deps;
  const now = clockOf(deps);

  const cookieNameOf = (userId: string) => `fp_td_${hmac(appKey, `trusted-device:${userId}`).slice(0, 20)}`;

  return {
    cookieNameOf,

    /** The live row this browser proves for the account, if any: its secret and its device id must match. */
    async find(userId: string, deviceId: string | undefined, secret: string | undefined) {
      if (!deviceId || !secret || secret.length > 200) return undefined;
      const [row] = await db
        .select()
        .from(trustedDevices)
        .where(
          and(
            own(trustedDevices, userId),
            eq(trustedDevices.secretHash, sha256(secret)),
            eq(trustedDevices.deviceId, deviceId),
            gt(trustedDevices.expiresAt, now()),
          ),
        );
      return row;
    },

    async touch(id: string): Promise<void> {
      await db.update(trustedDevices).set({ lastSeenAt: now() }).where(eq(trustedDevices.id, id));
    },

    /** Trusts this browser: a new secret (an older one of the same device stops working). */
    async trust(
      executor: Executor,
      userId: string,
      client: ClientContext,
    ): Promise<DeviceCookie | undefined> {
      if (!client.deviceId) return undefined;
      const secret = randomToken();
      const expiresAt = new Date(now().getTime() + TRUSTED_DEVICE_DAYS * DAY_MS);
      const values = {
        secretHash: sha256(secret),
        userAgent: client.userAgent?.slice(0, 300) ?? null,
        ip: client.ip,
        lastSeenAt: now(),
        expiresAt,
      };
      await executor
        .insert(trustedDevices)
        .values({ userId, deviceId: client.deviceId, createdAt: now(), ...values })
        .onConflictDoUpdate({ target: [trustedDevices.userId, trustedDevices.deviceId], set: values });
      return { name: cookieNameOf(userId), value: secret, maxAgeSeconds: TRUSTED_DEVICE_DAYS * 86_400 };
    },

    async list(userId: string, currentDeviceId: string | undefined): Promise<TrustedDeviceSummary[]> {
      const rows = await db
        .select()
        .from(trustedDevices)
        .where(and(own(trustedDevices, userId), gt(trustedDevices.expiresAt, now())))
        .orderBy(asc(trustedDevices.createdAt));
      return rows.map((row) => ({
        id: row.id,
        device_id: row.deviceId,
        user_agent: row.userAgent,
        created_at: row.createdAt.toISOString(),
        last_seen_at: row.lastSeenAt.toISOString(),
        expires_at: row.expiresAt.toISOString(),
        current: row.deviceId === currentDeviceId,
      }));
    },
  };
}

/** Forgets every trusted device of the account (password reset, sign out everywhere). */
export async function forgetTrustedDevices(executor: Executor, userId: string): Promise<number> {
  const gone = await executor
    .delete(trustedDevices)
    .where(own(trustedDevices, userId))
    .returning({ id: trustedDevices.id });
  return gone.length;
}

export type TrustedDevices = ReturnType<typeof createTrustedDevices>;
