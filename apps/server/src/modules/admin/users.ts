import {
  type AdminCreateUserResponse,
  type AdminCreditsResponse,
  type AdminUser,
  accountabilityMessages,
  type Page,
  type UserRole,
  type UserStatus,
} from '@footprint/domain';
import { and, asc, count, desc, eq, ilike, isNull, or, type SQL, sql } from 'drizzle-orm';
import { heldBy, own } from '../../access/policy.ts';
import type { Database, Executor, Transaction } from '../../db/client.ts';
import { isUniqueViolation } from '../../db/rows.ts';
import { authTokens, creditEntries, type UserRow, users } from '../../db/schema.ts';
import { belowZero, lastAdmin, notFound, notPending, validationError } from '../../errors.ts';
import type { ClientContext } from '../../http/context.ts';
import { randomToken } from '../../security/crypto.ts';
import { createPasswordPolicy, type PasswordPolicy } from '../../security/password-policy.ts';
import { hashPassword } from '../../security/passwords.ts';
import { type AuditActor, type AuditEntry, recordAudit } from '../audit/service.ts';
import { presentLedgerEntry } from '../credits/present.ts';
import { applyCreditChange, InsufficientCreditsError } from '../credits/service.ts';
import { presentAdminUser } from './present.ts';

/**
 * Operator work on accounts, shared by the admin API and the CLI: both go through these functions,
 * so the same rules hold (ledger for every credit, last active admin kept, an audit row for every
 * change, nothing changed on a refusal).
 */

