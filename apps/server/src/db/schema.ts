import {
  BULK_STATUSES,
  DETAIL_KINDS,
  LEGAL_BASIS_KINDS,
  type LegalBasis,
  SEARCH_KINDS,
} from '@footprint/domain';
import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  bigint,
  bigserial,
  boolean,
  check,
  customType,
  date,
  index,
  integer,
  jsonb,
  numeric,
  pgSequence,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

/** The legal basis kinds, as the `cases` check lists them (the domain's LEGAL_BASIS_KINDS). */
const legalBasisKindList = sql.raw(LEGAL_BASIS_KINDS.map((kind) => `'${kind}'`).join(', '));

/** The paid search kinds, as the `lookups.kind` check lists them (the domain's SEARCH_KINDS). */
const searchKindList = sql.raw(SEARCH_KINDS.map((kind) => `'${kind}'`).join(', '));

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    /** Stored lower-cased; the unique index on lower(email) keeps it case-insensitive even if that slips. */
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    role: text('role', { enum: ['user', 'admin'] })
      .notNull()
      .default('user'),
    appMode: text('app_mode', { enum: ['live', 'trial'] })
      .notNull()
      .default('trial'),
    /** pending: registered, waiting for an admin's approval; rejected: an admin refused it. */
    status: text('status', { enum: ['active', 'disabled', 'pending', 'rejected'] })
      .notNull()
      .default('active'),
    /** Credits are money: the CHECK makes an overdraft impossible whatever the code does. */
    credits: integer('credits').notNull().default(0),
    emailVerifiedAt: timestamp('email_verified_at', { withTimezone: true }),
    /** Set when a sign-in issues a token (password on a trusted device, or OTP). */
    lastLoginAt: timestamp('last_login_at', { withTimezone: true }),
    /** What the sign-up gave for an approver to judge; null when not given (or made by an admin). */
    organisation: text('organisation'),
    designation: text('designation'),
    /** A badge, employee or press-card number. */
    identityReference: text('identity_reference'),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('users_email_lower_key').on(sql`lower(${t.email})`),
    check('users_credits_non_negative', sql`${t.credits} >= 0`),
    check('users_role_valid', sql`${t.role} in ('user', 'admin')`),
    check('users_app_mode_valid', sql`${t.appMode} in ('live', 'trial')`),
    check('users_status_valid', sql`${t.status} in ('active', 'disabled', 'pending', 'rejected')`),
  ],
);

export const authTokens = pgTable(
  'auth_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** SHA-256 of the bearer token; the token itself is never stored. */
    tokenHash: text('token_hash').notNull(),
    deviceId: text('device_id'),
    ip: text('ip'),
    userAgent: text('user_agent'),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('auth_tokens_token_hash_key').on(t.tokenHash),
    index('auth_tokens_user_idx').on(t.userId),
  ],
);

/**
 * API keys (docs/api.md): a user's long-lived bearer for scripts, limited to its scopes. Only the
 * SHA-256 of the key is kept (like auth_tokens); `prefix` is its first characters, to recognise it in
 * the list. Revoking sets `revoked_at`; the row stays, so the audit trail and the lookups it made
 * keep their key.
 */
export const apiKeys = pgTable(
  'api_keys',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    keyHash: text('key_hash').notNull(),
    prefix: text('prefix').notNull(),
    /** The domain's API_KEY_SCOPES the key may reach. */
    scopes: jsonb('scopes').$type<string[]>().notNull(),
    /** Credits the key's searches may spend per calendar month (UTC); null: no cap. */
    monthlyCreditCap: integer('monthly_credit_cap'),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('api_keys_key_hash_key').on(t.keyHash),
    index('api_keys_user_idx').on(t.userId),
    check('api_keys_cap_positive', sql`${t.monthlyCreditCap} is null or ${t.monthlyCreditCap} > 0`),
  ],
);

/**
 * A browser that proved a mailed code or a second factor. The device id names it (it is not secret:
 * it is in the audit trail); what proves it is the secret the server issued then, held by the browser
 * in an HttpOnly cookie and stored here only as its SHA-256.
 */
export const trustedDevices = pgTable(
  'trusted_devices',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    deviceId: text('device_id').notNull(),
    secretHash: text('secret_hash').notNull(),
    userAgent: text('user_agent'),
    ip: text('ip'),
    createdAt: createdAt(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    uniqueIndex('trusted_devices_user_device_key').on(t.userId, t.deviceId),
    uniqueIndex('trusted_devices_secret_hash_key').on(t.secretHash),
  ],
);

/** An authenticator app (TOTP): its secret encrypted under the app key; confirmed once a code proved it. */
export const userTotp = pgTable('user_totp', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  secretEncrypted: text('secret_encrypted').notNull(),
  confirmedAt: timestamp('confirmed_at', { withTimezone: true }),
  /** The 30-second step of the last accepted code: a code of this step or an earlier one is refused. */
  lastUsedStep: bigint('last_used_step', { mode: 'number' }).notNull().default(0),
  createdAt: createdAt(),
});

/** Single-use recovery codes, stored only as their HMAC under the app key. */
export const recoveryCodes = pgTable(
  'recovery_codes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    createdAt: createdAt(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [
    index('recovery_codes_user_idx').on(t.userId),
    uniqueIndex('recovery_codes_code_hash_key').on(t.codeHash),
  ],
);

/** WebAuthn credentials (passkeys, security keys) registered as a second factor. */
export const passkeys = pgTable(
  'passkeys',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The credential id, base64url, as the authenticator reports it. */
    credentialId: text('credential_id').notNull(),
    /** The COSE public key, base64url. */
    publicKey: text('public_key').notNull(),
    counter: bigint('counter', { mode: 'number' }).notNull().default(0),
    transports: jsonb('transports').$type<string[]>(),
    name: text('name').notNull(),
    createdAt: createdAt(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('passkeys_credential_id_key').on(t.credentialId),
    index('passkeys_user_idx').on(t.userId),
  ],
);

/**
 * A second-factor step in progress: `sign_in` after a correct password (its token stands in for the
 * password until the factor is shown), or `passkey_registration` for a signed-in user adding a passkey.
 */
