import type { UserRow } from '../../db/schema.ts';
import type { ClientContext } from '../../http/context.ts';
import type { Factors } from './factors.ts';
import type { Passkeys } from './passkeys.ts';
import { createSecurityContext } from './security-context.ts';
import {
  confirmTotp,
  regenerateRecoveryCodes,
  removeTotp,
  signOutEverywhere,
  startTotp,
} from './security-factors.ts';
import { addPasskey, passkeyRegistrationOptions, removePasskey, renamePasskey } from './security-passkeys.ts';
import type { TrustedDevices } from './trusted-devices.ts';
import type { AuthDeps } from './types.ts';

/**
 * The signed-in side of second factors (the Security page): set up and turn off the authenticator
 * app, replace the recovery codes, add, rename and remove passkeys, see the trusted devices, and sign
 * out everywhere. Taking a factor away or replacing the recovery codes asks for the password again,
 * so a session left open is not enough to weaken the account. Every change is audited. Each action is
 * a function of its own (security-factors.ts, security-passkeys.ts) over one context.
 */
export function createSecurity(
  deps: AuthDeps,
  parts: { factors: Factors; passkeys: Passkeys; devices: TrustedDevices },
) {
  const ctx = createSecurityContext(deps, parts);
  return {
    overview: ctx.overview,
    startTotp: (user: UserRow, client: ClientContext) => startTotp(ctx, user, client),
    confirmTotp: (user: UserRow, code: string, client: ClientContext) => confirmTotp(ctx, user, code, client),
    removeTotp: (user: UserRow, password: string, client: ClientContext) =>
      removeTotp(ctx, user, password, client),
    regenerateRecoveryCodes: (user: UserRow, password: string, client: ClientContext) =>
      regenerateRecoveryCodes(ctx, user, password, client),
    passkeyRegistrationOptions: (user: UserRow) => passkeyRegistrationOptions(ctx, user),
    addPasskey: (user: UserRow, input: { name: string; response: unknown }, client: ClientContext) =>
      addPasskey(ctx, user, input, client),
    renamePasskey: (user: UserRow, id: string, name: string, client: ClientContext) =>
      renamePasskey(ctx, user, id, name, client),
    removePasskey: (user: UserRow, id: string, password: string, client: ClientContext) =>
      removePasskey(ctx, user, id, password, client),
    signOutEverywhere: (user: UserRow, client: ClientContext) => signOutEverywhere(ctx, user, client),
  };
}

export type Security = ReturnType<typeof createSecurity>;
