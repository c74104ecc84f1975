import { randomUUID } from 'node:crypto';
import {
  messages,
  type RegisterRequest,
  type RegistrationStatus,
  type SignupField,
  type User,
} from '@footprint/domain';
import { type UserRow, users } from '../../db/schema.ts';
import { forbidden, validationError } from '../../errors.ts';
import type { ClientContext } from '../../http/context.ts';
import { hashPassword } from '../../security/passwords.ts';
import { recordAudit } from '../audit/service.ts';
import { applyCreditChange } from '../credits/service.ts';
import { registerAttemptMail } from '../mail/templates.ts';
import { readRegistrationMode, readRegistrationRequiredFields } from '../settings/service.ts';
import { presentUser } from '../users/present.ts';
import { findUserByEmail } from '../users/repository.ts';
import { type AuthDeps, authAudit as audit, clockOf, isUniqueViolation } from './types.ts';

/**
 * Sign-up: a trial account with the trial credit grant, as the registration mode allows. In `open`
 * mode it can sign in at once; in `approval` mode it is `pending` until an admin approves it (the
 * grant is made now, but a pending account cannot sign in to spend it); `closed` refuses.
 */
export function createRegistration(
  deps: Pick<AuthDeps, 'db' | 'config' | 'limits' | 'mailer' | 'passwordPolicy' | 'background' | 'now'>,
) {
  const { db, config, limits, mailer, passwordPolicy } = deps;
  const now = clockOf(deps);
  const defaults = {
    registrationMode: config.auth.registrationModeDefault,
    registrationRequiredFields: config.auth.registrationRequiredFields,
  };
  const mode = () => readRegistrationMode(db, defaults);
  const requiredFields = () => readRegistrationRequiredFields(db, defaults);

  /** What a new account's answer would carry, for an address that is taken: nothing of the real one. */
  const lookalike = (input: RegisterRequest & { email: string }, credits: number): User => ({
    id: randomUUID(),
    name: input.name.trim(),
    email: input.email,
    credits,
    app_mode: 'trial',
    role: 'user',
    created_at: now().toISOString(),
  });

  async function tellOwner(owner: UserRow, client: ClientContext) {
    // A few a day at most, however often the address is tried.
    if (!(await limits.count('registerTakenMailsPerAccount', owner.id))) return;
    await mailer.send(
      registerAttemptMail(
        owner.email,
        owner.name,
        `${config.appUrl}/login`,
        `${config.appUrl}/forgot-password`,
      ),
    );
    await recordAudit(db, audit('auth.register.taken_notice', 'success', { user: owner }, client));
  }

  return {
    /** Whether and how the sign-up form is open on this deployment (the stored setting, else the environment's). */
    async registrationStatus(): Promise<RegistrationStatus> {
      const [current, required] = await Promise.all([mode(), requiredFields()]);
      return {
        registration_enabled: current !== 'closed',
        registration_mode: current,
        required_fields: required,
      };
    },

    /** The sign-up profile fields a registration must give now (the admin setting, else the environment's). */
    registrationRequiredFields(): Promise<SignupField[]> {
      return requiredFields();
    },

    async register(
      input: RegisterRequest & { email: string },
      client: ClientContext,
    ): Promise<{ user: User; approvalRequired: boolean }> {
      const current = await mode();
      if (current === 'closed') {
        await recordAudit(
          db,
          audit('auth.register', 'denied', { email: input.email }, client, {
            reason: 'registration_disabled',
          }),
        );
        throw forbidden(messages.register.disabled);
      }
      await limits.consume('registerPerIp', client.ip);
      const refused = await passwordPolicy.check(input.password);
      if (refused) throw validationError({ password: [refused] });
      const approvalRequired = current === 'approval';
      // A pending account holds nothing until an admin approves it (the grant comes with the approval).
      const grant = approvalRequired ? 0 : config.auth.trialCredits;
      // Hashed whether or not the address is free, so the answer takes as long either way.
      const passwordHash = await hashPassword(input.password);
      /**
       * The address already has an account: the answer is the one a new address gets (status, body,
       * about the same time), so the form says nothing about who has an account; the owner is told
       * by e-mail instead.
       */
      const taken = async (owner: UserRow | undefined) => {
        await recordAudit(
          db,
          audit('auth.register', 'failure', { user: owner, email: input.email }, client, {
            reason: 'email_taken',
          }),
        );
        if (owner) deps.background(() => tellOwner(owner, client));
        return { user: lookalike(input, grant), approvalRequired };
      };
      const existing = await findUserByEmail(db, input.email);
      if (existing) return taken(existing);
      try {
        const row = await db.transaction(async (tx) => {
          const [created] = await tx
            .insert(users)
            .values({
              name: input.name.trim(),
              email: input.email,
              organisation: input.organisation?.trim() || null,
              designation: input.designation?.trim() || null,
              identityReference: input.identity_reference?.trim() || null,
              passwordHash,
              appMode: 'trial',
              role: 'user',
              status: current === 'approval' ? 'pending' : 'active',
            })
            .returning();
          if (!created) throw new Error('user insert returned nothing');
          if (grant > 0) {
            created.credits = await applyCreditChange(tx, {
              userId: created.id,
              delta: grant,
              kind: 'grant',
              reason: 'Trial credit grant on registration',
            });
          }
          await recordAudit(
            tx,
            audit('auth.register', 'success', { user: created }, client, {
              app_mode: created.appMode,
              credits: created.credits,
              status: created.status,
              registration_mode: current,
            }),
          );
          return created;
        });
        return { user: presentUser(row), approvalRequired: row.status === 'pending' };
      } catch (error) {
        // Registered by a parallel request a moment ago: the same answer, and its owner is told.
        if (isUniqueViolation(error)) return taken(await findUserByEmail(db, input.email));
        throw error;
      }
    },
  };
}
