import { createFactors } from './factors.ts';
import { createLogin } from './login.ts';
import { createOtp } from './otp.ts';
import { createPasskeys } from './passkeys.ts';
import { createPasswordReset } from './passwords.ts';
import { createRegistration } from './registration.ts';
import { createSecondFactor } from './second-factor.ts';
import { createSecurity } from './security.ts';
import { createSessions } from './sessions.ts';
import { createTrustedDevices } from './trusted-devices.ts';
import type { AuthDeps } from './types.ts';

export type { DeviceSecretOf, LoginOutcome } from './login.ts';
export type { SignedIn } from './second-factor.ts';
export { DEVICE_COOKIE_PATH, type DeviceCookie } from './trusted-devices.ts';
export type { AuthDeps } from './types.ts';

/**
 * Accounts and sessions, one service for the routes, built from its parts: sessions (tokens), trusted
 * devices, OTP, second factors (authenticator app, recovery codes, passkeys), sign-in, password reset
 * and registration.
 */
export function createAuthService(deps: AuthDeps) {
  const sessions = createSessions(deps);
  const devices = createTrustedDevices(deps);
  const factors = createFactors(deps);
  const passkeys = createPasskeys(deps);
  const otp = createOtp(deps, { sessions, factors, devices });
  const secondFactor = createSecondFactor(deps, { sessions, factors, passkeys, devices });
  const registration = createRegistration(deps);
  const passwords = createPasswordReset(deps);
  return {
    registrationStatus: registration.registrationStatus,
    registrationRequiredFields: registration.registrationRequiredFields,
    login: createLogin(deps, { otp, sessions, factors, secondFactor, devices }),
    verifyOtp: otp.verifyOtp,
    resendOtp: otp.resendOtp,
    verifySecondFactor: secondFactor.verify,
    secondFactorPasskeyOptions: secondFactor.passkeyOptions,
    register: registration.register,
    forgotPassword: passwords.forgotPassword,
    resetPassword: passwords.resetPassword,
    logout: sessions.logout,
    security: createSecurity(deps, { factors, passkeys, devices }),
    deviceCookieNameOf: devices.cookieNameOf,
    /** Throws when a passkey ceremony comes from a page open at another origin than APP_URL. */
    assertPasskeyOrigin: passkeys.assertOrigin,
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
