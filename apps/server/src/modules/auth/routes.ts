import {
  forgotPasswordRequest,
  loginRequest,
  messages,
  type RegistrationStatus,
  registerRequest,
  resendOtpRequest,
  resetPasswordRequest,
  verifyOtpRequest,
} from '@footprint/domain';
import type { FastifyInstance, preHandlerAsyncHookHandler } from 'fastify';
import type { Database } from '../../db/client.ts';
import type { Guards } from '../../http/auth.ts';
import { bearerOf, clientOf } from '../../http/context.ts';
import { parseInput } from '../../http/errors.ts';
import { sha256 } from '../../security/crypto.ts';
import { isRegistrationEnabled } from '../settings/service.ts';
import { presentUser } from '../users/repository.ts';
import type { AuthService } from './service.ts';

export function authRoutes(
  app: FastifyInstance,
  deps: {
    auth: AuthService;
    guards: Guards;
    csrf: preHandlerAsyncHookHandler;
    db: Database;
    registrationDefault: boolean;
  },
) {
  const { auth, guards, csrf } = deps;

  app.get('/api/user', { preHandler: guards.authenticate }, async (request) => presentUser(request.user!));

  app.get(
    '/api/registration-status',
    async (): Promise<RegistrationStatus> => ({
      registration_enabled: await isRegistrationEnabled(deps.db, {
        registrationEnabled: deps.registrationDefault,
      }),
    }),
  );

  app.post('/api/login', async (request, reply) => {
    const input = parseInput(loginRequest, request.body);
    const outcome = await auth.login(input, clientOf(request));
    // An untrusted device answers 403 with otp_required (spec §7): the browser moves to the OTP page.
    return reply.status(outcome.kind === 'otp' ? 403 : 200).send(outcome.body);
  });

  app.post('/api/verify-email-otp', async (request) => {
    const input = parseInput(verifyOtpRequest, request.body);
    return auth.verifyOtp(input, clientOf(request));
  });

  app.post('/api/resend-otp', async (request) => {
    const input = parseInput(resendOtpRequest, request.body);
    return auth.resendOtp(input.email, clientOf(request));
  });

  app.post('/api/register', async (request, reply) => {
    const input = parseInput(registerRequest, request.body);
    const user = await auth.register(input, clientOf(request));
    return reply.status(201).send({ message: messages.register.created, user });
  });

  // Logout never answers 401: the spec's browser treats any 401 as an expired session.
  app.post('/api/logout', async (request) => {
    const token = bearerOf(request);
    return auth.logout(token ? sha256(token) : undefined, clientOf(request));
  });

  app.post('/forgot-password', { preHandler: csrf }, async (request) => {
    const input = parseInput(forgotPasswordRequest, request.body);
    return auth.forgotPassword(input, clientOf(request));
  });

  app.post('/api/reset-password', { preHandler: csrf }, async (request) => {
    const input = parseInput(resetPasswordRequest, request.body);
    return auth.resetPassword(input, clientOf(request));
  });
}