export const secondFactorChallenges = pgTable(
  'second_factor_challenges',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    purpose: text('purpose', { enum: ['sign_in', 'passkey_registration'] }).notNull(),
    /** SHA-256 of the sign-in token handed to the browser (sign_in only). */
    tokenHash: text('token_hash'),
    deviceId: text('device_id'),
    /** The WebAuthn challenge last issued for this step, base64url. */
    webauthnChallenge: text('webauthn_challenge'),
    attempts: integer('attempts').notNull().default(0),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    consumedAt: timestamp('consumed_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('second_factor_challenges_token_hash_key').on(t.tokenHash),
    index('second_factor_challenges_user_idx').on(t.userId, t.createdAt),
    check('second_factor_challenges_purpose_valid', sql`${t.purpose} in ('sign_in', 'passkey_registration')`),
  ],
);

export const otpChallenges = pgTable(
  'otp_challenges',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    deviceId: text('device_id'),
    /** HMAC-SHA256 of the code under the app key. */
    codeHash: text('code_hash').notNull(),
    attempts: integer('attempts').notNull().default(0),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    consumedAt: timestamp('consumed_at', { withTimezone: true }),
  },
  (t) => [index('otp_challenges_user_idx').on(t.userId, t.createdAt)],
);

export const passwordResets = pgTable(
  'password_resets',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('password_resets_token_hash_key').on(t.tokenHash)],
);

/**
 * The credit ledger. Every change of users.credits or of a unit's pool (units.credits) has exactly
 * one row here, written in the same transaction, so that a user's balance always equals the sum of
 * their rows without a unit, and a pool's the sum of its rows.
 */
export const creditEntries = pgTable(
  'credit_entries',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    /** Whose balance changed, or whose search a pool paid; null only for a pool's own top-up. */
    userId: uuid('user_id').references(() => users.id, { onDelete: 'restrict' }),
    /**
     * The unit pool that paid or was topped up; null: the user's own balance. A pool's balance is the
     * sum of its rows, a user's the sum of their rows without a unit.
     */
    unitId: uuid('unit_id').references((): AnyPgColumn => units.id, { onDelete: 'restrict' }),
    delta: integer('delta').notNull(),
    balanceAfter: integer('balance_after').notNull(),
    kind: text('kind', { enum: ['grant', 'charge', 'refund', 'adjustment'] }).notNull(),
    reason: text('reason').notNull(),
    lookupId: uuid('lookup_id'),
    actorId: uuid('actor_id'),
    createdAt: createdAt(),
  },
  (t) => [
    index('credit_entries_user_idx').on(t.userId, t.id),
    index('credit_entries_unit_idx').on(t.unitId, t.id).where(sql`${t.unitId} is not null`),
    check('credit_entries_has_holder', sql`${t.userId} is not null or ${t.unitId} is not null`),
    check('credit_entries_kind_valid', sql`${t.kind} in ('grant', 'charge', 'refund', 'adjustment')`),
    check('credit_entries_balance_non_negative', sql`${t.balanceAfter} >= 0`),
  ],
);

export const settings = pgTable('settings', {
  key: text('key').primaryKey(),
  value: jsonb('value').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  updatedBy: uuid('updated_by'),
});

/** Mail kept on the embedded default when no SMTP server is configured; read at /dev/outbox. */
export const mailOutbox = pgTable(
  'mail_outbox',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    to: text('to').notNull(),
    subject: text('subject').notNull(),
    text: text('text').notNull(),
    html: text('html'),
    createdAt: createdAt(),
  },
  (t) => [index('mail_outbox_created_idx').on(t.createdAt)],
);

/**
 * One row per lookup of any kind, cache hits included (cost 0, `cacheOf` the original), so that every
 * search is attributable to a user, a time and a query. The charge for a row is written in the same
 * transaction as the row itself.
 */
export const lookups = pgTable(
  'lookups',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    /** One of the domain's search kinds (checked below; a new kind needs `npm run db:generate`). */
    kind: text('kind').notNull(),
    /** The normalized query (e.g. '919876543210', 'a@b.co', 'MH12AB1234'): what matching and the cache use. */
    query: text('query').notNull(),
    /**
     * The query as the user typed it, for history, the audit trail and the CSV export (for intel, the
     * filled fields: 'RC Number: MH12AB1234'); cleaned of control characters and capped
     * (domain cleanTypedQuery). Rows from before it existed were backfilled with `query`.
     */
    queryTyped: text('query_typed').notNull(),
    cost: integer('cost').notNull(),
    /** `no_record`: the sources answered and found nothing, a neutral outcome (charged unless refunded). */
    status: text('status', { enum: ['pending', 'complete', 'no_record', 'refunded'] })
      .notNull()
      .default('pending'),
    sourcesAnswered: jsonb('sources_answered').$type<string[]>().notNull().default([]),
    sourceErrors: jsonb('source_errors').$type<Record<string, string>>().notNull().default({}),
    /** The answer as sent, kept for the retention period (cache, history, reports), then purged. */
    result: jsonb('result'),
    /** When the retention purge removed `result`; the row itself (who, what, when) stays. */
    resultPurgedAt: timestamp('result_purged_at', { withTimezone: true }),
    sandbox: boolean('sandbox').notNull().default(false),
    cacheOf: uuid('cache_of'),
    caseReference: text('case_reference'),
    /**
     * The legal basis the search stated itself (`legal_basis` on the search request), from the same
     * kinds as a case's; null when it relies on its case's basis or needed none. Reports print it
     * before the case's.
     */
    legalBasis: jsonb('legal_basis').$type<LegalBasis>(),
    ip: text('ip'),
    deviceId: text('device_id'),
    /** The API key the search was made with (null: the web app); its monthly cap counts these rows. */
    apiKeyId: uuid('api_key_id').references(() => apiKeys.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    completedAt: timestamp('completed_at', { withTimezone: true }),
  },
  (t) => [
    index('lookups_user_kind_query_idx').on(t.userId, t.kind, t.query, t.createdAt),
    index('lookups_created_idx').on(t.createdAt),
    // A capped key's spend this month, read before each of its charges.
    index('lookups_api_key_idx').on(t.apiKeyId, t.createdAt).where(sql`${t.apiKeyId} is not null`),
    // The purge's own index: only rows that still hold a result, so each run reads just what is due.
    index('lookups_result_kept_idx').on(t.createdAt).where(sql`${t.result} is not null`),
    // The reuse check (searches/reuse.ts): the newest answer still held, without walking the free
    // repeats of it (which hold no result of their own).
    index('lookups_reusable_idx')
      .on(t.userId, t.kind, t.query, t.createdAt)
      .where(sql`${t.result} is not null`),
    check('lookups_cost_non_negative', sql`${t.cost} >= 0`),
    check('lookups_status_valid', sql`${t.status} in ('pending', 'complete', 'no_record', 'refunded')`),
    check('lookups_kind_valid', sql`${t.kind} in (${searchKindList})`),
  ],
);

