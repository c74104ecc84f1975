import type {
  AdminCreateUserRequest,
  AdminSettings,
  AdminSettingsPatch,
  AuditFilters,
  LeakSourceSummary,
  ProvidersResponse,
  RegistrationMode,
} from '@footprint/domain';
import { asc } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { leakSources } from '../../db/schema.ts';
import { forgetSessions } from '../../http/session-cache.ts';
import type { Runner } from '../../providers/runner.ts';
import type { PasswordPolicy } from '../../security/password-policy.ts';
import { createChainMonitor } from '../audit/monitor.ts';
import { auditCsv, auditCsvFileName, countAuditEvents, listAuditEvents } from '../audit/query.ts';
import { type AuditEntry, recordAudit } from '../audit/service.ts';
import type { Mailer } from '../mail/mailer.ts';
import {
  type DeploymentDefaults,
  invalidateDeploymentSettings,
  readDeploymentSettings,
  writeSetting,
} from '../settings/service.ts';
import { readMonthUsage } from '../usage/query.ts';
import { type UsageRecorder, utcDay } from '../usage/recorder.ts';
import { decideAndNotify } from './approval.ts';
import { presentAdminUser, presentLeakSource, presentSettings } from './present.ts';
import { type ProviderCatalogue, presentProviders } from './providers.ts';
import {
  type Acting,
  changeCredits,
  createUser,
  getUser,
  listUsers,
  type NewUser,
  type UserPatch,
  updateUser,
} from './users.ts';

/** Read past the cache: the admin page shows what is stored now, whichever process wrote it. */
export async function readAdminSettings(db: Database, defaults: DeploymentDefaults): Promise<AdminSettings> {
  return presentSettings(await readDeploymentSettings(db, defaults, { fresh: true }));
}

/**
 * The registration mode a patch asks for: `registration_mode` itself, or the older switch
 * `registration_enabled` (false closes; true re-opens a closed registration in the environment's
 * mode, or `approval` if that is closed too, and leaves an open one as it is).
 */
function requestedRegistrationMode(
  patch: Pick<AdminSettingsPatch, 'registration_mode' | 'registration_enabled'>,
  current: RegistrationMode,
  defaults: DeploymentDefaults,
): RegistrationMode | undefined {
  if (patch.registration_mode !== undefined) return patch.registration_mode;
  if (patch.registration_enabled === false) return 'closed';
  if (patch.registration_enabled === true && current === 'closed') {
    return defaults.registrationMode === 'closed' ? 'approval' : defaults.registrationMode;
  }
  return undefined;
}

/** Writes the given settings and one audit row naming what changed (nothing changed: no row). */
export async function updateAdminSettings(
  db: Database,
  defaults: DeploymentDefaults,
  patch: { [K in keyof AdminSettingsPatch]?: AdminSettingsPatch[K] | undefined },
  acting: Acting,
): Promise<AdminSettings> {
  const before = presentSettings(await readDeploymentSettings(db, defaults, { fresh: true }));
  const mode = requestedRegistrationMode(patch, before.registration_mode, defaults);
  const values: Partial<AdminSettings> = {
    ...(mode !== undefined ? { registration_mode: mode, registration_enabled: mode !== 'closed' } : {}),
    ...(patch.case_reference_required !== undefined
      ? { case_reference_required: patch.case_reference_required }
      : {}),
    ...(patch.second_factor_required !== undefined
      ? { second_factor_required: patch.second_factor_required }
      : {}),
    ...(patch.legal_basis_required !== undefined ? { legal_basis_required: patch.legal_basis_required } : {}),
    ...(patch.registration_organisation_required !== undefined
      ? { registration_organisation_required: patch.registration_organisation_required }
      : {}),
    ...(patch.registration_designation_required !== undefined
      ? { registration_designation_required: patch.registration_designation_required }
      : {}),
    ...(patch.registration_identity_reference_required !== undefined
      ? { registration_identity_reference_required: patch.registration_identity_reference_required }
      : {}),
    ...(patch.lookup_retention_days !== undefined
      ? { lookup_retention_days: patch.lookup_retention_days }
      : {}),
    ...(patch.review_share_percent !== undefined ? { review_share_percent: patch.review_share_percent } : {}),
    ...(patch.approval_kinds !== undefined
      ? { approval_kinds: [...new Set(patch.approval_kinds)].sort() }
      : {}),
    ...(patch.approval_hours !== undefined ? { approval_hours: patch.approval_hours } : {}),
    ...(patch.approval_bulk_rows !== undefined ? { approval_bulk_rows: patch.approval_bulk_rows } : {}),
  };
  const changes: Record<string, { from: unknown; to: unknown }> = {};
  await db.transaction(async (tx) => {
    for (const key of [
      'registration_mode',
      'registration_enabled',
      'case_reference_required',
      'second_factor_required',
      'legal_basis_required',
      'registration_organisation_required',
      'registration_designation_required',
      'registration_identity_reference_required',
      'lookup_retention_days',
      'review_share_percent',
      'approval_kinds',
      'approval_hours',
      'approval_bulk_rows',
    ] as const) {
      const value = values[key];
      if (value === undefined) continue;
      await writeSetting(tx, key, value, acting.actor.id ?? undefined);
      if (JSON.stringify(value) !== JSON.stringify(before[key]))
        changes[key] = { from: before[key], to: value };
    }
    if (Object.keys(changes).length > 0) {
      await recordAudit(tx, {
        action: 'admin.settings.update',
        outcome: 'success',
        user: acting.actor,
        client: acting.client ?? null,
        target: 'settings',
        details: { changes, ...acting.details },
      } satisfies AuditEntry);
    }
  });
  invalidateDeploymentSettings();
  return presentSettings(await readDeploymentSettings(db, defaults, { fresh: true }));
}

