import {
  errorResponse,
  forgotPasswordRequest,
  loginRequest,
  logoutResponse,
  messages,
  otpRequiredResponse,
  passwordStatusResponse,
  registerRequest,
  registerRequestFor,
  registerResponse,
  registrationStatusResponse,
  resendOtpRequest,
  resendOtpResponse,
  resetPasswordRequest,
  secondFactorRequiredResponse,
  tokenResponse,
  userResponse,
  verifyOtpRequest,
} from '@footprint/domain';
import type { FastifyInstance, FastifyReply, preHandlerAsyncHookHandler } from 'fastify';
import { z } from 'zod';
import type { Executor } from '../../db/client.ts';
import { parseInput } from '../../errors.ts';
import type { Guards } from '../../http/auth.ts';
import { bearerOf, clientOf } from '../../http/context.ts';
import type { ContractTypeProvider } from '../../http/contracts.ts';
import { REFUSALS } from '../../http/responses.ts';
import { sha256 } from '../../security/crypto.ts';
import { presentOwnPool } from '../credits/present.ts';
import { poolOf } from '../credits/service.ts';
import { presentUser } from '../users/present.ts';
import { type AuthService, DEVICE_COOKIE_PATH, type DeviceCookie } from './service.ts';

const tags = ['Accounts'];

/**
 * Hands a trusted device its secret: HttpOnly (no script can read it), SameSite=Strict and scoped to
 * the sign-in calls, the only ones that read it; Secure when APP_URL is https.
 */
export function setDeviceCookie(reply: FastifyReply, cookie: DeviceCookie | undefined, secure: boolean) {
  if (!cookie) return;
  reply.setCookie(cookie.name, cookie.value, {
    path: DEVICE_COOKIE_PATH,
    httpOnly: true,
    sameSite: 'strict',
    secure,
    maxAge: cookie.maxAgeSeconds,
  });
}

/** What every route of authRoutes shares. */
function authRoutesContext(
  app: FastifyInstance,
  deps: {
    auth: AuthService;
    guards: Guards;
    csrf: preHandlerAsyncHookHandler;
    secureCookies: boolean;
    db: Executor;
  },
) {
  const { auth, guards, csrf, secureCookies } = deps;
  const api = app.withTypeProvider<ContractTypeProvider>();
  return { auth, guards, csrf, secureCookies, api, deps };
}

function signInRoutes(context: ReturnType<typeof authRoutesContext>) {
  const { auth, guards, secureCookies, api } = context;
  api.get(
    '/api/user',
    {
      preHandler: guards.authenticate,
      // The balance shown must be the one after the last search, not a second old.
      config: { allowWithoutSecondFactor: true, freshSession: true },
      schema: { summary: 'The signed-in user', tags, response: { 200: userResponse } },
    },
    async (request) => ({
      ...presentUser(request.user!),
      second_factor_setup_required: request.secondFactorSetupRequired,
      pool: presentOwnPool(await poolOf(context.deps.db, request.user!.id, new Date())),
    }),
  );

  api.post(
    '/api/login',
    {
      schema: {
        summary: 'Sign in',
        description:
          'A trusted device (one that holds the secret cookie issued when it proved a code) gets a token. ' +
          'An untrusted one gets 403 with otp_required, and a code is mailed. An account with a second ' +
          'factor gets 403 with second_factor_required, its methods and a second_factor_token for ' +
          'POST /api/login/second-factor. Wrong credentials are a 422, never a 401.',
        tags,
        body: loginRequest,
        response: {
          200: tokenResponse,
          403: z.union([otpRequiredResponse, secondFactorRequiredResponse, errorResponse]),
        },
        refusals: {
          403: 'A code is needed (`otp_required`), a second factor (`second_factor_required`), or the account cannot sign in (`account_status`).',
          429: REFUSALS.rateLimited,
        },
      },
    },
    async (request, reply) => {
      const input = parseInput(loginRequest, request.body);
      const outcome = await auth.login(input, clientOf(request), (name) => request.cookies[name]);
      // An untrusted device answers 403 with otp_required (spec §7): the browser moves to the OTP page.
      return reply.status(outcome.kind === 'token' ? 200 : 403).send(outcome.body);
    },
  );

  api.post(
    '/api/verify-email-otp',
    {
      schema: {
        summary:
          'Prove the mailed code; trusts the device that sent it (an HttpOnly cookie holds its secret)',
        tags,
        body: verifyOtpRequest,
        response: { 200: tokenResponse },
        refusals: { 403: 'The account cannot sign in (`account_status`).', 429: REFUSALS.rateLimited },
      },
    },
    async (request, reply) => {
      const input = parseInput(verifyOtpRequest, request.body);
      const { body, cookie } = await auth.verifyOtp(input, clientOf(request));
      setDeviceCookie(reply, cookie, secureCookies);
      return body;
    },
  );

  api.post(
    '/api/resend-otp',
    {
      schema: {
        summary: 'Mail a new code (the same answer for unknown accounts)',
        tags,
        body: resendOtpRequest,
        response: { 200: resendOtpResponse },
        refusals: { 429: REFUSALS.rateLimited },
      },
    },
    async (request) => {
      const input = parseInput(resendOtpRequest, request.body);
      return auth.resendOtp(input.email, clientOf(request));
    },
  );

  // Logout never answers 401: the spec's browser treats any 401 as an expired session.
  api.post(
    '/api/logout',
    {
      schema: {
        summary: "Revoke the caller's token (never a 401; an API key gets 403: revoke it instead)",
        tags,
        response: { 200: logoutResponse },
        refusals: { 403: 'An API key: logout ends sessions only; revoke a key at /api/api-keys/{id}.' },
      },
    },
    async (request) => {
      const token = bearerOf(request);
      return auth.logout(token ? sha256(token) : undefined, clientOf(request));
    },
  );
}

