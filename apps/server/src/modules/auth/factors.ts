import { randomInt } from 'node:crypto';
import { RECOVERY_CODE_COUNT, TOTP_DIGITS, TOTP_PERIOD_SECONDS } from '@footprint/domain';
import { type AnyColumn, and, count, eq, isNotNull, isNull, lt, type SQL, sql } from 'drizzle-orm';
import { Secret, TOTP } from 'otpauth';
import QRCode from 'qrcode';
import { own } from '../../access/policy.ts';
import type { Executor } from '../../db/client.ts';
import { passkeys, recoveryCodes, userTotp } from '../../db/schema.ts';
import { decryptSecret, encryptSecret, hmac } from '../../security/crypto.ts';
import { type AuthDeps, clockOf } from './types.ts';

const TOTP_PURPOSE = 'totp-secret';
const ISSUER = 'Footprint';
/** Codes of the step before and after the current one are taken too (clock drift of up to 30 s). */
const TOTP_WINDOW = 1;
const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

export type TotpCheck = 'ok' | 'wrong' | 'reused' | 'not_enrolled';

/**
 * Whether the account of `userId` (a column of the query it is selected in) has a second factor: a
 * confirmed authenticator app or a passkey. The session and API-key checks select it beside the user.
 */
export const hasSecondFactor = (userId: AnyColumn): SQL<boolean> =>
  sql<boolean>`(exists (select 1 from ${userTotp} where ${own(userTotp, userId)} and ${userTotp.confirmedAt} is not null) or exists (select 1 from ${passkeys} where ${own(passkeys, userId)}))`;

/**
 * The authenticator app (RFC 6238 with the parameters every app understands: SHA-1, 6 digits, 30 s)
 * and the recovery codes. The TOTP secret is kept encrypted under the app key; a code is accepted
 * once: its step is stored, and a code of that step or an earlier one is refused afterwards.
 */
export function createFactors(deps: Pick<AuthDeps, 'db' | 'appKey' | 'now'>) {
  const { db, appKey } = deps;
  const now = clockOf(deps);
  const totpOf = (secretBase32: string, label: string) =>
    new TOTP({
      issuer: ISSUER,
      label,
      algorithm: 'SHA1',
      digits: TOTP_DIGITS,
      period: TOTP_PERIOD_SECONDS,
      secret: Secret.fromBase32(secretBase32),
    });
  const recoveryHash = (code: string) => hmac(appKey, `recovery-code:${code.replace('-', '')}`);

  async function totpRow(userId: string) {
    const [row] = await db.select().from(userTotp).where(own(userTotp, userId));
    return row;
  }

  return {
    totpRow,

    /** A new secret for the account, not yet confirmed (it replaces an earlier unconfirmed one). */
    async startTotp(userId: string, email: string) {
      const secret = new Secret({ size: 20 }).base32;
      const sealed = encryptSecret(appKey, TOTP_PURPOSE, secret);
      await db
        .insert(userTotp)
        .values({ userId, secretEncrypted: sealed, createdAt: now() })
        .onConflictDoUpdate({
          target: userTotp.userId,
          set: { secretEncrypted: sealed, createdAt: now(), lastUsedStep: 0, confirmedAt: null },
          setWhere: isNull(userTotp.confirmedAt),
        });
      const url = totpOf(secret, email).toString();
      const svg = await QRCode.toString(url, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
      return {
        secret,
        otpauth_url: url,
        qr_code: `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`,
      };
    },

    /**
     * Checks a code against the account's secret (confirmed or, with `pending`, the one being set up)
     * and, if right, spends its step in the same statement, so the same code never works twice.
     */
    async checkTotp(userId: string, code: string, options: { pending?: boolean } = {}): Promise<TotpCheck> {
      const row = await totpRow(userId);
      if (!row || (options.pending ? row.confirmedAt !== null : row.confirmedAt === null))
        return 'not_enrolled';
      let secret: string;
      try {
        secret = decryptSecret(appKey, TOTP_PURPOSE, row.secretEncrypted);
      } catch {
        // Sealed under another APP_KEY: no code can match it (the account uses a recovery code or a passkey).
        return 'wrong';
      }
      const timestamp = now().getTime();
      const delta = totpOf(secret, '').validate({ token: code, timestamp, window: TOTP_WINDOW });
      if (delta === null) return 'wrong';
      const step = Math.floor(timestamp / 1000 / TOTP_PERIOD_SECONDS) + delta;
      const [spent] = await db
        .update(userTotp)
        .set({ lastUsedStep: step, ...(options.pending ? { confirmedAt: now() } : {}) })
        .where(
          and(
            own(userTotp, userId),
            lt(userTotp.lastUsedStep, step),
            options.pending ? isNull(userTotp.confirmedAt) : isNotNull(userTotp.confirmedAt),
          ),
        )
        .returning({ userId: userTotp.userId });
      return spent ? 'ok' : 'reused';
    },

    async removeTotp(executor: Executor, userId: string): Promise<boolean> {
      const gone = await executor.delete(userTotp).where(own(userTotp, userId)).returning();
      return gone.length > 0;
    },

    /** Replaces the account's recovery codes with new ones; the plain codes are returned once. */
    async newRecoveryCodes(executor: Executor, userId: string): Promise<string[]> {
      const codes = Array.from({ length: RECOVERY_CODE_COUNT }, () => {
        const chars = Array.from(
          { length: 10 },
          () => RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)],
        );
        return `${chars.slice(0, 5).join('')}-${chars.slice(5).join('')}`;
      });
      await executor.delete(recoveryCodes).where(own(recoveryCodes, userId));
      await executor
        .insert(recoveryCodes)
        .values(codes.map((code) => ({ userId, codeHash: recoveryHash(code), createdAt: now() })));
      return codes;
    },

    /** Spends a recovery code: true once per code, in one statement. */
    async useRecoveryCode(userId: string, code: string): Promise<boolean> {
      const [used] = await db
        .update(recoveryCodes)
        .set({ usedAt: now() })
        .where(
          and(
            own(recoveryCodes, userId),
            eq(recoveryCodes.codeHash, recoveryHash(code)),
            isNull(recoveryCodes.usedAt),
          ),
        )
        .returning({ id: recoveryCodes.id });
      return Boolean(used);
    },

    async recoveryCodesLeft(executor: Executor, userId: string): Promise<number> {
      const [row] = await executor
        .select({ n: count() })
        .from(recoveryCodes)
        .where(and(own(recoveryCodes, userId), isNull(recoveryCodes.usedAt)));
      return Number(row?.n ?? 0);
    },

    async removeRecoveryCodes(executor: Executor, userId: string): Promise<void> {
      await executor.delete(recoveryCodes).where(own(recoveryCodes, userId));
    },

    /** Which factors the account has: a confirmed app, passkeys. */
    async enrolled(executor: Executor, userId: string) {
      const [totp] = await executor
        .select({ confirmedAt: userTotp.confirmedAt })
        .from(userTotp)
        .where(and(own(userTotp, userId), isNotNull(userTotp.confirmedAt)));
      const [keys] = await executor.select({ n: count() }).from(passkeys).where(own(passkeys, userId));
      const passkeyCount = Number(keys?.n ?? 0);
      return {
        totp: Boolean(totp),
        totpSince: totp?.confirmedAt ?? null,
        passkeys: passkeyCount,
        any: Boolean(totp) || passkeyCount > 0,
      };
    },
  };
}

export type Factors = ReturnType<typeof createFactors>;
