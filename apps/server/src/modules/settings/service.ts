import {
  APPROVAL_BULK_ROWS_MAX,
  APPROVAL_HOURS_DEFAULT,
  APPROVAL_HOURS_MAX,
  DEFAULT_REQUIRED_SIGNUP_FIELDS,
  isApprovalKind,
  REGISTRATION_MODES,
  type RegistrationMode,
  type SearchKind,
  SIGNUP_FIELD_SETTINGS,
  SIGNUP_FIELDS,
  type SignupField,
} from '@footprint/domain';
import { eq, inArray } from 'drizzle-orm';
import type { Config } from '../../config.ts';
import type { Executor } from '../../db/client.ts';
import { settings } from '../../db/schema.ts';

/** Deployment-wide switches an admin can change at run time; the environment gives their defaults. */
export interface SettingsDefaults {
  /** REGISTRATION_MODE (or REGISTRATION_ENABLED=false: closed). */
  registrationMode: RegistrationMode;
  /**
   * REGISTRATION_REQUIRED_FIELDS: the sign-up profile fields required until an admin changes it
   * (left out: organisation and designation).
   */
  registrationRequiredFields?: readonly SignupField[];
}

export interface DeploymentDefaults extends SettingsDefaults {
  /** LOOKUP_RETENTION_DAYS. */
  lookupRetentionDays: number;
}

/** The environment's defaults of the settings an admin can change at run time. */
export const deploymentDefaults = (config: Config): DeploymentDefaults => ({
  registrationMode: config.auth.registrationModeDefault,
  registrationRequiredFields: config.auth.registrationRequiredFields,
  lookupRetentionDays: config.lookups.retentionDays,
});

/** What GET /api/admin/settings shows; stored values win over the environment's defaults. */
export interface DeploymentSettings {
  registrationMode: RegistrationMode;
  /** False only while the mode is closed. */
  registrationEnabled: boolean;
  caseReferenceRequired: boolean;
  secondFactorRequired: boolean;
  legalBasisRequired: boolean;
  /** The sign-up profile fields POST /api/register requires. */
  registrationRequiredFields: SignupField[];
  lookupRetentionDays: number;
  /** The share (0 to 100 %) of searches sampled for review by their searcher's supervisors. */
  reviewSharePercent: number;
  /** The search kinds held until a supervisor of the requester approves them (modules/approvals). */
  approvalKinds: readonly SearchKind[];
  /** Hours a held search waits for a decision. */
  approvalHours: number;
  /** A bulk job of more rows than this waits for approval; 0: none waits. */
  approvalBulkRows: number;
}

const DEPLOYMENT_KEYS = [
  'registration_mode',
  'registration_enabled',
  'case_reference_required',
  'second_factor_required',
  'legal_basis_required',
  ...Object.values(SIGNUP_FIELD_SETTINGS),
  'lookup_retention_days',
  'review_share_percent',
  'approval_kinds',
  'approval_hours',
  'approval_bulk_rows',
] as const;
type DeploymentKey = (typeof DEPLOYMENT_KEYS)[number];

/**
 * Searches read the deployment settings (is a case reference required, how long results are kept)
 * on every call; a few seconds of cache keeps that off the database. A write in this process is seen
 * at once; another server process sees it within SETTINGS_CACHE_MS.
 */
export const SETTINGS_CACHE_MS = 5_000;
let generation = 0;
const cached = new WeakMap<object, { at: number; generation: number; values: Map<string, unknown> }>();

async function storedDeploymentValues(db: Executor, fresh = false): Promise<Map<string, unknown>> {
  const hit = cached.get(db);
  if (!fresh && hit && hit.generation === generation && Date.now() - hit.at < SETTINGS_CACHE_MS) {
    return hit.values;
  }
  const seen = generation;
  const rows = await db
    .select({ key: settings.key, value: settings.value })
    .from(settings)
    .where(inArray(settings.key, [...DEPLOYMENT_KEYS]));
  const values = new Map(rows.map((row) => [row.key, row.value]));
  cached.set(db, { at: Date.now(), generation: seen, values });
  return values;
}

export async function readDeploymentSettings(
  db: Executor,
  defaults: DeploymentDefaults,
  options: { fresh?: boolean } = {},
): Promise<DeploymentSettings> {
  const values = await storedDeploymentValues(db, options.fresh);
  const bool = (key: DeploymentKey, fallback: boolean) => {
    const value = values.get(key);
    return typeof value === 'boolean' ? value : fallback;
  };
  const days = values.get('lookup_retention_days');
  const share = values.get('review_share_percent');
  const registrationMode = registrationModeOf(values, defaults);
  return {
    registrationMode,
    registrationEnabled: registrationMode !== 'closed',
    caseReferenceRequired: bool('case_reference_required', false),
    secondFactorRequired: bool('second_factor_required', false),
    legalBasisRequired: bool('legal_basis_required', false),
    registrationRequiredFields: requiredFieldsOf(values, defaults),
    lookupRetentionDays:
      typeof days === 'number' && Number.isInteger(days) && days >= 1 ? days : defaults.lookupRetentionDays,
    reviewSharePercent: typeof share === 'number' && share >= 0 && share <= 100 ? share : 0,
    approvalKinds: approvalKindsOf(values.get('approval_kinds')),
    approvalHours: approvalHoursOf(values.get('approval_hours')),
    approvalBulkRows: bulkRowsOf(values.get('approval_bulk_rows')),
  };
}