/**
 * The audit trail: who did what, when, from where, at what cost and with what outcome. Append-only:
 * a trigger in the migration makes the database itself refuse UPDATE, DELETE and TRUNCATE, and on
 * PostgreSQL the table belongs to the `footprint_owner` role, the app's role may only INSERT and SELECT.
 * Tamper-evident: since migration 0027 the rows are sealed, in id order and in batches, into a
 * Merkle tree whose signed checkpoints are kept in `audit_checkpoints` and outside the database
 * (modules/audit/sealer.ts). Rows written before 0027 also keep the hash chain of migration 0014
 * (`prev_hash`, `hash`, ending at `audit_chain_head`); newer rows leave both NULL. An insert takes no
 * lock besides its own row: the id comes from the column default (`audit_next_id()`), which first
 * gives the transaction its xid, so the sealer can tell when every id below a horizon is final.
 */
export const auditEvents = pgTable(
  'audit_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    userId: uuid('user_id'),
    actorEmail: text('actor_email'),
    ip: text('ip'),
    deviceId: text('device_id'),
    action: text('action').notNull(),
    target: text('target'),
    cost: integer('cost'),
    /** `no_record`: a search whose sources answered and found nothing (neutral, not a failure). */
    outcome: text('outcome', { enum: ['success', 'no_record', 'failure', 'denied'] }).notNull(),
    caseReference: text('case_reference'),
    details: jsonb('details'),
    /** Rows before 0027: the previous row's `hash` (64 zeros for the first row). NULL since. */
    prevHash: text('prev_hash'),
    /** Rows before 0027: SHA-256 of prev_hash and this row's canonical content. NULL since. */
    hash: text('hash'),
  },
  (t) => [
    index('audit_events_at_idx').on(t.at),
    index('audit_events_user_idx').on(t.userId, t.at),
    index('audit_events_action_idx').on(t.action, t.at),
    // A case's rows for its evidence bundle: its searches' (details.case_id) and its own actions.
    index('audit_events_case_idx').on(sql`(${t.details}->>'case_id')`),
    index('audit_events_case_target_idx').on(t.target).where(sql`${t.action} like 'case.%'`),
    check('audit_events_outcome_valid', sql`${t.outcome} in ('success', 'no_record', 'failure', 'denied')`),
  ],
);

/**
 * The end of the legacy hash chain (migration 0014): the last row chained before 0027, frozen since.
 * A verifier that finds that segment ending before it knows rows were cut.
 */
export const auditChainHead = pgTable(
  'audit_chain_head',
  {
    id: integer('id').primaryKey().default(1),
    lastId: bigint('last_id', { mode: 'number' }).notNull(),
    hash: text('hash').notNull(),
  },
  (t) => [check('audit_chain_head_single_row', sql`${t.id} = 1`)],
);

/**
 * The audit trail's Merkle tree (RFC 6962) as the sealer grew it: one row per sealing round, append-only.
 * The first `tree_size` rows of `audit_events` in id order (the last being `last_id`) hash to
 * `root_hash`; `frontier` is the right edge of that tree (the roots of its perfect subtrees, largest
 * first, hex), from which the next round goes on without reading older rows; `note` is the C2SP
 * signed checkpoint of this size (modules/audit/checkpoint.ts).
 */
export const auditCheckpoints = pgTable('audit_checkpoints', {
  treeSize: bigint('tree_size', { mode: 'number' }).primaryKey(),
  lastId: bigint('last_id', { mode: 'number' }).notNull(),
  rootHash: text('root_hash').notNull(),
  frontier: jsonb('frontier').$type<string[]>().notNull(),
  at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  note: text('note').notNull(),
});

/**
 * Signed checkpoints handed outside the database (AUDIT_CHECKPOINT_FILE, AUDIT_CHECKPOINT_EMAIL):
 * one row per hand-over, so that several server processes hand over once per period between them.
 */
export const auditAnchors = pgTable('audit_anchors', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  treeSize: bigint('tree_size', { mode: 'number' }).notNull(),
  at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  destinations: text('destinations').notNull(),
});

/** Every generated PDF: its id is printed in the file, its SHA-256 lets a holder check the file. */
/** What a row of `reports` is the file of. */
export const REPORT_KINDS = [
  'lookup',
  'ai',
  ...DETAIL_KINDS,
  'credit_report',
  'case_summary',
  'case_bundle',
] as const;

const reportKindList = sql.raw(REPORT_KINDS.map((kind) => `'${kind}'`).join(', '));

export const reports = pgTable(
  'reports',
  {
    id: uuid('id').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    lookupId: uuid('lookup_id').references(() => lookups.id, { onDelete: 'restrict' }),
    /**
     * `case_summary` and `case_bundle`: a case's summary PDF and its evidence bundle (a ZIP, GET
     * /api/cases/{id}/bundle), with no lookup of their own.
     */
    kind: text('kind', { enum: REPORT_KINDS }).notNull(),
    fileName: text('file_name').notNull(),
    sha256: text('sha256').notNull(),
    bytes: integer('bytes').notNull(),
    writer: text('writer'),
    createdAt: createdAt(),
  },
  (t) => [
    index('reports_sha256_idx').on(t.sha256),
    index('reports_user_idx').on(t.userId, t.createdAt),
    check('reports_kind_valid', sql`${t.kind} in (${reportKindList})`),
  ],
);

/**
 * Cases: an investigation that collects searches (case_items), the people on it (case_members, the
 * owner always included), append-only notes and the legal basis its searches stand on. A user's cases
 * have distinct references (compared without regard to case): a search carrying a reference files
 * itself under the case of that reference.
 */
