import { csrfCookieResponse, XSRF_COOKIE, XSRF_HEADER } from '@footprint/domain';
import type { FastifyInstance, preHandlerAsyncHookHandler } from 'fastify';
import { csrfMismatch } from '../errors.ts';
import { randomToken, safeEqual } from '../security/crypto.ts';

/**
 * Double-submit CSRF protection in the shape the spec's browser expects (Laravel Sanctum): it first
 * calls GET /sanctum/csrf-cookie, then echoes the XSRF-TOKEN cookie in the X-XSRF-TOKEN header.
 * A cross-site form can send the cookie but cannot read it to set the header.
 */
export function registerCsrf(app: FastifyInstance, secure: boolean): preHandlerAsyncHookHandler {
  const schema = {
    summary: 'Sets the XSRF-TOKEN cookie that forgot and reset password echo in X-XSRF-TOKEN',
    tags: ['Accounts'],
    response: { 204: csrfCookieResponse },
  };
  app.get('/sanctum/csrf-cookie', { schema }, async (_request, reply) => {
    reply.setCookie(XSRF_COOKIE, randomToken(24), {
      path: '/',
      sameSite: 'lax',
      httpOnly: false,
      secure,
      maxAge: 2 * 60 * 60,
    });
    return reply.status(204).send();
  });

  return async (request) => {
    const cookie = request.cookies[XSRF_COOKIE];
    const raw = request.headers[XSRF_HEADER];
    const header = Array.isArray(raw) ? raw[0] : raw;
    if (!cookie || !header || !safeEqual(cookie, safeDecode(header))) {
      throw csrfMismatch();
    }
  };
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
