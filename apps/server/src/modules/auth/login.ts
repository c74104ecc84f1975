import { setTimeout as delay } from 'node:timers/promises';
import {
  type LoginRequest,
  messages,
  type OtpRequiredResponse,
  type SecondFactorRequiredResponse,
  type TokenResponse,
} from '@footprint/domain';
import { accountBlocked, validationError } from '../../errors.ts';
import type { ClientContext } from '../../http/context.ts';
import { verifyAgainstNothing, verifyPassword } from '../../security/passwords.ts';
import { accountAtIp, RateLimitedError } from '../../security/rate-limit.ts';
import { recordAudit } from '../audit/service.ts';
import { findUserByEmail } from '../users/repository.ts';
import type { Factors } from './factors.ts';
import type { Otp } from './otp.ts';
import type { SecondFactor } from './second-factor.ts';
import type { Sessions } from './sessions.ts';
import type { TrustedDevices } from './trusted-devices.ts';
import { type AuthDeps, authAudit as audit } from './types.ts';

export type LoginOutcome =
  | { kind: 'token'; body: TokenResponse }
  | { kind: 'otp'; body: OtpRequiredResponse }
  | { kind: 'second_factor'; body: SecondFactorRequiredResponse };

/** The secret the browser holds for an account's trusted device (its cookie), if it sent one. */
export type DeviceSecretOf = (cookieName: string) => string | undefined;

/**
 * Sign-in with e-mail and password: failures are limited per address and per account and address,
 * an account under attack only slows down (security/rate-limit.ts). Then an account with a second
 * factor is asked for it (every time, trusted device or not); any other gets a session on a device it
 * trusts (proven by the secret the server issued) or a mailed code.
 */
export function createLogin(
  deps: Pick<AuthDeps, 'db' | 'limits'>,
  parts: {
    otp: Otp;
    sessions: Sessions;
    factors: Factors;
    secondFactor: SecondFactor;
    devices: TrustedDevices;
  },
) {
  const { db, limits } = deps;
  const { otp, sessions, factors, secondFactor, devices } = parts;
  const invalidCredentials = () => validationError({ email: [messages.login.invalidCredentials] });

  return async function login(
    input: LoginRequest,
    client: ClientContext,
    deviceSecretOf: DeviceSecretOf = () => undefined,
  ): Promise<LoginOutcome> {
    const email = input.email;
    const pair = accountAtIp(email, client.ip);
    // Only failures are counted, and only against the address that made them (and its pair with
    // the account): a right password from another address is never refused for someone else's.
    const addressLocked = await limits.check('loginFailuresPerIp', client.ip).then(
      () => undefined,
      (error: unknown) => {
        if (error instanceof RateLimitedError) return error;
        throw error;
      },
    );
    await limits.check('loginFailuresPerAccountIp', pair);

    const user = await findUserByEmail(db, email);
    const device = user
      ? await devices.find(user.id, client.deviceId, deviceSecretOf(devices.cookieNameOf(user.id)))
      : undefined;
    const trusted = Boolean(device);
    // A locked address (one noisy client behind an office's NAT locks the whole office) still lets
    // in a browser that proves a device this account trusts: its secret came from a past second
    // proof, which a guesser does not hold. Anyone else gets the lock's 429, account or not.
    if (addressLocked && !trusted) throw addressLocked;
    // Across all addresses the account only slows down, and a device it trusts never waits.
    if (!trusted) {
      const wait = limits.slowdownMs(await limits.spent('loginFailuresPerAccount', email));
      if (wait > 0) await delay(wait);
    }
    const ok = user
      ? await verifyPassword(user.passwordHash, input.password)
      : await verifyAgainstNothing(input.password);
    if (!user || !ok) {
      await Promise.all([
        limits.count('loginFailuresPerIp', client.ip),
        limits.count('loginFailuresPerAccountIp', pair),
        limits.count('loginFailuresPerAccount', email),
      ]);
      await recordAudit(
        db,
        audit('auth.login', 'failure', { user, email }, client, {
          reason: user ? 'wrong_password' : 'unknown_account',
        }),
      );
      throw invalidCredentials();
    }
    // The account-wide counter is left to expire: the owner signing in gives a guesser no fresh start.
    await limits.reset('loginFailuresPerAccountIp', pair);
    // Only now, with the password proven, may the answer say that the account waits or was refused.
    if (user.status !== 'active') {
      await recordAudit(
        db,
        audit('auth.login', 'denied', { user }, client, { reason: `account_${user.status}` }),
      );
      throw accountBlocked(user.status);
    }

    if ((await factors.enrolled(db, user.id)).any) {
      return { kind: 'second_factor', body: await secondFactor.start(user, client) };
    }
    if (device) {
      await devices.touch(device.id);
      const events = [audit('auth.login', 'success', { user }, client, { via: 'trusted_device' })];
      return { kind: 'token', body: await sessions.issueToken(user, client, events) };
    }
    const expiresAt = await otp.startChallenge(user, client.deviceId);
    await recordAudit(
      db,
      audit('auth.otp.required', 'success', { user }, client, {
        reason: client.deviceId
          ? deviceSecretOf(devices.cookieNameOf(user.id))
            ? 'device_not_trusted'
            : 'new_device'
          : 'no_device_id',
        otp_expires_at: expiresAt.toISOString(),
      }),
    );
    return {
      kind: 'otp',
      body: {
        otp_required: true,
        email: user.email,
        otp_expires_at: expiresAt.toISOString(),
        message: messages.login.otpSent,
      },
    };
  };
}
