import type { AdminSettings, AdminUser, LeakSourceSummary } from '@footprint/domain';
import type { leakSources, UserRow } from '../../db/schema.ts';
import type { DeploymentSettings } from '../settings/service.ts';

/** An account as the operator API shows it: the user's fields and dates, never the password hash. */
export const presentAdminUser = (row: UserRow): AdminUser => ({
  id: row.id,
  name: row.name,
  email: row.email,
  role: row.role,
  app_mode: row.appMode,
  status: row.status,
  credits: row.credits,
  created_at: row.createdAt.toISOString(),
  updated_at: row.updatedAt.toISOString(),
  last_login_at: row.lastLoginAt?.toISOString() ?? null,
  email_verified_at: row.emailVerifiedAt?.toISOString() ?? null,
  organisation: row.organisation ?? null,
  designation: row.designation ?? null,
  identity_reference: row.identityReference ?? null,
});

/** The deployment settings an admin can read and change. */
export const presentSettings = (settings: DeploymentSettings): AdminSettings => ({
  registration_enabled: settings.registrationEnabled,
  registration_mode: settings.registrationMode,
  case_reference_required: settings.caseReferenceRequired,
  second_factor_required: settings.secondFactorRequired,
  legal_basis_required: settings.legalBasisRequired,
  registration_organisation_required: settings.registrationRequiredFields.includes('organisation'),
  registration_designation_required: settings.registrationRequiredFields.includes('designation'),
  registration_identity_reference_required:
    settings.registrationRequiredFields.includes('identity_reference'),
  lookup_retention_days: settings.lookupRetentionDays,
  review_share_percent: settings.reviewSharePercent,
  approval_kinds: [...settings.approvalKinds],
  approval_hours: settings.approvalHours,
  approval_bulk_rows: settings.approvalBulkRows,
});

/** An imported leak source, with its record count as a number. */
export const presentLeakSource = (row: typeof leakSources.$inferSelect): LeakSourceSummary => ({
  id: row.id,
  name: row.name,
  breach_date: row.breachDate ?? null,
  description: row.description ?? null,
  record_count: Number(row.recordCount),
  imported_at: row.importedAt?.toISOString() ?? null,
  created_at: row.createdAt.toISOString(),
});
