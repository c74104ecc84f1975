import { z } from 'zod';
import type {
  PasskeySummary,
  RecoveryCodesResponse,
  SecondFactorRequiredResponse,
  SecurityOverview,
  TotpSetupResponse,
  TrustedDeviceSummary,
} from '../security.ts';
import { SECOND_FACTOR_METHODS } from '../security.ts';
import { isoTimestamp, openObject } from './common.ts';

/**
 * Second factors and trusted devices. Request schemas: `secondFactorRequest`, `passkeyOptionsRequest`,
 * `totpConfirmRequest`, `passwordConfirmRequest`, `passkeyRegisterRequest`, `passkeyRenameRequest`.
 */

/** POST /api/login for an account with a second factor: status 403. */
export const secondFactorRequiredResponse: z.ZodType<SecondFactorRequiredResponse> = z.object({
  second_factor_required: z.literal(true),
  methods: z.array(z.enum(SECOND_FACTOR_METHODS)),
  email: z.string(),
  second_factor_token: z
    .string()
    .describe('Sent back to POST /api/login/second-factor; valid for a few minutes, once.'),
  expires_at: isoTimestamp,
  message: z.string(),
});

export const passkeySummary: z.ZodType<PasskeySummary> = z
  .object({
    id: z.string(),
    name: z.string(),
    created_at: isoTimestamp,
    last_used_at: isoTimestamp.nullable(),
  })
  .meta({ id: 'Passkey' });

const trustedDeviceSummary: z.ZodType<TrustedDeviceSummary> = z.object({
  id: z.string(),
  device_id: z.string(),
  user_agent: z.string().nullable(),
  created_at: isoTimestamp,
  last_seen_at: isoTimestamp,
  expires_at: isoTimestamp,
  current: z.boolean(),
});

export const securityOverviewResponse: z.ZodType<SecurityOverview> = z.object({
  second_factor_required: z.boolean(),
  setup_required: z.boolean(),
  totp: z.object({ enabled: z.boolean(), enabled_at: isoTimestamp.nullable() }),
  recovery_codes_left: z.number().int(),
  passkeys: z.array(passkeySummary),
  trusted_devices: z.array(trustedDeviceSummary),
});

export const totpSetupResponse: z.ZodType<TotpSetupResponse> = z.object({
  secret: z.string().describe('Base32, for typing into an app that cannot scan.'),
  otpauth_url: z.string(),
  qr_code: z.string().describe('data:image/svg+xml;base64,…'),
});

export const recoveryCodesResponse: z.ZodType<RecoveryCodesResponse> = z.object({
  message: z.string(),
  recovery_codes: z.array(z.string()),
});

/** The options for navigator.credentials.create / get, as @simplewebauthn/browser takes them. */
export const webauthnOptionsResponse = openObject(
  'PublicKeyCredentialCreationOptionsJSON or RequestOptionsJSON.',
);

export const passkeyCreatedResponse = z.object({
  message: z.string(),
  passkey: passkeySummary,
  recovery_codes: z.array(z.string()).describe('Shown once, when this is the first second factor.'),
});