function accountRoutes(context: ReturnType<typeof authRoutesContext>) {
  const { auth, csrf, api } = context;
  api.get(
    '/api/registration-status',
    {
      schema: {
        summary: 'Whether the sign-up form is open, and whether new accounts wait for approval',
        tags,
        response: { 200: registrationStatusResponse },
      },
    },
    async () => auth.registrationStatus(),
  );

  api.post(
    '/api/register',
    {
      schema: {
        summary: 'Open a trial account (pending approval while the registration mode is approval)',
        description:
          'The answer is the same 201 in every mode; approval_required says whether the account must be ' +
          'approved by an administrator before it can sign in. 403 while registration is closed. ' +
          'organisation, designation and identity_reference are required as GET /api/registration-status ' +
          'says (required_fields, an admin setting): a missing one is a 422 naming it.',
        tags,
        body: registerRequest,
        response: { 201: registerResponse },
        refusals: { 403: 'Registration is closed on this deployment.', 429: REFUSALS.rateLimited },
      },
    },
    async (request, reply) => {
      // The profile fields the admin setting requires are required here; the contract has them optional.
      const input = parseInput(registerRequestFor(await auth.registrationRequiredFields()), request.body);
      const { user, approvalRequired } = await auth.register(input, clientOf(request));
      return reply
        .status(201)
        .send({ message: messages.register.created, user, approval_required: approvalRequired });
    },
  );

  api.post(
    '/forgot-password',
    {
      preHandler: csrf,
      schema: {
        summary: 'Mail a reset link (the same answer for unknown accounts); needs X-XSRF-TOKEN',
        tags,
        body: forgotPasswordRequest,
        response: { 200: passwordStatusResponse },
        refusals: { 419: REFUSALS.csrf, 429: REFUSALS.rateLimited },
      },
    },
    async (request) => {
      const input = parseInput(forgotPasswordRequest, request.body);
      return auth.forgotPassword(input, clientOf(request));
    },
  );

  api.post(
    '/api/reset-password',
    {
      preHandler: csrf,
      schema: {
        summary: 'Set a new password with the mailed token; revokes every session; needs X-XSRF-TOKEN',
        tags,
        body: resetPasswordRequest,
        response: { 200: passwordStatusResponse },
        refusals: { 419: REFUSALS.csrf, 429: REFUSALS.rateLimited },
      },
    },
    async (request) => {
      const input = parseInput(resetPasswordRequest, request.body);
      return auth.resetPassword(input, clientOf(request));
    },
  );
}

export function authRoutes(
  app: FastifyInstance,
  deps: {
    auth: AuthService;
    guards: Guards;
    csrf: preHandlerAsyncHookHandler;
    secureCookies: boolean;
    db: Executor;
  },
) {
  const context = authRoutesContext(app, deps);
  signInRoutes(context);
  accountRoutes(context);
}