export const cases = pgTable(
  'cases',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    ownerId: uuid('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    title: text('title').notNull(),
    reference: text('reference').notNull(),
    status: text('status', { enum: ['open', 'closed'] })
      .notNull()
      .default('open'),
    /**
     * The legal basis: its kind (domain LEGAL_BASIS_KINDS), the reference made of its facts, its
     * purpose (all three or none), and the facts its kind asks for (null on a basis given before
     * kinds had facts, and for an editorial assignment).
     */
    legalBasisKind: text('legal_basis_kind'),
    legalBasisNumber: text('legal_basis_number'),
    legalBasisPurpose: text('legal_basis_purpose'),
    legalBasisFields: jsonb('legal_basis_fields').$type<Record<string, string | number | string[]>>(),
    /** A legal hold: while set, the results of the case's searches outlive every retention period. */
    legalHoldAt: timestamp('legal_hold_at', { withTimezone: true }),
    legalHoldBy: uuid('legal_hold_by').references((): AnyPgColumn => users.id, { onDelete: 'set null' }),
    legalHoldReason: text('legal_hold_reason'),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('cases_owner_reference_idx').on(t.ownerId, sql`lower(${t.reference})`),
    check('cases_status_valid', sql`${t.status} in ('open', 'closed')`),
    check(
      'cases_legal_basis_valid',
      sql`(${t.legalBasisKind} is null and ${t.legalBasisNumber} is null and ${t.legalBasisPurpose} is null)
        or (${t.legalBasisKind} in (${legalBasisKindList})
          and ${t.legalBasisNumber} is not null and ${t.legalBasisPurpose} is not null)`,
    ),
  ],
);

/** Users the owner added to a case: they see it and add to it. The owner is not listed here. */
export const caseMembers = pgTable(
  'case_members',
  {
    caseId: uuid('case_id')
      .notNull()
      .references(() => cases.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    addedBy: uuid('added_by').references(() => users.id, { onDelete: 'set null' }),
    addedAt: timestamp('added_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.caseId, t.userId] }), index('case_members_user_idx').on(t.userId)],
);

/**
 * Units: the tree an agency is organised in (domain units.ts). A unit's level is its depth; the admin
 * names the levels (settings `unit_levels`). `unit_paths` is the tree's closure (every ancestor and
 * descendant pair, a unit with itself at distance 0), kept by triggers of migration 0029 on insert
 * and on a change of `parent_id`, so "the units below" is one join, never a recursive walk.
 */
export const units = pgTable(
  'units',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    parentId: uuid('parent_id').references((): AnyPgColumn => units.id, { onDelete: 'restrict' }),
    name: text('name').notNull(),
    /** 0 at the top; set by the trigger from the parent's. */
    depth: integer('depth').notNull().default(0),
    /** New accounts join it; the accounts from before units were placed in it. At most one. */
    isDefault: boolean('is_default').notNull().default(false),
    /**
     * Days its members' stored results are kept; null: the deployment's period (the ceiling). The
     * purge keeps a result for the shortest period of its searcher's units, never past the ceiling.
     */
    retentionDays: integer('retention_days'),
    /** The unit's credit pool (modules/credits): its members' searches draw on it within their allowance. */
    credits: integer('credits').notNull().default(0),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('units_sibling_name_idx').on(
      sql`coalesce(${t.parentId}, '00000000-0000-0000-0000-000000000000'::uuid)`,
      sql`lower(${t.name})`,
    ),
    uniqueIndex('units_one_default_idx').on(t.isDefault).where(sql`${t.isDefault}`),
    check(
      'units_retention_days_valid',
      sql`${t.retentionDays} is null or ${t.retentionDays} between 1 and 3650`,
    ),
    check('units_credits_non_negative', sql`${t.credits} >= 0`),
    index('units_parent_idx').on(t.parentId),
  ],
);

export const unitPaths = pgTable(
  'unit_paths',
  {
    ancestorId: uuid('ancestor_id')
      .notNull()
      .references(() => units.id, { onDelete: 'cascade' }),
    descendantId: uuid('descendant_id')
      .notNull()
      .references(() => units.id, { onDelete: 'cascade' }),
    distance: integer('distance').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.ancestorId, t.descendantId] }),
    index('unit_paths_descendant_idx').on(t.descendantId),
  ],
);

