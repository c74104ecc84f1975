import { z } from 'zod';
import { accountabilityMessages, MAX_CREDIT_CHANGE, noControl, pageFields } from './accountability.ts';
import { APPROVAL_BULK_ROWS_MAX, APPROVAL_HOURS_MAX, APPROVAL_KINDS, isApprovalKind } from './approvals.ts';
import { type AppMode, REGISTRATION_MODES, type RegistrationMode, type SignupField } from './auth.ts';
import { CASE_REFERENCE_MAX_LENGTH } from './case-reference.ts';
import type { SourceMode } from './catalogue/sources.ts';
import { EMAIL_MAX_LENGTH, NAME_MAX_LENGTH, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from './constants.ts';
import type { StatementEntry } from './history.ts';
import { fieldMessages } from './messages.ts';
import { emailField, requiredText } from './validation.ts';

/** The operator API under /api/admin: users, credits, settings, the audit trail and leak sources. */

export const CREDIT_REASON_MAX_LENGTH = 200;
export const RETENTION_DAYS_MAX = 3650;

export const USER_ROLES = ['user', 'admin'] as const;
export const APP_MODES = ['live', 'trial'] as const;
/** The statuses an admin may set with PATCH /api/admin/users/{id}. */
export const USER_STATUSES = ['active', 'disabled'] as const;
/** Every status an account can have: `pending` waits for approval, `rejected` was refused. */
export const ACCOUNT_STATUSES = ['active', 'disabled', 'pending', 'rejected'] as const;
export type UserRole = (typeof USER_ROLES)[number];
export type UserStatus = (typeof ACCOUNT_STATUSES)[number];
export const REJECT_REASON_MAX_LENGTH = 500;

const plainText = (field: string) => `The ${field} field may not contain control characters.`;

export const adminUsersQuery = z.strictObject({
  ...pageFields,
  q: z
    .string({ error: 'The q field must be a string.' })
    .trim()
    .max(100, fieldMessages.max('q', 100))
    .regex(noControl, plainText('q'))
    .optional(),
  status: z
    .enum(ACCOUNT_STATUSES, { error: 'The status must be active, disabled, pending or rejected.' })
    .optional(),
});

const passwordField = requiredText('password', PASSWORD_MAX_LENGTH).min(
  PASSWORD_MIN_LENGTH,
  fieldMessages.min('password', PASSWORD_MIN_LENGTH),
);
const nameField = requiredText('name', NAME_MAX_LENGTH)
  .trim()
  .min(1, fieldMessages.required('name'))
  .regex(noControl, plainText('name'));
const roleField = z.enum(USER_ROLES, { error: 'The role must be user or admin.' });
const modeField = z.enum(APP_MODES, { error: 'The app mode must be live or trial.' });
const statusField = z.enum(USER_STATUSES, { error: 'The status must be active or disabled.' });

export const adminCreateUserRequest = z.strictObject({
  name: nameField,
  email: emailField('email', EMAIL_MAX_LENGTH),
  /** Left out: a random one is generated and answered once as `temporary_password`. */
  password: passwordField.optional(),
  role: roleField.default('user'),
  app_mode: modeField.default('trial'),
  credits: z
    .number({ error: 'The credits field must be a whole number.' })
    .int('The credits field must be a whole number.')
    .min(0, 'The credits field may not be negative.')
    .max(MAX_CREDIT_CHANGE, accountabilityMessages.amountTooLarge)
    .optional(),
});
export type AdminCreateUserRequest = z.input<typeof adminCreateUserRequest>;

export const adminUpdateUserRequest = z
  .strictObject({
    name: nameField.optional(),
    role: roleField.optional(),
    app_mode: modeField.optional(),
    status: statusField.optional(),
    revoke_sessions: z.literal(true, { error: 'The revoke sessions field may only be true.' }).optional(),
  })
  .refine((patch) => Object.values(patch).some((value) => value !== undefined), {
    message: accountabilityMessages.nothingToChange,
  });
export type AdminUpdateUserRequest = z.input<typeof adminUpdateUserRequest>;

/** A positive amount grants, a negative one deducts (never below zero). */
export const creditAmountField = z
  .number({ error: accountabilityMessages.amountInteger })
  .int(accountabilityMessages.amountInteger)
  .refine((n) => n !== 0, accountabilityMessages.amountZero)
  .refine((n) => Math.abs(n) <= MAX_CREDIT_CHANGE, accountabilityMessages.amountTooLarge);

export const creditReasonField = requiredText('reason', CREDIT_REASON_MAX_LENGTH)
  .trim()
  .min(1, fieldMessages.required('reason'))
  .regex(noControl, plainText('reason'));

export const adminCreditsRequest = z.strictObject({
  amount: creditAmountField,
  reason: creditReasonField,
});
export type AdminCreditsRequest = z.input<typeof adminCreditsRequest>;

/** POST /api/admin/users/{id}/reject: the reason is optional and goes into the user's e-mail. */
export const adminRejectRequest = z.strictObject({
  reason: z
    .string({ error: 'The reason field must be a string.' })
    .trim()
    .max(REJECT_REASON_MAX_LENGTH, fieldMessages.max('reason', REJECT_REASON_MAX_LENGTH))
    .regex(/^(?:[^\p{Cc}]|[\n\r\t])*$/u, plainText('reason'))
    .optional()
    .transform((value) => (value ? value : undefined)),
});
export type AdminRejectRequest = z.input<typeof adminRejectRequest>;

export const registrationModeField = z.enum(REGISTRATION_MODES, {
  error: 'The registration mode must be open, approval or closed.',
});

export const adminSettingsPatch = z
  .strictObject({
    /** Kept for older clients: false is the mode `closed`; true re-opens a closed registration. */
    registration_enabled: z
      .boolean({ error: 'The registration enabled field must be true or false.' })
      .optional(),
    registration_mode: registrationModeField.optional(),
    case_reference_required: z
      .boolean({ error: 'The case reference required field must be true or false.' })
      .optional(),
    second_factor_required: z
      .boolean({ error: 'The second factor required field must be true or false.' })
      .optional(),
    legal_basis_required: z
      .boolean({ error: 'The legal basis required field must be true or false.' })
      .optional(),
    registration_organisation_required: z
      .boolean({ error: 'The registration organisation required field must be true or false.' })
      .optional(),
    registration_designation_required: z
      .boolean({ error: 'The registration designation required field must be true or false.' })
      .optional(),
    registration_identity_reference_required: z
      .boolean({ error: 'The registration identity reference required field must be true or false.' })
      .optional(),
    lookup_retention_days: z
      .number({ error: 'The lookup retention days field must be a whole number.' })
      .int('The lookup retention days field must be a whole number.')
      .min(1, 'The lookup retention days field must be at least 1.')
      .max(
        RETENTION_DAYS_MAX,
        `The lookup retention days field must not be greater than ${RETENTION_DAYS_MAX}.`,
      )
      .optional(),
    review_share_percent: z
      .number({ error: 'The review share percent field must be a number from 0 to 100.' })
      .min(0, 'The review share percent field must be a number from 0 to 100.')
      .max(100, 'The review share percent field must be a number from 0 to 100.')
      .optional(),
    approval_kinds: z
      .array(
        z.string().refine(isApprovalKind, {
          error:
            'Each approval kind must be a search kind that can wait for approval (tel, upi, …; not leak).',
        }),
        { error: 'The approval kinds field must be a list of search kinds.' },
      )
      .max(APPROVAL_KINDS.length, 'The approval kinds field lists more kinds than there are.')
      .optional(),
    approval_hours: z
      .number({ error: 'The approval hours field must be a whole number of hours.' })
      .int('The approval hours field must be a whole number of hours.')
      .min(1, 'The approval hours field must be at least 1.')
      .max(APPROVAL_HOURS_MAX, `The approval hours field must not be greater than ${APPROVAL_HOURS_MAX}.`)
      .optional(),
    approval_bulk_rows: z
      .number({
        error: 'The approval bulk rows field must be a whole number of rows (0: no bulk job waits).',
      })
      .int('The approval bulk rows field must be a whole number of rows (0: no bulk job waits).')
      .min(0, 'The approval bulk rows field must be 0 or more.')
      .max(
        APPROVAL_BULK_ROWS_MAX,
        `The approval bulk rows field must not be greater than ${APPROVAL_BULK_ROWS_MAX}.`,
      )
      .optional(),
  })
  .refine(
    (patch) =>
      patch.registration_enabled === undefined ||
      patch.registration_mode === undefined ||
      patch.registration_enabled === (patch.registration_mode !== 'closed'),
    {
      path: ['registration_enabled'],
      message: 'The registration enabled field contradicts the registration mode.',
    },
  );
export type AdminSettingsPatch = z.input<typeof adminSettingsPatch>;

export interface AdminSettings {
  registration_enabled: boolean;
  registration_mode: RegistrationMode;
  case_reference_required: boolean;
  /** Every account must have a second factor (authenticator app or passkey) before it can do anything. */
  second_factor_required: boolean;
  /** Every search needs a legal basis: its case's, or one it states itself (`legal_basis`). */
  legal_basis_required: boolean;
  /** Which sign-up profile fields POST /api/register requires (the others are optional). */
  registration_organisation_required: boolean;
  registration_designation_required: boolean;
  registration_identity_reference_required: boolean;
  lookup_retention_days: number;
  /** The share of searches (0 to 100 %) sampled for their searcher's supervisors to review afterwards. */
  review_share_percent: number;
  /** The search kinds held until a supervisor of the requester approves them (approvals.ts). */
  approval_kinds: string[];
  /** Hours a held search waits for a decision before it expires. */
  approval_hours: number;
  /** A bulk job of more rows than this waits for a supervisor's approval before it is queued; 0: none waits. */
  approval_bulk_rows: number;
}

/** The admin setting of each sign-up profile field. */
export const SIGNUP_FIELD_SETTINGS = {
  organisation: 'registration_organisation_required',
  designation: 'registration_designation_required',
  identity_reference: 'registration_identity_reference_required',
} as const satisfies Record<SignupField, keyof AdminSettings>;

const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;
/** A day the calendar has, 0001-01-01 to 9999-12-31 (there is no year 0, and the database has none). */
const isRealDay = (value: string) => {
  if (!ISO_DAY.test(value) || value.startsWith('0000')) return false;
  const day = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(day.getTime()) && day.toISOString().slice(0, 10) === value;
};

const dayField = (field: 'start' | 'end') =>
  z
    .string({ error: accountabilityMessages.dateFormat(field) })
    .trim()
    .refine(isRealDay, accountabilityMessages.dateFormat(field))
    .optional();

const optionalText = (field: string, max: number) =>
  z
    .string({ error: `The ${field} field must be a string.` })
    .trim()
    .max(max, fieldMessages.max(field, max))
    .regex(noControl, plainText(field))
    .optional()
    .transform((value) => (value ? value : undefined));

/** Filters of the audit trail: from/to are whole UTC days, both inclusive. */
export const auditFilterFields = {
  user: optionalText('user', 200),
  action: optionalText('action', 100),
  from: dayField('start'),
  to: dayField('end'),
  q: optionalText('q', 200),
  case_reference: optionalText('case reference', CASE_REFERENCE_MAX_LENGTH),
};

const dateOrder = <T extends { from?: string | undefined; to?: string | undefined }>(
  value: T,
  ctx: z.RefinementCtx,
) => {
  if (value.from && value.to && value.to < value.from) {
    ctx.addIssue({ code: 'custom', path: ['to'], message: accountabilityMessages.dateOrder });
  }
};

export const auditQuery = z.strictObject({ ...pageFields, ...auditFilterFields }).superRefine(dateOrder);
export const auditExportQuery = z.strictObject({ ...auditFilterFields }).superRefine(dateOrder);
export type AuditFilters = z.output<typeof auditExportQuery>;

export interface AdminUser {
  id: string;
  name: string;
  email: string;
  role: UserRole;
  app_mode: AppMode;
  status: UserStatus;
  credits: number;
  created_at: string;
  updated_at: string;
  last_login_at: string | null;
  email_verified_at: string | null;
  /** What the sign-up gave for an approver to judge (null: not given, or made by an admin). */
  organisation: string | null;
  designation: string | null;
  identity_reference: string | null;
}

export interface AdminCreateUserResponse {
  user: AdminUser;
  /** Only when no password was given: shown once, never stored in clear. */
  temporary_password?: string;
}

/** POST /api/admin/users/{id}/approve and /reject. */
export interface AdminDecisionResponse {
  user: AdminUser;
  /** Whether the e-mail telling the user was handed to the mail server. */
  notified: boolean;
}

export interface AdminCreditsResponse {
  user: AdminUser;
  entry: StatementEntry;
}

export interface AuditEvent {
  id: number;
  at: string;
  user_id: string | null;
  actor_email: string | null;
  ip: string | null;
  device_id: string | null;
  action: string;
  target: string | null;
  cost: number | null;
  /** `no_record`: a search whose sources answered and found nothing (neutral, not a failure). */
  outcome: AuditOutcome;
  case_reference: string | null;
  details: Record<string, unknown> | null;
  /** A search's query as the user typed it (`details.query_typed`); null for other actions. */
  query_typed: string | null;
  /** A search's normalized query (`details.query`); null for other actions. */
  query_normalized: string | null;
}

/**
 * GET /api/admin/audit/chain: the state of the audit trail: the legacy hash chain (rows before
 * migration 0027) and the Merkle tree every row is sealed into, checked against its stored
 * checkpoints. The server verifies it a step at a time from where it last stopped (`checking` until
 * it reaches the newest checkpoint).
 */
export interface AuditChainState {
  status: 'intact' | 'checking' | 'broken';
  /** Rows verified so far, from the first row through `verified_through`. */
  rows_verified: number;
  /** The last row verified: its chain hash (legacy rows) or Merkle leaf hash (null: none yet). */
  verified_through: { id: number; at: string | null; hash: string } | null;
  /** The end of the legacy hash chain: the last row chained before 0027 and its hash (frozen). */
  head: { id: number; hash: string };
  /** The first break: its row, time and what does not match. */
  broken: {
    id: number;
    at: string | null;
    reason: 'content' | 'link' | 'head' | 'checkpoint';
    message: string;
  } | null;
  /** Rows sealed into the Merkle tree (the newest checkpoint's size). */
  tree_size: number;
  /** Rows written after the newest checkpoint: not sealed yet (sealing runs every second or so). */
  pending: number;
  /** The newest checkpoint (null: nothing sealed yet). */
  checkpoint: { tree_size: number; last_id: number; root_hash: string; at: string } | null;
  checked_at: string;
}

export const AUDIT_OUTCOMES = ['success', 'no_record', 'failure', 'denied'] as const;
export type AuditOutcome = (typeof AUDIT_OUTCOMES)[number];

export interface LeakSourceSummary {
  id: string;
  name: string;
  breach_date: string | null;
  description: string | null;
  record_count: number;
  imported_at: string | null;
  created_at: string;
}

/**
 * One row of GET /api/admin/providers: a provider's health since the server started (the camelCase
 * counters are the runner's own), who answers its source, and what its vendor cost. A source no
 * provider answers has a row too, with mode `not_configured`, zero counters and a closed breaker.
 */
export interface ProviderHealth {
  /** The provider id ('hibp:hibpData'); `not_configured:<source>` for a source nobody answers. */
  id: string;
  source: string;
  kinds: readonly string[];
  sandbox: boolean;
  /** Calls that reached the provider since the server started. */
  calls: number;
  /** Failed calls, timeouts included. */
  failures: number;
  timeouts: number;
  notFound: number;
  /** Calls refused by the open breaker (they never reached the provider). */
  rejectedOpen: number;
  latency: { p50: number | null; p95: number | null; p99: number | null };
  breaker: 'closed' | 'open' | 'half-open' | 'isolated';
  /** Who answers the source: a vendor's live API, the synthetic sandbox, or nobody. */
  mode: SourceMode;
  /** The vendor's name, for a live provider. */
  vendor: string | null;
  /** The prefix of the vendor's environment variables ('HIBP'), for a live provider. */
  env_prefix: string | null;
  /** Answers (a payload or "no record") over the calls since the server started; null without calls. */
  success_rate: number | null;
  /** The vendor refused our credentials (401/403) on its last call: its variables need fixing. */
  misconfigured: boolean;
  /** The last failure and its reason as the provider gave it. */
  last_error: { at: string; message: string } | null;
  /** While the vendor's Retry-After runs, calls are answered `rate_limited` without reaching it. */
  paused_until: string | null;
  /** Calls today (UTC), written by every process of the deployment. */
  calls_today: number;
  /**
   * What the vendor cost today and this calendar month (UTC), at the configured price per call, in its
   * currency; null for a source without a vendor (sandbox or not configured).
   */
  spend: { today: number; month: number; currency: string } | null;
}

export interface ProvidersResponse {
  providers: ProviderHealth[];
}
