import { z } from 'zod';
import type { Page } from '../accountability.ts';
import type {
  AdminCreateUserResponse,
  AdminCreditsResponse,
  AdminDecisionResponse,
  AdminSettings,
  AdminUser,
  AuditChainState,
  AuditEvent,
  LeakSourceSummary,
  ProviderHealth,
  ProvidersResponse,
} from '../admin.ts';
import { ACCOUNT_STATUSES, AUDIT_OUTCOMES } from '../admin.ts';
import { REGISTRATION_MODES } from '../auth.ts';
import { SOURCE_MODES } from '../catalogue/sources.ts';
import { fileDownload, isoTimestamp, openObject, pageOf } from './common.ts';
import { statementEntryResponse } from './history.ts';

/**
 * The operator API under /api/admin. Request schemas: `adminSettingsPatch`, `adminUsersQuery`,
 * `adminCreateUserRequest`, `adminUpdateUserRequest`, `adminCreditsRequest`, `auditQuery`,
 * `auditExportQuery`.
 */

export const adminSettingsResponse: z.ZodType<AdminSettings> = z.object({
  registration_enabled: z.boolean().describe('False only while registration_mode is closed.'),
  registration_mode: z
    .enum(REGISTRATION_MODES)
    .describe('open: new accounts sign in at once; approval: they wait for an admin; closed: no sign-up.'),
  case_reference_required: z.boolean(),
  second_factor_required: z
    .boolean()
    .describe('Every account must set up a second factor before it can use anything else.'),
  legal_basis_required: z
    .boolean()
    .describe(
      "Every search needs a legal basis: its case's, or one the search states itself (`legal_basis`).",
    ),
  registration_organisation_required: z
    .boolean()
    .describe('POST /api/register must give the organisation (agency).'),
  registration_designation_required: z.boolean().describe('POST /api/register must give the designation.'),
  registration_identity_reference_required: z
    .boolean()
    .describe('POST /api/register must give an official identity reference (badge, employee, press card).'),
  lookup_retention_days: z.number().int(),
  review_share_percent: z
    .number()
    .describe(
      "The share of searches (0 to 100 %) sampled into their searcher's supervisors' review queue afterwards.",
    ),
  approval_kinds: z
    .array(z.string())
    .describe('The search kinds held until a supervisor of the requester approves them.'),
  approval_hours: z.number().int().describe('Hours a held search waits for a decision before it expires.'),
  approval_bulk_rows: z
    .number()
    .int()
    .describe(
      "A bulk job of more rows than this waits for a supervisor's approval before it is queued; 0: none waits.",
    ),
});

const latency = z.object({
  p50: z.number().nullable(),
  p95: z.number().nullable(),
  p99: z.number().nullable(),
});

const providerHealth: z.ZodType<ProviderHealth> = z
  .object({
    id: z.string(),
    source: z.string(),
    kinds: z.array(z.string()).readonly(),
    sandbox: z.boolean(),
    calls: z.number().int(),
    failures: z.number().int(),
    timeouts: z.number().int(),
    notFound: z.number().int(),
    rejectedOpen: z.number().int(),
    latency,
    breaker: z.enum(['closed', 'open', 'half-open', 'isolated']),
    mode: z.enum(SOURCE_MODES).describe('Who answers the source: a live vendor, the sandbox, or nobody.'),
    vendor: z.string().nullable().describe('The vendor of a live provider.'),
    env_prefix: z
      .string()
      .nullable()
      .describe('The prefix of the vendor’s environment variables, e.g. HIBP.'),
    success_rate: z
      .number()
      .nullable()
      .describe('Answers (payload or no record) over calls since the server started; null without calls.'),
    misconfigured: z.boolean().describe('The vendor refused the credentials (401/403) on its last call.'),
    last_error: z.object({ at: isoTimestamp, message: z.string() }).nullable(),
    paused_until: isoTimestamp.nullable().describe('The vendor’s Retry-After, while it runs.'),
    calls_today: z.number().int().describe('Calls today (UTC), from the usage table.'),
    spend: z
      .object({ today: z.number(), month: z.number(), currency: z.string() })
      .nullable()
      .describe(
        'Vendor spend today and this calendar month (UTC) at the configured price per call; null without a vendor.',
      ),
  })
  .meta({ id: 'ProviderHealth' });

/**
 * Provider health per source: calls, failures, timeouts, latency percentiles, breaker state, mode,
 * vendor, last error and spend; sources nobody answers are listed with mode `not_configured`.
 */
export const providersResponse: z.ZodType<ProvidersResponse> = z.object({
  providers: z.array(providerHealth),
});

const leakSource: z.ZodType<LeakSourceSummary> = z.object({
  id: z.string(),
  name: z.string(),
  breach_date: z.string().nullable(),
  description: z.string().nullable(),
  record_count: z.number().int(),
  imported_at: isoTimestamp.nullable(),
  created_at: isoTimestamp,
});

export const leakSourcesResponse = z.object({ data: z.array(leakSource), total: z.number().int() });

