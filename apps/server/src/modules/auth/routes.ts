import {
  errorResponse,
  forgotPasswordRequest,
  loginRequest,
  logoutResponse,
  messages,
  otpRequiredResponse,
  passwordStatusResponse,
  registerRequest,
  registerResponse,
  registrationStatusResponse,
  resendOtpRequest,
  resendOtpResponse,
  resetPasswordRequest,
  tokenResponse,
  userResponse,
  verifyOtpRequest,
} from '@footprint/domain';
import type { FastifyInstance, preHandlerAsyncHookHandler } from 'fastify';
import { z } from 'zod';
import type { Guards } from '../../http/auth.ts';
import { bearerOf, clientOf } from '../../http/context.ts';
import type { ContractTypeProvider } from '../../http/contracts.ts';
import { parseInput } from '../../http/errors.ts';
import { sha256 } from '../../security/crypto.ts';
import { presentUser } from '../users/present.ts';
import type { AuthService } from './service.ts';

const tags = ['Accounts'];

export function authRoutes(
  app: FastifyInstance,
  deps: { auth: AuthService; guards: Guards; csrf: preHandlerAsyncHookHandler },
) {
  const { auth, guards, csrf } = deps;
  const api = app.withTypeProvider<ContractTypeProvider>();

  api.get(
    '/api/user',
    {
      preHandler: guards.authenticate,
      schema: { summary: 'The signed-in user', tags, response: { 200: userResponse } },
    },
    async (request) => presentUser(request.user!),
  );

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
    '/api/login',
    {
      schema: {
        summary: 'Sign in',
        description:
          'A trusted device gets a token. An untrusted one gets 403 with otp_required, and a code is mailed. ' +
          'Wrong credentials are a 422, never a 401.',
        tags,
        body: loginRequest,
        response: { 200: tokenResponse, 403: z.union([otpRequiredResponse, errorResponse]) },
      },
    },
    async (request, reply) => {
      const input = parseInput(loginRequest, request.body);
      const outcome = await auth.login(input, clientOf(request));
      // An untrusted device answers 403 with otp_required (spec §7): the browser moves to the OTP page.
      return reply.status(outcome.kind === 'otp' ? 403 : 200).send(outcome.body);
    },
  );

  api.post(
    '/api/verify-email-otp',
    {
      schema: {
        summary: 'Prove the mailed code; trusts the device that sent it',
        tags,
        body: verifyOtpRequest,
        response: { 200: tokenResponse },
      },
    },
    async (request) => {
      const input = parseInput(verifyOtpRequest, request.body);
      return auth.verifyOtp(input, clientOf(request));
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
      },
    },
    async (request) => {
      const input = parseInput(resendOtpRequest, request.body);
      return auth.resendOtp(input.email, clientOf(request));
    },
  );

  api.post(
    '/api/register',
    {
      schema: {
        summary: 'Open a trial account (pending approval while the registration mode is approval)',
        description:
          'The answer is the same 201 in every mode; approval_required says whether the account must be ' +
          'approved by an administrator before it can sign in. 403 while registration is closed.',
        tags,
        body: registerRequest,
        response: { 201: registerResponse },
      },
    },
    async (request, reply) => {
      const input = parseInput(registerRequest, request.body);
      const { user, approvalRequired } = await auth.register(input, clientOf(request));
      return reply
        .status(201)
        .send({ message: messages.register.created, user, approval_required: approvalRequired });
    },
  );

  // Logout never answers 401: the spec's browser treats any 401 as an expired session.
  api.post(
    '/api/logout',
    {
      schema: {
        summary: "Revoke the caller's token (never a 401)",
        tags,
        response: { 200: logoutResponse },
      },
    },
    async (request) => {
      const token = bearerOf(request);
      return auth.logout(token ? sha256(token) : undefined, clientOf(request));
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
      },
    },
    async (request) => {
      const input = parseInput(resetPasswordRequest, request.body);
      return auth.resetPassword(input, clientOf(request));
    },
  );
}
