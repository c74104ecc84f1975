import { z } from 'zod';
import {
  EMAIL_MAX_LENGTH,
  NAME_MAX_LENGTH,
  OTP_LENGTH,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
} from './constants.ts';
import { authTexts } from './messages/auth.ts';
import { fieldMessages } from './messages.ts';
import type { OwnPool } from './units.ts';
import { emailField, requiredText } from './validation.ts';

const password = (field = 'password') => requiredText(field, PASSWORD_MAX_LENGTH);

const newPassword = () =>
  password().min(PASSWORD_MIN_LENGTH, fieldMessages.min('password', PASSWORD_MIN_LENGTH));

const confirmed = <T extends { password: string; password_confirmation: string }>(
  data: T,
  ctx: z.RefinementCtx,
) => {
  if (data.password !== data.password_confirmation) {
    ctx.addIssue({ code: 'custom', path: ['password'], message: fieldMessages.confirmed('password') });
  }
};

export const loginRequest = z.strictObject({
  email: emailField('email', EMAIL_MAX_LENGTH),
  password: password(),
});
export type LoginRequest = z.input<typeof loginRequest>;

/**
 * What a sign-up tells an approver besides name and e-mail (not in the spec): the organisation (agency),
 * the designation, and an official identity reference (badge, employee or press-card number).
 */
export const SIGNUP_FIELDS = ['organisation', 'designation', 'identity_reference'] as const;
export type SignupField = (typeof SIGNUP_FIELDS)[number];
export const SIGNUP_FIELD_MAX_LENGTH: Readonly<Record<SignupField, number>> = {
  organisation: 200,
  designation: 100,
  identity_reference: 100,
};
/** Required until an admin changes it (or REGISTRATION_REQUIRED_FIELDS): organisation and designation. */
export const DEFAULT_REQUIRED_SIGNUP_FIELDS: readonly SignupField[] = ['organisation', 'designation'];

const signupNames = authTexts.signupFields.names;

/**
 * One profile field: trimmed plain text; empty is absent; required as the setting says. A missing
 * required field is an ordinary issue (not an aborting one), so the form's other checks (the password
 * confirmation) still run beside it.
 */
function signupField(field: SignupField, required: boolean) {
  const name = signupNames[field];
  const max = SIGNUP_FIELD_MAX_LENGTH[field];
  const text = z
    .string()
    .max(max, { error: fieldMessages.max(name, max), abort: true })
    .regex(/^[^\p{Cc}]*$/u, authTexts.signupFields.control(name));
  const given = z
    .string({ error: fieldMessages.string(name) })
    .optional()
    .transform((value) => (value ?? '').trim());
  if (!required) return given.pipe(text).transform((value) => (value ? value : undefined));
  return given.pipe(text.min(1, fieldMessages.required(name)));
}

/**
 * POST /api/register with the given profile fields required. The spec's four fields are always
 * required; the profile fields are optional in the schema itself (`registerRequest`, the API
 * contract) and required as the deployment's setting says (the server parses with this).
 */
export function registerRequestFor(required: readonly SignupField[]) {
  return z
    .strictObject({
      name: requiredText('name', NAME_MAX_LENGTH)
        .trim()
        .min(1, fieldMessages.required('name'))
        .regex(/^[^\p{Cc}]*$/u, authTexts.signupFields.control('name')),
      email: emailField('email', EMAIL_MAX_LENGTH),
      password: newPassword(),
      password_confirmation: password('password_confirmation'),
      organisation: signupField('organisation', required.includes('organisation')),
      designation: signupField('designation', required.includes('designation')),
      identity_reference: signupField('identity_reference', required.includes('identity_reference')),
    })
    .superRefine(confirmed);
}

export const registerRequest = registerRequestFor([]);
export type RegisterRequest = z.input<typeof registerRequest>;

export const forgotPasswordRequest = z.strictObject({
  email: emailField('email', EMAIL_MAX_LENGTH),
});
export type ForgotPasswordRequest = z.input<typeof forgotPasswordRequest>;

export const resetPasswordRequest = z
  .strictObject({
    email: emailField('email', EMAIL_MAX_LENGTH),
    token: requiredText('token', 200),
    password: newPassword(),
    password_confirmation: password('password_confirmation'),
  })
  .superRefine(confirmed);
export type ResetPasswordRequest = z.input<typeof resetPasswordRequest>;

export const OTP_PATTERN = new RegExp(`^\\d{${OTP_LENGTH}}$`);

export const verifyOtpRequest = z.strictObject({
  email: emailField('email', EMAIL_MAX_LENGTH),
  otp: requiredText('otp', 32).regex(OTP_PATTERN, fieldMessages.digits('otp', OTP_LENGTH)),
});
export type VerifyOtpRequest = z.input<typeof verifyOtpRequest>;

export const resendOtpRequest = z.strictObject({
  email: emailField('email', EMAIL_MAX_LENGTH),
});
export type ResendOtpRequest = z.input<typeof resendOtpRequest>;

/** Successful login or OTP verification. */
export interface TokenResponse {
  token: string;
  expires_at: string;
}

/** Login from a device the account has not trusted yet. */
export interface OtpRequiredResponse {
  otp_required: true;
  email: string;
  otp_expires_at: string;
  message: string;
}

export interface ResendOtpResponse {
  message: string;
  otp_expires_at: string;
}

/**
 * How self-registration works on a deployment: `open` (an account can sign in at once), `approval` (a
 * new account waits for an administrator) or `closed` (only administrators create accounts).
 */
export const REGISTRATION_MODES = ['open', 'approval', 'closed'] as const;
export type RegistrationMode = (typeof REGISTRATION_MODES)[number];

export interface RegistrationStatus {
  /** False only while the mode is `closed`. */
  registration_enabled: boolean;
  registration_mode: RegistrationMode;
  /** The profile fields the sign-up form must have filled (the rest are optional). */
  required_fields: SignupField[];
}

/** What an account's status is while it cannot sign in: why the sign-in was refused. */
export type BlockedAccountStatus = 'pending' | 'rejected' | 'disabled';

export type AppMode = 'live' | 'trial';
export type Role = 'user' | 'admin';

/** GET /api/user. `credits` may arrive as a string from older servers; clients must accept both. */
export interface User {
  id: string;
  name: string;
  email: string;
  credits: number | string;
  app_mode: AppMode | string;
  role: Role;
  created_at: string;
  /**
   * GET /api/user only (beyond the spec): the deployment requires a second factor and this account has
   * none yet, so every other call answers 403 until one is set up on the Security page.
   */
  second_factor_setup_required?: boolean;
  /**
   * GET /api/user only (beyond the spec): the unit credit pool the account's searches draw on first,
   * within a monthly allowance; null when it has none (then only `credits` pays).
   */
  pool?: OwnPool | null;
}

/** Error bodies use the spec's keys. */
export interface ErrorBody {
  message?: string;
  error?: string;
  errors?: Record<string, string[]>;
  details?: unknown;
  credits?: number;
}

export const isLive = (user: Pick<User, 'app_mode'> | null | undefined): boolean => user?.app_mode === 'live';
