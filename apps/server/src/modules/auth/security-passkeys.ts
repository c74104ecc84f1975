/** Adding, renaming and removing passkeys, for the Security page. */
import { messages } from '@footprint/domain';
import { and, desc, eq, gt, isNull } from 'drizzle-orm';
import { own } from '../../access/policy.ts';
import { secondFactorChallenges, type UserRow } from '../../db/schema.ts';
import { notFound, validationError } from '../../errors.ts';
import type { ClientContext } from '../../http/context.ts';
import { recordAudit } from '../audit/service.ts';
import { presentPasskey } from './passkeys.ts';
import type { SecurityContext } from './security-context.ts';
import { authAudit as audit, minutes } from './types.ts';

const REGISTRATION_TTL_MINUTES = 5;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The options for navigator.credentials.create; the challenge is kept for five minutes. */
export async function passkeyRegistrationOptions(ctx: SecurityContext, user: UserRow) {
  const options = await ctx.passkeys.registrationOptions(user);
  await ctx.db.transaction(async (tx) => {
    await tx
      .update(secondFactorChallenges)
      .set({ consumedAt: ctx.now() })
      .where(
        and(
          own(secondFactorChallenges, user.id),
          eq(secondFactorChallenges.purpose, 'passkey_registration'),
          isNull(secondFactorChallenges.consumedAt),
        ),
      );
    await tx.insert(secondFactorChallenges).values({
      userId: user.id,
      purpose: 'passkey_registration',
      webauthnChallenge: options.challenge,
      createdAt: ctx.now(),
      expiresAt: new Date(ctx.now().getTime() + minutes(REGISTRATION_TTL_MINUTES)),
    });
  });
  return options as unknown as Record<string, unknown>;
}

export async function addPasskey(
  ctx: SecurityContext,
  user: UserRow,
  input: { name: string; response: unknown },
  client: ClientContext,
) {
  const [open] = await ctx.db
    .select()
    .from(secondFactorChallenges)
    .where(
      and(
        own(secondFactorChallenges, user.id),
        eq(secondFactorChallenges.purpose, 'passkey_registration'),
        isNull(secondFactorChallenges.consumedAt),
        gt(secondFactorChallenges.expiresAt, ctx.now()),
      ),
    )
    .orderBy(desc(secondFactorChallenges.createdAt))
    .limit(1);
  // The challenge answers one registration, right or wrong.
  const [taken] = open
    ? await ctx.db
        .update(secondFactorChallenges)
        .set({ consumedAt: ctx.now() })
        .where(and(eq(secondFactorChallenges.id, open.id), isNull(secondFactorChallenges.consumedAt)))
        .returning({ challenge: secondFactorChallenges.webauthnChallenge })
    : [];
  const credential = taken?.challenge
    ? await ctx.passkeys.verifyRegistration(input.response, taken.challenge)
    : undefined;
  if (!credential) {
    await recordAudit(
      ctx.db,
      audit('security.passkey.add', 'failure', { user }, client, {
        reason: taken ? 'not_verified' : 'no_open_challenge',
      }),
    );
    throw validationError({ response: [messages.security.passkeys.failed] });
  }
  const first = !(await ctx.factors.enrolled(ctx.db, user.id)).any;
  const row = await ctx.passkeys.save(ctx.db, user.id, input.name, credential);
  if (!row) {
    await recordAudit(
      ctx.db,
      audit('security.passkey.add', 'failure', { user }, client, { reason: 'duplicate' }),
    );
    throw validationError({ response: [messages.security.passkeys.duplicate] });
  }
  const codes = first ? await ctx.afterFirstFactor(user.id) : [];
  await recordAudit(
    ctx.db,
    audit('security.passkey.add', 'success', { user }, client, {
      passkey_id: row.id,
      name: row.name,
      recovery_codes_issued: codes.length,
    }),
  );
  return {
    message: messages.security.passkeys.added,
    passkey: presentPasskey(row),
    recovery_codes: codes,
  };
}

export async function renamePasskey(
  ctx: SecurityContext,
  user: UserRow,
  id: string,
  name: string,
  client: ClientContext,
) {
  const row = UUID.test(id) ? await ctx.passkeys.rename(user.id, id, name) : undefined;
  if (!row) throw notFound(messages.security.passkeys.notFound);
  await recordAudit(
    ctx.db,
    audit('security.passkey.rename', 'success', { user }, client, { passkey_id: row.id, name }),
  );
  return presentPasskey(row);
}

export async function removePasskey(
  ctx: SecurityContext,
  user: UserRow,
  id: string,
  password: string,
  client: ClientContext,
) {
  const mine = UUID.test(id) ? (await ctx.passkeys.ofUser(user.id)).find((row) => row.id === id) : undefined;
  if (!mine) throw notFound(messages.security.passkeys.notFound);
  await ctx.confirmPassword(user, password, 'security.passkey.remove', client);
  await ctx.refuseIfLast(user, 'passkey', 'security.passkey.remove', client);
  const row = await ctx.passkeys.remove(ctx.db, user.id, id);
  if (!row) throw notFound(messages.security.passkeys.notFound);
  await ctx.afterRemoval(user.id);
  await recordAudit(
    ctx.db,
    audit('security.passkey.remove', 'success', { user }, client, { passkey_id: row.id, name: row.name }),
  );
  return { message: messages.security.passkeys.removed };
}
