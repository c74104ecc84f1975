import {
  fieldMessages,
  messages,
  type RegisterRequest,
  type RegistrationStatus,
  type User,
} from '@footprint/domain';
import { users } from '../../db/schema.ts';
import type { ClientContext } from '../../http/context.ts';
import { forbidden, validationError } from '../../http/errors.ts';
import { hashPassword } from '../../security/passwords.ts';
import { recordAudit } from '../audit/service.ts';
import { applyCreditChange } from '../credits/service.ts';
import { readRegistrationMode } from '../settings/service.ts';
import { presentUser } from '../users/present.ts';
import { findUserByEmail } from '../users/repository.ts';
import { type AuthDeps, authAudit as audit, isUniqueViolation } from './types.ts';

/**
 * Sign-up: a trial account with the trial credit grant, as the registration mode allows. In `open`
 * mode it can sign in at once; in `approval` mode it is `pending` until an admin approves it (the
 * grant is made now, but a pending account cannot sign in to spend it); `closed` refuses.
 */
export function createRegistration(deps: Pick<AuthDeps, 'db' | 'config' | 'limits'>) {
  const { db, config, limits } = deps;
  const mode = () => readRegistrationMode(db, { registrationMode: config.auth.registrationModeDefault });

  return {
    /** Whether and how the sign-up form is open on this deployment (the stored setting, else the environment's). */
    async registrationStatus(): Promise<RegistrationStatus> {
      const current = await mode();
      return { registration_enabled: current !== 'closed', registration_mode: current };
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
      const taken = async () => {
        await recordAudit(
          db,
          audit('auth.register', 'failure', { email: input.email }, client, { reason: 'email_taken' }),
        );
        return validationError({ email: [fieldMessages.taken('email')] });
      };
      if (await findUserByEmail(db, input.email)) throw await taken();
      const passwordHash = await hashPassword(input.password);
      try {
        const row = await db.transaction(async (tx) => {
          const [created] = await tx
            .insert(users)
            .values({
              name: input.name.trim(),
              email: input.email,
              passwordHash,
              appMode: 'trial',
              role: 'user',
              status: current === 'approval' ? 'pending' : 'active',
            })
            .returning();
          if (!created) throw new Error('user insert returned nothing');
          if (config.auth.trialCredits > 0) {
            created.credits = await applyCreditChange(tx, {
              userId: created.id,
              delta: config.auth.trialCredits,
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
        if (isUniqueViolation(error)) throw await taken();
        throw error;
      }
    },
  };
}