/** Who belongs to a unit, and as what (domain UNIT_ROLES). */
export const unitMembers = pgTable(
  'unit_members',
  {
    unitId: uuid('unit_id')
      .notNull()
      .references(() => units.id, { onDelete: 'restrict' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    role: text('role', { enum: ['investigator', 'supervisor', 'unit_admin'] }).notNull(),
    /** Credits a month the member may draw from the unit's pool; 0: none (their searches use their own). */
    monthlyAllowance: integer('monthly_allowance').notNull().default(0),
    /** Drawn from the pool in `allowance_month` (a month's first day, UTC); a new month starts at 0. */
    allowanceUsed: integer('allowance_used').notNull().default(0),
    allowanceMonth: date('allowance_month', { mode: 'string' }),
    addedBy: uuid('added_by').references(() => users.id, { onDelete: 'set null' }),
    addedAt: timestamp('added_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.unitId, t.userId] }),
    index('unit_members_user_idx').on(t.userId),
    check('unit_members_role_valid', sql`${t.role} in ('investigator', 'supervisor', 'unit_admin')`),
    check(
      'unit_members_allowance_valid',
      sql`${t.monthlyAllowance} between 0 and 100000000 and ${t.allowanceUsed} >= 0`,
    ),
  ],
);

/** Cases shared with a unit: its members, and those of the units below it, see the case. */
export const caseUnits = pgTable(
  'case_units',
  {
    caseId: uuid('case_id')
      .notNull()
      .references(() => cases.id, { onDelete: 'cascade' }),
    unitId: uuid('unit_id')
      .notNull()
      .references(() => units.id, { onDelete: 'cascade' }),
    sharedBy: uuid('shared_by').references(() => users.id, { onDelete: 'set null' }),
    sharedAt: timestamp('shared_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.caseId, t.unitId] }), index('case_units_unit_idx').on(t.unitId)],
);

/**
 * Searches sampled for review after the fact (modules/reviews): drawn by the sampler at the admin's
 * share, reviewed once by a supervisor of the searcher (in order or questioned, with a note). Never
 * purged with the results: a review outlives the result it was about.
 */
export const reviewSamples = pgTable(
  'review_samples',
  {
    lookupId: uuid('lookup_id')
      .primaryKey()
      .references(() => lookups.id, { onDelete: 'restrict' }),
    sampledAt: timestamp('sampled_at', { withTimezone: true }).notNull().defaultNow(),
    verdict: text('verdict', { enum: ['in_order', 'questioned'] }),
    note: text('note'),
    reviewerId: uuid('reviewer_id').references(() => users.id, { onDelete: 'set null' }),
    reviewedAt: timestamp('reviewed_at', { withTimezone: true }),
  },
  (t) => [
    index('review_samples_sampled_idx').on(t.sampledAt),
    check(
      'review_samples_verdict_valid',
      sql`${t.verdict} is null or ${t.verdict} in ('in_order', 'questioned')`,
    ),
    check('review_samples_reviewed_whole', sql`(${t.verdict} is null) = (${t.reviewedAt} is null)`),
  ],
);

/**
 * Sensitive searches held for a supervisor's approval (modules/approvals): what the requester asked,
 * under which case and legal basis, until a supervisor of theirs approves it (the search then runs as
 * theirs and is charged), rejects it (nothing is charged) or it expires. Never purged with results.
 */
export const searchApprovals = pgTable(
  'search_approvals',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    kind: text('kind').notNull(),
    query: text('query').notNull(),
    queryTyped: text('query_typed').notNull(),
    fresh: boolean('fresh').notNull().default(false),
    caseReference: text('case_reference'),
    /** The case's legal basis as every artefact prints it, when it had one. */
    legalBasis: text('legal_basis'),
    cost: integer('cost').notNull(),
    ip: text('ip'),
    deviceId: text('device_id'),
    apiKeyId: uuid('api_key_id'),
    /** What runs it once approved: the service and the request as that service takes it. */
    input: jsonb('input').notNull(),
    status: text('status', { enum: ['pending', 'approved', 'rejected', 'expired', 'failed'] })
      .notNull()
      .default('pending'),
    deciderId: uuid('decider_id').references(() => users.id, { onDelete: 'set null' }),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    note: text('note'),
    /** The search it ran once approved. */
    lookupId: uuid('lookup_id'),
    /** Why an approved search could not run (a short balance, no source): the refusal's message. */
    failure: text('failure'),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    index('search_approvals_user_idx').on(t.userId, t.createdAt),
    index('search_approvals_pending_idx').on(t.expiresAt).where(sql`${t.status} = 'pending'`),
    check(
      'search_approvals_status_valid',
      sql`${t.status} in ('pending', 'approved', 'rejected', 'expired', 'failed')`,
    ),
  ],
);

/** A case's notes: timestamped, attributed, append-only (a trigger refuses UPDATE and DELETE). */
export const caseNotes = pgTable(
  'case_notes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    caseId: uuid('case_id')
      .notNull()
      .references(() => cases.id, { onDelete: 'restrict' }),
    authorId: uuid('author_id')
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    body: text('body').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('case_notes_case_idx').on(t.caseId, t.createdAt)],
);

/**
 * The searches filed under a case: by the search itself (its case reference) or added afterwards
 * from a results page. `entities_read` says whether the search's entities are in lookup_entities.
 */
export const caseItems = pgTable(
  'case_items',
  {
    caseId: uuid('case_id')
      .notNull()
      .references(() => cases.id, { onDelete: 'restrict' }),
    lookupId: uuid('lookup_id')
      .notNull()
      .references(() => lookups.id, { onDelete: 'restrict' }),
    addedBy: uuid('added_by')
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    addedAt: timestamp('added_at', { withTimezone: true }).notNull().defaultNow(),
    entitiesRead: boolean('entities_read').notNull().default(false),
  },
  (t) => [primaryKey({ columns: [t.caseId, t.lookupId] }), index('case_items_lookup_idx').on(t.lookupId)],
);

/**
 * The typed entities of a stored search result (domain `entitiesOf`), read once when the search is
 * first shown in a case. Removed with the result by the retention purge.
 */
export const lookupEntities = pgTable(
  'lookup_entities',
  {
    lookupId: uuid('lookup_id')
      .notNull()
      .references(() => lookups.id, { onDelete: 'cascade' }),
    type: text('type').notNull(),
    value: text('value').notNull(),
    sources: jsonb('sources').$type<string[]>().notNull().default([]),
  },
  (t) => [
    primaryKey({ columns: [t.lookupId, t.type, t.value] }),
    index('lookup_entities_value_idx').on(t.type, t.value),
  ],
);

/**
 * The dated facts of a stored search result (domain `datesOf`: breach, registration, reported and
 * last-updated dates), read once with its entities when the search is first shown in a case, for the
 * case's timeline. Removed with the result by the retention purge.
 */
export const lookupDates = pgTable(
  'lookup_dates',
  {
    lookupId: uuid('lookup_id')
      .notNull()
      .references(() => lookups.id, { onDelete: 'cascade' }),
    /** 'YYYY-MM-DD' or an ISO date-time in UTC, as the timeline shows it. */
    at: text('at').notNull(),
    label: text('label').notNull(),
    source: text('source').notNull(),
  },
  (t) => [primaryKey({ columns: [t.lookupId, t.at, t.label, t.source] })],
);

/** A breach or dump that leak records came from. */
export const leakSources = pgTable('leak_sources', {
  id: uuid('id').primaryKey().defaultRandom(),
  name: text('name').notNull().unique(),
  breachDate: date('breach_date'),
  description: text('description'),
  recordCount: bigint('record_count', { mode: 'number' }).notNull().default(0),
  importedAt: timestamp('imported_at', { withTimezone: true }),
  /** Synthetic records from the sandbox generator (leaks:sandbox), not a real dump: answers say so. */
  sandbox: boolean('sandbox').notNull().default(false),
  /**
   * The leak_records partition (segment) holding this source's records: 0 is the shared,
   * hash-partitioned table; a source bulk-loaded as new has its own (leak_records_seg_<n>).
   */
  segment: integer('segment').notNull().default(0),
  createdAt: createdAt(),
});

/**
 * Leaked records with normalized search keys. The real table is PARTITIONED BY LIST (segment) in the
 * migrations (0004, leak_segments), which drizzle-kit cannot express; this definition is for typed
 * queries. Segment 0 (leak_records_shared) is itself PARTITIONED BY HASH (record_hash); a bulk-loaded
 * source gets a segment of its own (see modules/leaks/import/README.md). `record_hash` is a digest of
 * the source and the record's content, unique per source within its segment: importing a file twice
 * adds nothing.
 */
export const leakRecords = pgTable('leak_records', {
  id: bigint('id', { mode: 'number' }).notNull(),
  sourceId: uuid('source_id').notNull(),
  recordHash: text('record_hash').notNull(),
  name: text('name'),
  email: text('email'),
  phone: text('phone'),
  username: text('username'),
  address: text('address'),
  other: jsonb('other').$type<Record<string, string>>(),
  emailNorm: text('email_norm'),
  phoneNorm: text('phone_norm'),
  usernameNorm: text('username_norm'),
  nameTokens: text('name_tokens').array(),
  segment: integer('segment').notNull().default(0),
});

/** Numbers of the segments bulk loads create (segment 0 is the shared table). */
export const leakSegmentSeq = pgSequence('leak_segment_seq', { startWith: 1 });

/**
 * A bulk load of a new source in progress: its records go into a standalone table without secondary
 * indexes (leak_records_seg_<segment>), which is indexed and attached to leak_records at the end, then
 * this row is deleted. `file_fingerprint` ties the load to its file, so that a re-run after a crash
 * resumes only from the same file.
 */
export const leakBulkLoads = pgTable('leak_bulk_loads', {
  sourceId: uuid('source_id')
    .primaryKey()
    .references(() => leakSources.id, { onDelete: 'cascade' }),
  segment: integer('segment').notNull(),
  fileFingerprint: text('file_fingerprint').notNull(),
  startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * The checkpoint of a bulk load: the data rows (numbered from 0, rejects included) of every batch
 * committed, written in the batch's own transaction. A re-run skips the rows of these ranges.
 */
export const leakBulkBatches = pgTable(
  'leak_bulk_batches',
  {
    sourceId: uuid('source_id')
      .notNull()
      .references(() => leakBulkLoads.sourceId, { onDelete: 'cascade' }),
    firstRow: bigint('first_row', { mode: 'number' }).notNull(),
    lastRow: bigint('last_row', { mode: 'number' }).notNull(),
    rows: integer('rows').notNull(),
  },
  (t) => [primaryKey({ columns: [t.sourceId, t.firstRow] })],
);

/**
 * What each provider was called and what it cost, per UTC day, so that vendor spend survives a
 * restart. Written only by the usage recorder (modules/usage): calls are counted in memory and added
 * here by one aggregated upsert every few seconds and on shutdown, never a statement per call. Only
 * calls that reached the provider count; sandbox rows have no vendor, no currency and no spend.
 */
export const providerUsage = pgTable(
  'provider_usage',
  {
    /** The runner's provider id, e.g. 'hibp:hibpData' or 'sandbox:wpData'. */
    providerId: text('provider_id').notNull(),
    /** The vendor behind a live provider ('hibp'); null for the sandbox. */
    vendorId: text('vendor_id'),
    /** The UTC day of the calls. */
    day: date('day').notNull(),
    calls: integer('calls').notNull().default(0),
    /** Calls answered with a payload or a definite "no record". */
    successes: integer('successes').notNull().default(0),
    /** Calls that failed, timed out or were rate limited by the vendor. */
    failures: integer('failures').notNull().default(0),
    /** Each call at the price configured when it was made (`<PREFIX>_COST_PER_CALL`), in `currency`. */
    spend: numeric('spend', { precision: 20, scale: 6 }).notNull().default('0'),
    /** ISO 4217 code of `spend`; null for the sandbox. */
    currency: text('currency'),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: 'provider_usage_pkey', columns: [t.providerId, t.day] }),
    // The Providers screen reads the current month of every provider.
    index('provider_usage_day_idx').on(t.day),
    check(
      'provider_usage_counts_valid',
      sql`${t.successes} >= 0 and ${t.failures} >= 0 and ${t.calls} = ${t.successes} + ${t.failures}`,
    ),
    check('provider_usage_spend_non_negative', sql`${t.spend} >= 0`),
  ],
);

/**
 * The sign-in throttles' counters (security/rate-limit.ts) when no Redis is configured, so that
 * limits survive a restart. The shape is rate-limiter-flexible's RateLimiterDrizzle store: one row per
 * limiter key (`fp:<limit>:<key>`), the points spent in the current window and when it ends (or when
 * a block ends). Rows past their expiry are ignored and swept by the limiter every few minutes.
 */
export const rateLimits = pgTable(
  'rate_limits',
  {
    key: text('key').primaryKey(),
    points: integer('points').notNull(),
    expire: timestamp('expire', { withTimezone: true }),
  },
  (t) => [index('rate_limits_expire_idx').on(t.expire)],
);

/**
 * Watchlists (modules/watchlists): a phone, e-mail or leak query the user asked to run again on a
 * schedule. `query` is the normalized query the search takes (a leak search: its conditions' key),
 * `query_typed` how the user gave it. `last_snapshot` is the comparable facts of the last run that
 * answered (domain watchlists.ts); a run is claimed by moving `next_run_at` forward atomically.
 */
export const watches = pgTable(
  'watches',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['tel', 'email', 'username', 'leak'] }).notNull(),
    query: text('query').notNull(),
    queryTyped: text('query_typed').notNull(),
    caseReference: text('case_reference'),
    schedule: text('schedule', { enum: ['daily', 'weekly'] }).notNull(),
    status: text('status', { enum: ['active', 'paused', 'stopped_no_credits'] })
      .notNull()
      .default('active'),
    nextRunAt: timestamp('next_run_at', { withTimezone: true }).notNull(),
    lastRunAt: timestamp('last_run_at', { withTimezone: true }),
    lastLookupId: uuid('last_lookup_id').references(() => lookups.id, { onDelete: 'set null' }),
    lastSnapshot: jsonb('last_snapshot'),
    createdAt: createdAt(),
  },
  (t) => [
    // One watch per query and user: a second one would charge twice for the same news.
    uniqueIndex('watches_user_kind_query_idx').on(t.userId, t.kind, t.query),
    // The tick's claim reads the due active watches in order.
    index('watches_due_idx').on(t.nextRunAt).where(sql`${t.status} = 'active'`),
    check('watches_kind_valid', sql`${t.kind} in ('tel', 'email', 'username', 'leak')`),
    check('watches_schedule_valid', sql`${t.schedule} in ('daily', 'weekly')`),
    check('watches_status_valid', sql`${t.status} in ('active', 'paused', 'stopped_no_credits')`),
  ],
);