export interface Acting {
  actor: AuditActor;
  client?: Pick<ClientContext, 'ip' | 'deviceId'> | null;
  /** Extra details for every audit row of the action (the CLI names the OS user). */
  details?: Record<string, unknown>;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const userNotFound = () => notFound(accountabilityMessages.userNotFound);

/** `%` and `_` in what an admin types are literal characters, not wildcards. */
export const likeEscape = (value: string) => value.replace(/[\\%_]/g, (c) => `\\${c}`);

const auditOf = (acting: Acting, entry: Omit<AuditEntry, 'user' | 'client'>): AuditEntry => ({
  ...entry,
  user: acting.actor,
  client: acting.client ?? null,
  details: { ...entry.details, ...acting.details },
});

export async function listUsers(
  db: Database,
  query: { q?: string | undefined; status?: UserStatus | undefined; page: number; per_page: number },
): Promise<Page<AdminUser>> {
  const filters: SQL[] = [];
  if (query.q) {
    const pattern = `%${likeEscape(query.q)}%`;
    filters.push(or(ilike(users.email, pattern), ilike(users.name, pattern))!);
    if (UUID.test(query.q)) filters[0] = or(filters[0], eq(users.id, query.q))!;
  }
  if (query.status) filters.push(eq(users.status, query.status));
  const where = filters.length ? and(...filters) : undefined;
  const [rows, [counted]] = await Promise.all([
    db
      .select()
      .from(users)
      .where(where)
      .orderBy(desc(users.createdAt), asc(users.id))
      .limit(query.per_page)
      .offset((query.page - 1) * query.per_page),
    db.select({ n: count() }).from(users).where(where),
  ]);
  return {
    data: rows.map(presentAdminUser),
    total: Number(counted?.n ?? 0),
    page: query.page,
    per_page: query.per_page,
  };
}

export async function getUser(db: Executor, id: string): Promise<UserRow> {
  if (!UUID.test(id)) throw userNotFound();
  const [row] = await db.select().from(users).where(eq(users.id, id));
  if (!row) throw userNotFound();
  return row;
}

export async function getUserByEmail(db: Executor, email: string): Promise<UserRow> {
  const [row] = await db
    .select()
    .from(users)
    .where(sql`lower(${users.email}) = ${email.trim().toLowerCase()}`);
  if (!row) throw notFound(`No user has the e-mail ${email.trim().toLowerCase()}.`);
  return row;
}

export interface NewUser {
  name: string;
  email: string;
  password?: string | undefined;
  role: UserRole;
  app_mode: 'live' | 'trial';
  credits?: number | undefined;
}

/** A new account; without a password a random one is made and returned once. */
export async function createUser(
  db: Database,
  input: NewUser,
  acting: Acting,
  passwordPolicy: PasswordPolicy = createPasswordPolicy(),
): Promise<AdminCreateUserResponse> {
  if (input.password) {
    const refused = await passwordPolicy.check(input.password);
    if (refused) throw validationError({ password: [refused] });
  }
  const temporary = input.password ? undefined : randomToken(12);
  const passwordHash = await hashPassword(input.password ?? temporary!);
  const taken = () => validationError({ email: [accountabilityMessages.emailTaken] });
  try {
    const row = await db.transaction(async (tx) => {
      const [existing] = await tx
        .select({ id: users.id })
        .from(users)
        .where(sql`lower(${users.email}) = ${input.email.toLowerCase()}`);
      if (existing) throw taken();
      const [created] = await tx
        .insert(users)
        .values({
          name: input.name,
          email: input.email.toLowerCase(),
          passwordHash,
          role: input.role,
          appMode: input.app_mode,
        })
        .returning();
      if (!created) throw new Error('user insert returned nothing');
      const events: AuditEntry[] = [
        auditOf(acting, {
          action: 'admin.user.create',
          outcome: 'success',
          target: created.id,
          details: {
            email: created.email,
            name: created.name,
            role: created.role,
            app_mode: created.appMode,
            credits: input.credits ?? 0,
            password: temporary ? 'generated' : 'set by admin',
          },
        }),
      ];
      if (input.credits && input.credits > 0) {
        created.credits = await applyCreditChange(tx, {
          userId: created.id,
          delta: input.credits,
          kind: 'grant',
          reason: 'Opening balance',
          actorId: acting.actor.id,
        });
        events.push(
          auditOf(acting, {
            action: 'admin.credits.grant',
            outcome: 'success',
            target: created.id,
            details: {
              email: created.email,
              amount: input.credits,
              balance_after: created.credits,
              reason: 'Opening balance',
            },
          }),
        );
      }
      await recordAudit(tx, events);
      return created;
    });
    return {
      user: presentAdminUser(row),
      ...(temporary ? { temporary_password: temporary } : {}),
    };
  } catch (error) {
    if (isUniqueViolation(error)) throw taken();
    throw error;
  }
}

export interface UserPatch {
  name?: string | undefined;
  role?: UserRole | undefined;
  app_mode?: 'live' | 'trial' | undefined;
  status?: UserStatus | undefined;
  revoke_sessions?: true | undefined;
}

async function revokeSessions(tx: Transaction, userId: string, at: Date): Promise<number> {
  const revoked = await tx
    .update(authTokens)
    .set({ revokedAt: at })
    .where(and(own(authTokens, userId), isNull(authTokens.revokedAt)))
    .returning({ id: authTokens.id });
  return revoked.length;
}

/**
 * Changes an account. Demoting or disabling the last active admin is refused (422, nothing
 * changed): every active admin row is locked first, in id order, so two admins demoting each other
 * at the same moment cannot both succeed. Disabling revokes the account's sessions.
 */
export async function updateUser(
  db: Database,
  id: string,
  patch: UserPatch,
  acting: Acting,
  now: Date = new Date(),
): Promise<AdminUser> {
  if (!UUID.test(id)) throw userNotFound();
  const row = await db.transaction(async (tx) => {
    const touchesAdmins = patch.role !== undefined || patch.status !== undefined;
    const activeAdmins = touchesAdmins
      ? await tx
          .select({ id: users.id })
          .from(users)
          .where(and(eq(users.role, 'admin'), eq(users.status, 'active')))
          .orderBy(asc(users.id))
          .for('update')
      : [];
    const [target] = await tx.select().from(users).where(eq(users.id, id)).for('update');
    if (!target) throw userNotFound();
    // A registration waiting for a decision is approved or rejected (mail and audit), not switched.
    const awaitsDecision = target.status === 'pending' || target.status === 'rejected';
    if (awaitsDecision && patch.status !== undefined && patch.status !== target.status) {
      throw validationError({ status: [accountabilityMessages.decideByApproval] });
    }

    const wasActiveAdmin = target.role === 'admin' && target.status === 'active';
    const losesAdmin = wasActiveAdmin && (patch.role === 'user' || patch.status === 'disabled');
    if (losesAdmin && activeAdmins.filter((admin) => admin.id !== id).length === 0) {
      throw lastAdmin(patch.role === 'user' ? 'role' : 'status');
    }

    const changes: Record<string, { from: unknown; to: unknown }> = {};
    const set: Partial<typeof users.$inferInsert> = {};
    const change = <K extends 'name' | 'role' | 'appMode' | 'status'>(
      key: K,
      label: string,
      value: UserRow[K] | undefined,
    ) => {
      if (value === undefined || value === target[key]) return;
      changes[label] = { from: target[key], to: value };
      (set as Record<string, unknown>)[key] = value;
    };
    change('name', 'name', patch.name);
    change('role', 'role', patch.role);
    change('appMode', 'app_mode', patch.app_mode);
    change('status', 'status', patch.status);

    const events: AuditEntry[] = [];
    let updated = target;
    if (Object.keys(changes).length > 0) {
      const [saved] = await tx
        .update(users)
        .set({ ...set, updatedAt: now })
        .where(eq(users.id, id))
        .returning();
      updated = saved ?? target;
      events.push(
        auditOf(acting, {
          action: 'admin.user.update',
          outcome: 'success',
          target: id,
          details: { email: target.email, changes },
        }),
      );
    }
    if (patch.revoke_sessions || changes.status?.to === 'disabled') {
      const revoked = await revokeSessions(tx, id, now);
      events.push(
        auditOf(acting, {
          action: 'admin.user.sessions.revoke',
          outcome: 'success',
          target: id,
          details: {
            email: target.email,
            revoked,
            reason: patch.revoke_sessions ? 'requested' : 'account disabled',
          },
        }),
      );
    }
    await recordAudit(tx, events);
    return updated;
  });
  return presentAdminUser(row);
}

/**
 * Grants (amount > 0) or deducts (amount < 0) credits through the ledger, with the acting admin as
 * the entry's actor. A deduction below zero is refused (422) and changes nothing.
 */
export async function changeCredits(
  db: Database,
  id: string,
  input: { amount: number; reason: string },
  acting: Acting,
): Promise<AdminCreditsResponse> {
  if (!UUID.test(id)) throw userNotFound();
  if (!Number.isInteger(input.amount) || input.amount === 0) {
    throw validationError({ amount: [accountabilityMessages.amountInteger] });
  }
  return db.transaction(async (tx) => {
    const [target] = await tx.select().from(users).where(eq(users.id, id)).for('update');
    if (!target) throw userNotFound();
    const grant = input.amount > 0;
    let balance: number;
    try {
      balance = await applyCreditChange(tx, {
        userId: id,
        delta: input.amount,
        kind: grant ? 'grant' : 'adjustment',
        reason: input.reason,
        actorId: acting.actor.id,
      });
    } catch (error) {
      if (error instanceof InsufficientCreditsError) {
        throw belowZero(error.balance);
      }
      throw error;
    }
    const [entry] = await tx
      .select()
      .from(creditEntries)
      .where(and(heldBy(creditEntries, id), isNull(creditEntries.unitId)))
      .orderBy(desc(creditEntries.id))
      .limit(1);
    await recordAudit(
      tx,
      auditOf(acting, {
        action: grant ? 'admin.credits.grant' : 'admin.credits.deduct',
        outcome: 'success',
        target: id,
        details: {
          email: target.email,
          amount: input.amount,
          balance_after: balance,
          reason: input.reason,
          entry_id: entry?.id ?? null,
        },
      }),
    );
    return {
      user: presentAdminUser({ ...target, credits: balance }),
      entry: presentLedgerEntry(entry!),
    };
  });
}

export type RegistrationDecision = { kind: 'approve' } | { kind: 'reject'; reason?: string | undefined };

/** The trial grant of an account approved for the first time: none if it was ever granted credits. */
async function grantOnApproval(tx: Transaction, userId: string, trialCredits: number): Promise<number> {
  if (trialCredits <= 0) return 0;
  const [entries] = await tx.select({ n: count() }).from(creditEntries).where(heldBy(creditEntries, userId));
  if (Number(entries?.n ?? 0) > 0) return 0;
  await applyCreditChange(tx, {
    userId,
    delta: trialCredits,
    kind: 'grant',
    reason: 'Trial credit grant on approval',
  });
  return trialCredits;
}

/**
 * An admin's decision on a self-registered account: approve (pending or rejected → active) or reject
 * (pending → rejected, its sessions revoked). The row is locked, so two admins deciding at once get one
 * decision and one 409; the audit row (`admin.user.approve` / `admin.user.reject`) is written in the
 * same transaction. The user is told by mail afterwards (approval.ts).
 */
export async function decideRegistration(
  db: Database,
  id: string,
  decision: RegistrationDecision,
  acting: Acting,
  now: Date = new Date(),
  /** The trial credits an approved account receives, once: a pending account held none. */
  trialCredits = 0,
): Promise<UserRow> {
  if (!UUID.test(id)) throw userNotFound();
  return db.transaction(async (tx) => {
    const [target] = await tx.select().from(users).where(eq(users.id, id)).for('update');
    if (!target) throw userNotFound();
    const from = target.status;
    const allowed =
      decision.kind === 'approve' ? from === 'pending' || from === 'rejected' : from === 'pending';
    if (!allowed) throw notPending(from);
    const to = decision.kind === 'approve' ? 'active' : 'rejected';
    const [saved] = await tx
      .update(users)
      .set({ status: to, updatedAt: now })
      .where(eq(users.id, id))
      .returning();
    const reason = decision.kind === 'reject' ? decision.reason : undefined;
    const revoked = decision.kind === 'reject' ? await revokeSessions(tx, id, now) : 0;
    const granted = decision.kind === 'approve' ? await grantOnApproval(tx, id, trialCredits) : 0;
    if (saved && granted > 0) saved.credits += granted;
    await recordAudit(
      tx,
      auditOf(acting, {
        action: `admin.user.${decision.kind}`,
        outcome: 'success',
        target: id,
        details: {
          email: target.email,
          changes: { status: { from, to } },
          ...(reason ? { reason } : {}),
          ...(revoked > 0 ? { sessions_revoked: revoked } : {}),
          ...(granted > 0 ? { credits_granted: granted } : {}),
        },
      }),
    );
    return saved ?? { ...target, status: to };
  });
}
