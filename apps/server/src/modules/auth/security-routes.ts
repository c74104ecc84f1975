import {
  messageResponse,
  passkeyCreatedResponse,
  passkeyOptionsRequest,
  passkeyRegisterRequest,
  passkeyRenameRequest,
  passkeySummary,
  passwordConfirmRequest,
  recoveryCodesResponse,
  secondFactorRequest,
  securityOverviewResponse,
  tokenResponse,
  totpConfirmRequest,
  totpSetupResponse,
  webauthnOptionsResponse,
} from '@footprint/domain';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { parseInput } from '../../errors.ts';
import type { Guards } from '../../http/auth.ts';
import { clientOf } from '../../http/context.ts';
import type { ContractTypeProvider } from '../../http/contracts.ts';
import { REFUSALS } from '../../http/responses.ts';
import { setDeviceCookie } from './routes.ts';
import type { AuthService } from './service.ts';

const tags = ['Second factors'];
const WRONG_HOST =
  'A passkey asked for from a page open at another origin than APP_URL (the relying party): the message says where passkeys work (`passkey_url`, `errors.response`).';
const idParams = z.object({ id: z.string() });

/** What every route of securityRoutes shares. */
function securityRoutesContext(
  app: FastifyInstance,
  deps: { auth: AuthService; guards: Guards; secureCookies: boolean },
) {
  const { auth, guards, secureCookies } = deps;
  const api = app.withTypeProvider<ContractTypeProvider>();
  const security = auth.security;
  // The account's own security: always read from the database, never from the session cache.
  const signedIn = {
    preHandler: guards.authenticate,
    config: { allowWithoutSecondFactor: true, freshSession: true },
  };
  return { auth, guards, secureCookies, api, security, signedIn, deps };
}

function signInFactorRoutes(context: ReturnType<typeof securityRoutesContext>) {
  const { auth, secureCookies, api } = context;
  api.post(
    '/api/login/second-factor',
    {
      schema: {
        summary: 'Finish a sign-in with an authenticator code, a recovery code or a passkey',
        description:
          'token is the second_factor_token of the login answer; give exactly one of code, recovery_code ' +
          'or passkey. A wrong answer is a 422; after five the sign-in must start again.',
        tags,
        body: secondFactorRequest,
        response: { 200: tokenResponse },
        refusals: { 400: WRONG_HOST, 429: REFUSALS.rateLimited },
      },
    },
    async (request, reply) => {
      const sent = request.body as Record<string, unknown> | null | undefined;
      if (sent && typeof sent === 'object' && sent.passkey !== undefined) {
        auth.assertPasskeyOrigin(request.headers.origin);
      }
      const input = parseInput(secondFactorRequest, request.body);
      const { body, cookie } = await auth.verifySecondFactor(input, clientOf(request));
      setDeviceCookie(reply, cookie, secureCookies);
      return body;
    },
  );

  api.post(
    '/api/login/second-factor/passkey-options',
    {
      schema: {
        summary: 'WebAuthn options for finishing a sign-in with a passkey',
        tags,
        body: passkeyOptionsRequest,
        response: { 200: webauthnOptionsResponse },
        refusals: { 400: WRONG_HOST },
      },
    },
    async (request) => {
      auth.assertPasskeyOrigin(request.headers.origin);
      const input = parseInput(passkeyOptionsRequest, request.body);
      return auth.secondFactorPasskeyOptions(input.token, clientOf(request));
    },
  );
}