/** A run of a watch that saw a change: what changed, and when it was e-mailed. */
export const watchEvents = pgTable(
  'watch_events',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    watchId: uuid('watch_id')
      .notNull()
      .references(() => watches.id, { onDelete: 'cascade' }),
    lookupId: uuid('lookup_id').references(() => lookups.id, { onDelete: 'set null' }),
    runAt: timestamp('run_at', { withTimezone: true }).notNull(),
    changes: jsonb('changes').notNull(),
    emailedAt: timestamp('emailed_at', { withTimezone: true }),
  },
  (t) => [
    index('watch_events_watch_idx').on(t.watchId, t.runAt),
    // A run is compared once: a retried job finds its event and does not mail again.
    uniqueIndex('watch_events_lookup_idx').on(t.lookupId),
  ],
);

/**
 * The in-process job queue's jobs (modules/jobs/in-process.ts), on the embedded PGlite only: on
 * PostgreSQL pg-boss keeps its own tables in the `pgboss` schema. A job outlives a restart; one left
 * 'active' by a stopped process is taken back on start. `singleton_key` folds sends: at most one job
 * per name and key waits ('created') and one runs ('active') at a time.
 */
export const jobs = pgTable(
  'jobs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    data: jsonb('data').notNull().default({}),
    singletonKey: text('singleton_key'),
    state: text('state', { enum: ['created', 'active', 'completed', 'failed'] })
      .notNull()
      .default('created'),
    retryCount: integer('retry_count').notNull().default(0),
    retryLimit: integer('retry_limit').notNull().default(3),
    retryDelaySeconds: integer('retry_delay_seconds').notNull().default(2),
    startAfter: timestamp('start_after', { withTimezone: true }).notNull().defaultNow(),
    /** When a running job was last seen alive (the runner touches it while the handler runs). */
    heartbeatAt: timestamp('heartbeat_at', { withTimezone: true }),
    lastError: text('last_error'),
    createdAt: createdAt(),
    startedAt: timestamp('started_at', { withTimezone: true }),
    completedAt: timestamp('completed_at', { withTimezone: true }),
  },
  (t) => [
    // The poller's scan: due jobs of a name, oldest first.
    index('jobs_due_idx').on(t.name, t.startAfter).where(sql`${t.state} = 'created'`),
    uniqueIndex('jobs_singleton_idx')
      .on(t.name, t.singletonKey, t.state)
      .where(sql`${t.singletonKey} is not null and ${t.state} in ('created', 'active')`),
    check('jobs_state_valid', sql`${t.state} in ('created', 'active', 'completed', 'failed')`),
  ],
);

