import { createLogin } from './login.ts';
import { createOtp } from './otp.ts';
import { createPasswordReset } from './passwords.ts';
import { createRegistration } from './registration.ts';
import { createSessions } from './sessions.ts';
import type { AuthDeps } from './types.ts';

export type { LoginOutcome } from './login.ts';
export type { AuthDeps } from './types.ts';

/**
 * Accounts and sessions, one service for the routes, built from its parts: sessions (tokens), OTP and
 * trusted devices, sign-in, password reset and registration.
 */
export function createAuthService(deps: AuthDeps) {
  const sessions = createSessions(deps);
  const otp = createOtp(deps, sessions);
  const registration = createRegistration(deps);
  const passwords = createPasswordReset(deps);
  return {
    registrationStatus: registration.registrationStatus,
    login: createLogin(deps, otp, sessions),
    verifyOtp: otp.verifyOtp,
    resendOtp: otp.resendOtp,
    register: registration.register,
    forgotPassword: passwords.forgotPassword,
    resetPassword: passwords.resetPassword,
    logout: sessions.logout,
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