const approvalKindsOf = (value: unknown): readonly SearchKind[] =>
  Array.isArray(value) ? value.filter(isApprovalKind) : [];

const bulkRowsOf = (value: unknown): number =>
  typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= APPROVAL_BULK_ROWS_MAX
    ? value
    : 0;

const approvalHoursOf = (value: unknown): number =>
  typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= APPROVAL_HOURS_MAX
    ? value
    : APPROVAL_HOURS_DEFAULT;

/** Whether every account must have a second factor (cached like the other deployment settings). */
export async function isSecondFactorRequired(db: Executor): Promise<boolean> {
  return (await storedDeploymentValues(db)).get('second_factor_required') === true;
}

/** Whether every search must be filed under a case that names its legal basis. */
export async function isLegalBasisRequired(db: Executor): Promise<boolean> {
  return (await storedDeploymentValues(db)).get('legal_basis_required') === true;
}

/** Whether this deployment refuses searches without a case reference (no default from the environment). */
export async function isCaseReferenceRequired(db: Executor): Promise<boolean> {
  return (await storedDeploymentValues(db)).get('case_reference_required') === true;
}

export async function readSetting<T>(db: Executor, key: string): Promise<T | undefined> {
  const [row] = await db.select({ value: settings.value }).from(settings).where(eq(settings.key, key));
  return row?.value as T | undefined;
}

export async function writeSetting(
  db: Executor,
  key: string,
  value: unknown,
  actorId?: string,
): Promise<void> {
  await db
    .insert(settings)
    .values({ key, value, updatedBy: actorId ?? null })
    .onConflictDoUpdate({
      target: settings.key,
      set: { value, updatedAt: new Date(), updatedBy: actorId ?? null },
    });
  generation += 1;
}

const isRegistrationMode = (value: unknown): value is RegistrationMode =>
  typeof value === 'string' && (REGISTRATION_MODES as readonly string[]).includes(value);

/**
 * The stored `registration_mode` wins; before one was stored, a stored `registration_enabled: false`
 * (the older switch) means closed; otherwise the environment's default.
 */
function registrationModeOf(values: Map<string, unknown>, defaults: SettingsDefaults): RegistrationMode {
  const mode = values.get('registration_mode');
  if (isRegistrationMode(mode)) return mode;
  if (values.get('registration_enabled') === false) return 'closed';
  return defaults.registrationMode;
}

/** Each sign-up profile field is required as its stored setting says, else as the environment's default. */
function requiredFieldsOf(values: Map<string, unknown>, defaults: SettingsDefaults): SignupField[] {
  return SIGNUP_FIELDS.filter((field) => {
    const stored = values.get(SIGNUP_FIELD_SETTINGS[field]);
    if (typeof stored === 'boolean') return stored;
    return (defaults.registrationRequiredFields ?? DEFAULT_REQUIRED_SIGNUP_FIELDS).includes(field);
  });
}

/** The sign-up profile fields required now, read past the cache (like the registration mode). */
export async function readRegistrationRequiredFields(
  db: Executor,
  defaults: SettingsDefaults,
): Promise<SignupField[]> {
  return requiredFieldsOf(await storedDeploymentValues(db, true), defaults);
}

/** The registration mode now, read past the cache (a sign-up is rare; a stale answer is not wanted). */
export async function readRegistrationMode(
  db: Executor,
  defaults: SettingsDefaults,
): Promise<RegistrationMode> {
  return registrationModeOf(await storedDeploymentValues(db, true), defaults);
}

/**
 * The key that signs OTP hashes. APP_KEY wins; otherwise one is made on first start and kept in the
 * database, so the embedded default needs no set-up and survives restarts.
 */
export async function resolveAppKey(db: Executor, configured: string | undefined): Promise<string> {
  if (configured) return configured;
  const stored = await readSetting<string>(db, 'app_key');
  if (stored) return stored;
  const { randomBytes } = await import('node:crypto');
  const key = randomBytes(32).toString('base64url');
  await db.insert(settings).values({ key: 'app_key', value: key }).onConflictDoNothing();
  return (await readSetting<string>(db, 'app_key')) ?? key;
}

/** Forgets cached deployment settings in this process (after a transaction that wrote some commits). */
export function invalidateDeploymentSettings(): void {
  generation += 1;
}