/**
 * A bulk lookup (modules/bulk): a list of phone numbers or e-mail addresses, each distinct valid query
 * a `bulk_rows` row run through the paid search like a single lookup. Counters are not stored: they
 * are counted from the rows, so they can never disagree with them.
 */
export const bulkJobs = pgTable(
  'bulk_jobs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    type: text('type', { enum: ['tel', 'email', 'username'] }).notNull(),
    name: text('name').notNull(),
    status: text('status', { enum: BULK_STATUSES }).notNull().default('queued'),
    caseReference: text('case_reference'),
    stopReason: text('stop_reason'),
    /** The request for approval a job above approval_bulk_rows rows waits for (modules/approvals). */
    approvalId: uuid('approval_id'),
    total: integer('total').notNull(),
    /** The worker running the job touches this while it runs; a stale one means its process died. */
    heartbeatAt: timestamp('heartbeat_at', { withTimezone: true }),
    /** Who asked, from where: every row's lookup is attributed to the same client. */
    ip: text('ip'),
    deviceId: text('device_id'),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [
    index('bulk_jobs_user_idx').on(t.userId, t.createdAt),
    check(
      'bulk_jobs_status_valid',
      sql`${t.status} in ('awaiting_approval', 'queued', 'running', 'paused', 'done', 'cancelled', 'stopped', 'not_approved')`,
    ),
  ],
);

/**
 * One distinct valid query of a bulk lookup. `lookup_id` is chosen and stored before the row's search
 * runs, and the paid search writes its lookups row under that id: a row retried after a crash finds
 * its charge instead of charging again (modules/bulk/row.ts).
 */
export const bulkRows = pgTable(
  'bulk_rows',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    jobId: uuid('job_id')
      .notNull()
      .references(() => bulkJobs.id, { onDelete: 'cascade' }),
    /** The row's line in the list (from 1); rows run in this order. */
    line: integer('line').notNull(),
    input: text('input').notNull(),
    query: text('query').notNull(),
    status: text('status', {
      enum: ['pending', 'success', 'no_record', 'cached', 'failed', 'insufficient_credits', 'skipped'],
    })
      .notNull()
      .default('pending'),
    lookupId: uuid('lookup_id'),
    cost: integer('cost').notNull().default(0),
    name: text('name'),
    emails: jsonb('emails').$type<string[]>().notNull().default([]),
    phones: jsonb('phones').$type<string[]>().notNull().default([]),
    addresses: jsonb('addresses').$type<string[]>().notNull().default([]),
    sourcesAnswered: jsonb('sources_answered').$type<string[]>().notNull().default([]),
    /** A username row: the accounts found, each as its site's name and profile URL. */
    accounts: jsonb('accounts').$type<Array<{ site: string; url: string }>>().notNull().default([]),
    error: text('error'),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('bulk_rows_job_line_idx').on(t.jobId, t.line),
    // The history list: whether a lookup is a bulk job's row (grouped and filtered by job).
    index('bulk_rows_lookup_idx').on(t.lookupId),
    // The worker's scan: a job's rows still to run, in order.
    index('bulk_rows_pending_idx').on(t.jobId, t.line).where(sql`${t.status} = 'pending'`),
    check(
      'bulk_rows_status_valid',
      sql`${t.status} in ('pending', 'success', 'no_record', 'cached', 'failed', 'insufficient_credits', 'skipped')`,
    ),
  ],
);

export type UserRow = typeof users.$inferSelect;
export type LookupRow = typeof lookups.$inferSelect;
export type WatchRow = typeof watches.$inferSelect;
export type BulkJobRow = typeof bulkJobs.$inferSelect;
export type BulkRowRow = typeof bulkRows.$inferSelect;

/**
 * The username site catalogue's self-check (modules/site-health): each run asks every site for its known
 * username and for a name that cannot exist. One row per run, started by the schedule or an admin.
 */