export const adminUserResponse: z.ZodType<AdminUser> = z
  .object({
    id: z.string(),
    name: z.string(),
    email: z.string(),
    role: z.enum(['user', 'admin']),
    app_mode: z.enum(['live', 'trial']),
    status: z
      .enum(ACCOUNT_STATUSES)
      .describe('pending: waits for an admin to approve it; rejected: an admin refused it.'),
    credits: z.number().int(),
    created_at: isoTimestamp,
    updated_at: isoTimestamp,
    last_login_at: isoTimestamp.nullable(),
    email_verified_at: isoTimestamp.nullable(),
    organisation: z.string().nullable().describe('The organisation (agency) the sign-up gave.'),
    designation: z.string().nullable().describe('The designation (rank or job title) the sign-up gave.'),
    identity_reference: z
      .string()
      .nullable()
      .describe('The official identity reference (badge, employee or press-card number) the sign-up gave.'),
  })
  .meta({ id: 'AdminUser' });

export const adminUsersPageResponse: z.ZodType<Page<AdminUser>> = pageOf(adminUserResponse);

/** GET and PATCH /api/admin/users/{id}. */
export const adminUserEnvelopeResponse = z.object({ user: adminUserResponse });

/** POST /api/admin/users/{id}/approve and /reject. */
export const adminDecisionResponse: z.ZodType<AdminDecisionResponse> = z.object({
  user: adminUserResponse,
  notified: z.boolean().describe('Whether the e-mail telling the user was handed to the mail server.'),
});

/** POST /api/admin/users: status 201. */
export const adminCreateUserResponse: z.ZodType<AdminCreateUserResponse> = z.object({
  user: adminUserResponse,
  temporary_password: z
    .string()
    .optional()
    .describe('Only when no password was given: shown once, never stored in clear.'),
});

export const adminCreditsResponse: z.ZodType<AdminCreditsResponse> = z.object({
  user: adminUserResponse,
  entry: statementEntryResponse,
});

const auditEvent: z.ZodType<AuditEvent> = z.object({
  id: z.number().int(),
  at: isoTimestamp,
  user_id: z.string().nullable(),
  actor_email: z.string().nullable(),
  ip: z.string().nullable(),
  device_id: z.string().nullable(),
  action: z.string(),
  target: z.string().nullable(),
  cost: z.number().int().nullable(),
  outcome: z
    .enum(AUDIT_OUTCOMES)
    .describe('`no_record`: a search whose sources answered and found nothing (not a failure).'),
  case_reference: z.string().nullable(),
  details: openObject<Record<string, unknown>>('What the action recorded.').nullable(),
  query_typed: z.string().nullable().describe("A search's query as the user typed it; null otherwise."),
  query_normalized: z.string().nullable().describe("A search's normalized query; null otherwise."),
});

export const auditPageResponse: z.ZodType<Page<AuditEvent>> = pageOf(auditEvent);

const chainHash = z.string().describe('Lower-case hex SHA-256.');

export const auditChainResponse: z.ZodType<AuditChainState> = z.object({
  status: z
    .enum(['intact', 'checking', 'broken'])
    .describe(
      'intact: verified through the newest checkpoint; checking: verified part of the way, ask again.',
    ),
  rows_verified: z.number().int().describe('Rows verified from the first row through verified_through.'),
  verified_through: z
    .object({ id: z.number().int(), at: isoTimestamp.nullable(), hash: chainHash })
    .nullable()
    .describe(
      'The last row verified and its hash: the chain hash of a row before 0027, the Merkle leaf hash of a later one; null when none is yet.',
    ),
  head: z
    .object({ id: z.number().int(), hash: chainHash })
    .describe('The end of the legacy hash chain: the last row chained before migration 0027 (id 0: none).'),
  broken: z
    .object({
      id: z.number().int(),
      at: isoTimestamp.nullable(),
      reason: z
        .enum(['content', 'link', 'head', 'checkpoint'])
        .describe(
          'content: the row was changed; link: rows before it were removed or added; head: rows at the end of the legacy chain were removed; checkpoint: rows sealed by a checkpoint were changed, removed or inserted, or the checkpoint was.',
        ),
      message: z.string(),
    })
    .nullable()
    .describe('The first broken row; null while the chain holds.'),
  tree_size: z
    .number()
    .int()
    .describe("Rows sealed into the trail's Merkle tree (the newest checkpoint's size)."),
  pending: z.number().int().describe('Rows written after the newest checkpoint: not sealed yet.'),
  checkpoint: z
    .object({
      tree_size: z.number().int(),
      last_id: z.number().int(),
      root_hash: chainHash,
      at: isoTimestamp,
    })
    .nullable()
    .describe('The newest signed checkpoint (null: nothing sealed yet).'),
  checked_at: isoTimestamp,
});

export const auditCsvResponse = fileDownload(
  'text/csv',
  'The filtered trail as CSV, newest first; the row count is in X-Audit-Rows.',
);
