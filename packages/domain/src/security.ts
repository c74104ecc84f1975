import { z } from 'zod';
import { PASSWORD_MAX_LENGTH } from './constants.ts';
import { fieldMessages } from './messages.ts';
import { requiredText } from './validation.ts';

/**
 * Second factors (beyond the spec): an authenticator app (TOTP, RFC 6238: 30-second steps, 6 digits,
 * SHA-1), single-use recovery codes and WebAuthn passkeys. After the password, an account that has one
 * gets `second_factor_required` instead of a token and finishes the sign-in with one of its `methods`.
 */
export const SECOND_FACTOR_METHODS = ['totp', 'recovery_code', 'passkey'] as const;
export type SecondFactorMethod = (typeof SECOND_FACTOR_METHODS)[number];

export const TOTP_PERIOD_SECONDS = 30;
export const TOTP_DIGITS = 6;
export const RECOVERY_CODE_COUNT = 10;
export const PASSKEY_NAME_MAX_LENGTH = 60;
/** How long a browser stays trusted after it proved a mailed code or a second factor. */
export const TRUSTED_DEVICE_DAYS = 90;

const TOTP_PATTERN = new RegExp(`^\\d{${TOTP_DIGITS}}$`);
/** Recovery codes as they are shown: `xxxxx-xxxxx` in lower-case letters and digits; case and dashes are forgiven. */
export const RECOVERY_CODE_PATTERN = /^[a-z0-9]{5}-?[a-z0-9]{5}$/;

const totpCode = (field = 'code') =>
  requiredText(field, 32).trim().regex(TOTP_PATTERN, fieldMessages.digits(field, TOTP_DIGITS));

const recoveryCode = () =>
  requiredText('recovery code', 64)
    .trim()
    .transform((value) => value.toLowerCase().replace(/\s+/g, ''))
    .refine((value) => RECOVERY_CODE_PATTERN.test(value), 'The recovery code is not in the right form.');

/** A WebAuthn response as @simplewebauthn/browser returns it; the server library checks every part. */
const webauthnResponse = (field: string) =>
  z
    .looseObject(
      {
        id: z.string().min(1).max(1024),
        rawId: z.string().min(1).max(1024),
        type: z.literal('public-key'),
        response: z.looseObject({ clientDataJSON: z.string().min(1).max(16_384) }),
      },
      { error: `The ${field} field must be a WebAuthn response.` },
    )
    .refine((value) => JSON.stringify(value).length <= 64_000, `The ${field} field is too large.`);

const signInToken = () => requiredText('token', 200);

/** POST /api/login/second-factor: exactly one of `code`, `recovery_code` or `passkey`. */
export const secondFactorRequest = z
  .strictObject({
    token: signInToken(),
    code: totpCode().optional(),
    recovery_code: recoveryCode().optional(),
    passkey: webauthnResponse('passkey').optional(),
  })
  .superRefine((value, ctx) => {
    const given = [value.code, value.recovery_code, value.passkey].filter((v) => v !== undefined).length;
    if (given !== 1) {
      ctx.addIssue({
        code: 'custom',
        path: ['code'],
        message: 'Give exactly one of a code, a recovery code or a passkey.',
      });
    }
  });
export type SecondFactorRequest = z.input<typeof secondFactorRequest>;

/** POST /api/login/second-factor/passkey-options. */
export const passkeyOptionsRequest = z.strictObject({ token: signInToken() });

/** POST /api/security/totp/confirm. */
export const totpConfirmRequest = z.strictObject({ code: totpCode() });

/** Removing a factor or replacing the recovery codes asks for the password again. */
export const passwordConfirmRequest = z.strictObject({
  password: requiredText('password', PASSWORD_MAX_LENGTH),
});

const passkeyName = () =>
  requiredText('name', PASSKEY_NAME_MAX_LENGTH)
    .trim()
    .min(1, fieldMessages.required('name'))
    .max(PASSKEY_NAME_MAX_LENGTH, fieldMessages.max('name', PASSKEY_NAME_MAX_LENGTH))
    .regex(/^[^\p{Cc}]*$/u, 'The name field must be plain text.');

/** POST /api/security/passkeys. */
export const passkeyRegisterRequest = z.strictObject({
  name: passkeyName(),
  response: webauthnResponse('response'),
});

/** PATCH /api/security/passkeys/:id. */
export const passkeyRenameRequest = z.strictObject({ name: passkeyName() });

/** Login after the right password, for an account with a second factor: status 403. */
export interface SecondFactorRequiredResponse {
  second_factor_required: true;
  methods: SecondFactorMethod[];
  email: string;
  /** Stands in for the password during the second step; short-lived and single-use. */
  second_factor_token: string;
  expires_at: string;
  message: string;
}

export interface PasskeySummary {
  id: string;
  name: string;
  created_at: string;
  last_used_at: string | null;
}

export interface TrustedDeviceSummary {
  id: string;
  device_id: string;
  user_agent: string | null;
  created_at: string;
  last_seen_at: string;
  expires_at: string;
  /** The device this request came from. */
  current: boolean;
}

/** GET /api/security. */
export interface SecurityOverview {
  /** The deployment asks every account for a second factor. */
  second_factor_required: boolean;
  /** The deployment asks for one and this account has none yet: nothing else works until it has. */
  setup_required: boolean;
  totp: { enabled: boolean; enabled_at: string | null };
  recovery_codes_left: number;
  passkeys: PasskeySummary[];
  trusted_devices: TrustedDeviceSummary[];
}

export interface TotpSetupResponse {
  secret: string;
  otpauth_url: string;
  /** The otpauth URL as a QR code, an SVG data: URL made on the server. */
  qr_code: string;
}

export interface RecoveryCodesResponse {
  message: string;
  /** Shown once; empty when the account already had unused codes. */
  recovery_codes: string[];
}