export const siteSelfCheckRuns = pgTable(
  'site_self_check_runs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    trigger: text('trigger', { enum: ['schedule', 'admin'] }).notNull(),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
    /** Null while the run goes on (or if its process died mid-run). */
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    sites: integer('sites').notNull().default(0),
    passed: integer('passed').notNull().default(0),
    failed: integer('failed').notNull().default(0),
    blocked: integer('blocked').notNull().default(0),
    skipped: integer('skipped').notNull().default(0),
  },
  (t) => [
    index('site_self_check_runs_started_idx').on(t.startedAt),
    check('site_self_check_runs_trigger_valid', sql`${t.trigger} in ('schedule', 'admin')`),
  ],
);

/** One site's result in one self-check run; kept 90 days (the precision of the admin screen reads 30). */
export const siteSelfChecks = pgTable(
  'site_self_checks',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    runId: uuid('run_id')
      .notNull()
      .references(() => siteSelfCheckRuns.id, { onDelete: 'cascade' }),
    siteId: text('site_id').notNull(),
    checkedAt: timestamp('checked_at', { withTimezone: true }).notNull(),
    /** The site state (found, not_found, blocked, error, not_checked) the known username got. */
    claimedState: text('claimed_state'),
    /** The state the name that cannot exist got; null when it was not asked. */
    unclaimedState: text('unclaimed_state'),
    /** passed: both right; failed: either wrong; blocked: a WAF or 429 said nothing; skipped: not asked. */
    outcome: text('outcome', { enum: ['passed', 'failed', 'blocked', 'skipped'] }).notNull(),
    reason: text('reason'),
  },
  (t) => [
    index('site_self_checks_site_idx').on(t.siteId, t.checkedAt),
    index('site_self_checks_checked_idx').on(t.checkedAt),
    index('site_self_checks_run_idx').on(t.runId),
    check('site_self_checks_outcome_valid', sql`${t.outcome} in ('passed', 'failed', 'blocked', 'skipped')`),
  ],
);

/**
 * Each site's standing from the self-check: `failing_since` set means quarantined (the lookups do not
 * ask it and say since when its check fails); a pass clears it, a blocked or skipped run leaves it.
 */
export const siteHealth = pgTable('site_health', {
  siteId: text('site_id').primaryKey(),
  failingSince: timestamp('failing_since', { withTimezone: true }),
  lastCheckedAt: timestamp('last_checked_at', { withTimezone: true }),
  lastPassedAt: timestamp('last_passed_at', { withTimezone: true }),
  lastOutcome: text('last_outcome', { enum: ['passed', 'failed', 'blocked', 'skipped'] }),
  lastReason: text('last_reason'),
});

/** Bytes as PostgreSQL keeps them (bytea); PGlite hands back a Uint8Array, node-postgres a Buffer. */
const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => (Buffer.isBuffer(value) ? value : Buffer.from(value)),
});

/**
 * Web pages captured into a case (issue 36): what was asked, by whom, how it went. The artefacts are in
 * capture_files, the signed manifests in capture_chain. A row is never deleted: a removal deletes the
 * artefacts' bytes and records itself in the chain.
 */
export const caseCaptures = pgTable(
  'case_captures',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    caseId: uuid('case_id')
      .notNull()
      .references(() => cases.id, { onDelete: 'restrict' }),
    requestedBy: uuid('requested_by')
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    url: text('url').notNull(),
    /** The search whose result held the address, when the capture began from one. */
    lookupId: uuid('lookup_id'),
    status: text('status', { enum: ['queued', 'running', 'done', 'failed', 'removed'] })
      .notNull()
      .default('queued'),
    failure: text('failure'),
    startedAt: timestamp('started_at', { withTimezone: true }),
    capturedAt: timestamp('captured_at', { withTimezone: true }),
    finalUrl: text('final_url'),
    title: text('title'),
    httpStatus: integer('http_status'),
    truncated: jsonb('truncated').$type<string[]>().notNull().default([]),
    removedAt: timestamp('removed_at', { withTimezone: true }),
    removedBy: uuid('removed_by').references(() => users.id, { onDelete: 'restrict' }),
    removalReason: text('removal_reason'),
    createdAt: createdAt(),
  },
  (t) => [
    index('case_captures_case_idx').on(t.caseId, t.createdAt),
    check(
      'case_captures_status_valid',
      sql`${t.status} in ('queued', 'running', 'done', 'failed', 'removed')`,
    ),
  ],
);

/** A capture's artefacts: name, hash, size and bytes (null once the capture is removed). */
export const captureFiles = pgTable(
  'capture_files',
  {
    captureId: uuid('capture_id')
      .notNull()
      .references(() => caseCaptures.id, { onDelete: 'restrict' }),
    name: text('name').notNull(),
    mediaType: text('media_type').notNull(),
    sha256: text('sha256').notNull(),
    bytes: integer('bytes').notNull(),
    body: bytea('body'),
  },
  (t) => [primaryKey({ columns: [t.captureId, t.name] })],
);

/**
 * A finished capture's thumbnail (CAPTURE_PREVIEW): the page's first screen, small, for the case's
 * list. Not evidence: no manifest lists it, and a removal deletes the row. Kept apart from the
 * capture's row so that listing captures never reads picture bytes.
 */
export const capturePreviews = pgTable('capture_previews', {
  captureId: uuid('capture_id')
    .primaryKey()
    .references(() => caseCaptures.id, { onDelete: 'restrict' }),
  body: bytea('body').notNull(),
});

/**
 * Each case's chain of signed capture manifests: a capture or a removal, in order, each holding the
 * SHA-256 of the one before. `manifest` is the exact text signed; `signature` its Ed25519 signature.
 */
export const captureChain = pgTable(
  'capture_chain',
  {
    caseId: uuid('case_id')
      .notNull()
      .references(() => cases.id, { onDelete: 'restrict' }),
    sequence: integer('sequence').notNull(),
    captureId: uuid('capture_id')
      .notNull()
      .references(() => caseCaptures.id, { onDelete: 'restrict' }),
    kind: text('kind', { enum: ['capture', 'removal'] }).notNull(),
    manifest: text('manifest').notNull(),
    signature: text('signature').notNull(),
    sha256: text('sha256').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.caseId, t.sequence] }),
    uniqueIndex('capture_chain_sha256_idx').on(t.sha256),
    index('capture_chain_capture_idx').on(t.captureId),
    check('capture_chain_kind_valid', sql`${t.kind} in ('capture', 'removal')`),
  ],
);
