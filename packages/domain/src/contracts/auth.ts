import { z } from 'zod';
import type {
  OtpRequiredResponse,
  RegistrationStatus,
  ResendOtpResponse,
  TokenResponse,
  User,
} from '../auth.ts';
import { REGISTRATION_MODES, SIGNUP_FIELDS } from '../auth.ts';
import { isoTimestamp, messageResponse, statusResponse } from './common.ts';

/**
 * Responses of the account endpoints (sign-in, OTP, registration, password reset, the signed-in user).
 * Their request schemas are `loginRequest`, `verifyOtpRequest`, `resendOtpRequest`, `registerRequest`,
 * `forgotPasswordRequest` and `resetPasswordRequest`.
 */

/** GET /api/user and the `user` of POST /api/register: never the hash, never internal fields. */
export const userResponse: z.ZodType<User> = z
  .object({
    id: z.string(),
    name: z.string(),
    email: z.string(),
    credits: z.number().int(),
    app_mode: z.enum(['live', 'trial']),
    role: z.enum(['user', 'admin']),
    created_at: isoTimestamp,
    second_factor_setup_required: z
      .boolean()
      .optional()
      .describe('GET /api/user: a second factor must be set up before anything else works.'),
    pool: z
      .object({
        unit_id: z.string(),
        unit_name: z.string(),
        balance: z.number().int().describe("The pool's credits."),
        monthly_allowance: z.number().int(),
        used_this_month: z.number().int(),
        available: z
          .number()
          .int()
          .describe('What a search may still draw: the smaller of the pool and the allowance left.'),
      })
      .nullable()
      .optional()
      .describe(
        'GET /api/user: the unit credit pool searches draw on first, within a monthly allowance; null: none.',
      ),
  })
  .meta({ id: 'User' });

/** POST /api/login from a trusted device, POST /api/verify-email-otp. */
export const tokenResponse: z.ZodType<TokenResponse> = z.object({
  token: z.string(),
  expires_at: isoTimestamp,
});

/** POST /api/login from a device the account has not trusted yet: status 403. */
export const otpRequiredResponse: z.ZodType<OtpRequiredResponse> = z.object({
  otp_required: z.literal(true),
  email: z.string(),
  otp_expires_at: isoTimestamp,
  message: z.string(),
});

/** POST /api/resend-otp. */
export const resendOtpResponse: z.ZodType<ResendOtpResponse> = z.object({
  message: z.string(),
  otp_expires_at: isoTimestamp,
});

/** GET /api/registration-status. */
export const registrationStatusResponse: z.ZodType<RegistrationStatus> = z.object({
  registration_enabled: z.boolean().describe('False only while registration_mode is closed.'),
  registration_mode: z
    .enum(REGISTRATION_MODES)
    .describe('open: new accounts sign in at once; approval: they wait for an admin; closed: no sign-up.'),
  required_fields: z
    .array(z.enum(SIGNUP_FIELDS))
    .describe(
      'The profile fields POST /api/register must carry (an admin setting); the others are optional.',
    ),
});

/** POST /api/register: status 201. */
export const registerResponse = z.object({
  message: z.string(),
  user: userResponse,
  approval_required: z
    .boolean()
    .describe('True when the new account must be approved by an administrator before it can sign in.'),
});

/** POST /api/logout. */
export const logoutResponse = messageResponse;

/** POST /forgot-password and POST /api/reset-password. */
export const passwordStatusResponse = statusResponse;