/**
 * An export of the audit trail: its own audit row is written first (with the filters and the row
 * count), so an export is on record even if the download is interrupted.
 */
export async function exportAudit(
  db: Database,
  filters: AuditFilters,
  acting: Acting,
): Promise<{ fileName: string; rows: number; chunks: AsyncGenerator<string> }> {
  const rows = await countAuditEvents(db, filters);
  const fileName = auditCsvFileName(filters);
  await recordAudit(db, {
    action: 'admin.audit.export',
    outcome: 'success',
    user: acting.actor,
    client: acting.client ?? null,
    target: fileName,
    details: { filters: withoutEmpty(filters), rows, ...acting.details },
  });
  return { fileName, rows, chunks: auditCsv(db, filters) };
}

const withoutEmpty = (value: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined && v !== null && v !== ''));

export async function listLeakSources(db: Database): Promise<{ data: LeakSourceSummary[]; total: number }> {
  const rows = await db.select().from(leakSources).orderBy(asc(leakSources.name));
  return {
    data: rows.map(presentLeakSource),
    total: rows.length,
  };
}

/**
 * Provider health and spend: this process's latest calls are written first, so that the figures read
 * back from the usage table (every process's) include them; today and this month are UTC.
 */
export async function listProviders(
  db: Database,
  deps: { runner: Runner; catalogue: ProviderCatalogue; usage: UsageRecorder },
  now: Date,
): Promise<ProvidersResponse> {
  await deps.usage.flush();
  const usage = await readMonthUsage(db, utcDay(now));
  return {
    providers: presentProviders({
      stats: deps.runner.stats(),
      catalogue: deps.catalogue,
      usage,
      countSinceStart: deps.usage.countSinceStart,
    }),
  };
}

export interface AdminDeps {
  db: Database;
  /** Tells a self-registered user the admin's decision. */
  mailer: Mailer;
  appUrl: string;
  /** The trial credits an approved self-registered account receives. */
  trialCredits?: number;
  runner: Runner;
  catalogue: ProviderCatalogue;
  usage: UsageRecorder;
  settings: DeploymentDefaults;
  /** The rule a password an admin sets must meet (security/password-policy.ts). */
  passwordPolicy?: PasswordPolicy;
  now?: () => Date;
}

/**
 * The operator API's service. The work itself is in the functions of this module and of users.ts,
 * which the CLI calls too, so both keep the same rules.
 */
export function createAdminService(deps: AdminDeps) {
  const { db } = deps;
  const now = deps.now ?? (() => new Date());
  const chain = createChainMonitor(db, { now });
  return {
    readSettings: () => readAdminSettings(db, deps.settings),
    // A second factor required from now on applies to sessions this process has checked already.
    updateSettings: (patch: AdminSettingsPatch, acting: Acting) =>
      updateAdminSettings(db, deps.settings, patch, acting).finally(() => forgetSessions(db)),
    /** Provider health, mode, vendor and spend per source, sources nobody answers included. */
    providers: () => listProviders(db, deps, now()),
    leakSources: () => listLeakSources(db),
    listUsers: (query: Parameters<typeof listUsers>[1]) => listUsers(db, query),
    createUser: (input: NewUser & Pick<AdminCreateUserRequest, 'credits'>, acting: Acting) =>
      createUser(db, input, acting, deps.passwordPolicy),
    getUser: async (id: string) => ({ user: presentAdminUser(await getUser(db, id)) }),
    // An account's role, mode or status, and its sessions, as every request on this process sees
    // them from the moment the change has committed (not after the session cache's second).
    updateUser: async (id: string, patch: UserPatch, acting: Acting) => {
      const user = await updateUser(db, id, patch, acting, now());
      forgetSessions(db);
      return { user };
    },
    approveUser: (id: string, acting: Acting) =>
      decideAndNotify(deps, id, { kind: 'approve' }, acting, now()).finally(() => forgetSessions(db)),
    rejectUser: (id: string, reason: string | undefined, acting: Acting) =>
      decideAndNotify(deps, id, { kind: 'reject', reason }, acting, now()).finally(() => forgetSessions(db)),
    changeCredits: (id: string, input: { amount: number; reason: string }, acting: Acting) =>
      changeCredits(db, id, input, acting),
    listAudit: (filters: AuditFilters, page: { page: number; per_page: number }) =>
      listAuditEvents(db, filters, page),
    exportAudit: (filters: AuditFilters, acting: Acting) => exportAudit(db, filters, acting),
    /** The audit trail's hash chain, verified a step further on each call (modules/audit/monitor.ts). */
    auditChain: () => chain.state(),
  };
}

export type AdminService = ReturnType<typeof createAdminService>;