function totpRoutes(context: ReturnType<typeof securityRoutesContext>) {
  const { auth, api, security, signedIn } = context;
  api.get(
    '/api/security',
    {
      ...signedIn,
      schema: {
        summary: "The account's second factors and trusted devices",
        tags,
        response: { 200: securityOverviewResponse },
      },
    },
    async (request) => security.overview(request.user!, clientOf(request)),
  );

  api.post(
    '/api/security/totp/setup',
    {
      ...signedIn,
      schema: {
        summary: 'Start setting up an authenticator app: a new secret and its QR code',
        tags,
        response: { 200: totpSetupResponse },
        refusals: { 422: 'An authenticator app is already set up (`errors.code`).' },
      },
    },
    async (request) => security.startTotp(request.user!, clientOf(request)),
  );

  api.post(
    '/api/security/totp/confirm',
    {
      ...signedIn,
      schema: {
        summary: 'Confirm the authenticator app with a code from it; the first factor brings recovery codes',
        tags,
        body: totpConfirmRequest,
        response: { 200: recoveryCodesResponse },
      },
    },
    async (request) => {
      const input = parseInput(totpConfirmRequest, request.body);
      return security.confirmTotp(request.user!, input.code, clientOf(request));
    },
  );

  api.post(
    '/api/security/totp/remove',
    {
      ...signedIn,
      schema: {
        summary: 'Turn the authenticator app off (asks for the password)',
        tags,
        body: passwordConfirmRequest,
        response: { 200: messageResponse },
      },
    },
    async (request) => {
      const input = parseInput(passwordConfirmRequest, request.body);
      return security.removeTotp(request.user!, input.password, clientOf(request));
    },
  );

  api.post(
    '/api/security/recovery-codes',
    {
      ...signedIn,
      schema: {
        summary: 'Replace the recovery codes (asks for the password); the new ones are shown once',
        tags,
        body: passwordConfirmRequest,
        response: { 200: recoveryCodesResponse },
      },
    },
    async (request) => {
      const input = parseInput(passwordConfirmRequest, request.body);
      return security.regenerateRecoveryCodes(request.user!, input.password, clientOf(request));
    },
  );

  api.post(
    '/api/security/sign-out-everywhere',
    {
      ...signedIn,
      schema: {
        summary: 'End every session of the account (this one too) and forget every trusted device',
        tags,
        response: { 200: messageResponse },
      },
    },
    async (request, reply) => {
      const result = await security.signOutEverywhere(request.user!, clientOf(request));
      reply.clearCookie(auth.deviceCookieNameOf(request.user!.id), { path: '/api/login' });
      return result;
    },
  );
}

function passkeyRoutes(context: ReturnType<typeof securityRoutesContext>) {
  const { auth, api, security, signedIn } = context;
  api.post(
    '/api/security/passkeys/options',
    {
      ...signedIn,
      schema: {
        summary: 'WebAuthn options for adding a passkey',
        tags,
        response: { 200: webauthnOptionsResponse },
        refusals: { 400: WRONG_HOST },
      },
    },
    async (request) => {
      auth.assertPasskeyOrigin(request.headers.origin);
      return security.passkeyRegistrationOptions(request.user!);
    },
  );

  api.post(
    '/api/security/passkeys',
    {
      ...signedIn,
      schema: {
        summary: 'Add a passkey from its registration response',
        tags,
        body: passkeyRegisterRequest,
        response: { 201: passkeyCreatedResponse },
        refusals: { 400: WRONG_HOST },
      },
    },
    async (request, reply) => {
      auth.assertPasskeyOrigin(request.headers.origin);
      const input = parseInput(passkeyRegisterRequest, request.body);
      const created = await security.addPasskey(request.user!, input, clientOf(request));
      return reply.status(201).send(created);
    },
  );

  api.patch(
    '/api/security/passkeys/:id',
    {
      ...signedIn,
      schema: {
        summary: 'Rename a passkey',
        tags,
        params: idParams,
        body: passkeyRenameRequest,
        response: { 200: passkeySummary },
      },
    },
    async (request) => {
      const input = parseInput(passkeyRenameRequest, request.body);
      const { id } = request.params as { id: string };
      return security.renamePasskey(request.user!, id, input.name, clientOf(request));
    },
  );

  api.post(
    '/api/security/passkeys/:id/remove',
    {
      ...signedIn,
      schema: {
        summary: 'Remove a passkey (asks for the password)',
        tags,
        params: idParams,
        body: passwordConfirmRequest,
        response: { 200: messageResponse },
      },
    },
    async (request) => {
      const input = parseInput(passwordConfirmRequest, request.body);
      const { id } = request.params as { id: string };
      return security.removePasskey(request.user!, id, input.password, clientOf(request));
    },
  );
}

/**
 * The second step of a sign-in (public: the sign-in token is the credential) and the Security page's
 * calls (signed in; open to an account that must still set up a second factor).
 */
export function securityRoutes(
  app: FastifyInstance,
  deps: { auth: AuthService; guards: Guards; secureCookies: boolean },
) {
  const context = securityRoutesContext(app, deps);
  signInFactorRoutes(context);
  totpRoutes(context);
  passkeyRoutes(context);
}
