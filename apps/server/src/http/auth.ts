import { API_KEY_PREFIX, type ApiKeyScope } from '@footprint/domain';
import type { FastifyInstance, FastifyReply, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import { administers, usesLiveFeatures } from '../access/policy.ts';
import type { UserRow } from '../db/schema.ts';
import { forbidden, secondFactorSetupRequired, unauthenticated } from '../errors.ts';
import { sha256 } from '../security/crypto.ts';
import { type Quota, RateLimitedError } from '../security/rate-limit.ts';
import { type ApiKeyActor, bearerOf } from './context.ts';
import { rateLimitFields } from './rate-limit-fields.ts';
import type { Session } from './session-cache.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the `authenticate` guard; routes behind it can rely on it. */
    user: UserRow | null;
    tokenId: string | null;
    /** The deployment requires a second factor and this account has none yet (set by `authenticate`). */
    secondFactorSetupRequired: boolean;
    /** The API key the request was authenticated with; null for a session (set by `authenticate`). */
    apiKey: ApiKeyActor | null;
  }
  interface FastifyContextConfig {
    /** The route stays open to an account that must still set up a second factor (the Security page). */
    allowWithoutSecondFactor?: boolean;
    /**
     * The route reads the account from the database on every request, never from the session cache
     * (http/session-cache.ts): it shows the balance, or changes the account or its sessions.
     */
    freshSession?: boolean;
    /**
     * The API-key scope the route belongs to (docs/api.md): an `fp_` key with this scope may call it.
     * A route without one answers any API key 403: account, security, sessions, admin and the keys
     * themselves are for a signed-in person only.
     */
    scope?: ApiKeyScope;
  }
}

/**
 * A route's options that let API keys with `scope` call it, e.g.
 * `api.post('/api/bulk', { preHandler, ...apiKeyScope('bulk'), schema }, …)`. Spread it before any
 * `config` of the route's own, or merge the two.
 */
export const apiKeyScope = (scope: ApiKeyScope) => ({ config: { scope } });

/** An API key let through to a route (modules/api-keys/access.ts): its account, the key, its quota. */
export interface KeyAdmission {
  user: UserRow;
  key: ApiKeyActor;
  /** Where the key's per-minute limit stands after this request; absent when limits are off. */
  quota: Quota | undefined;
}

/** The credentials the guard checks, handed in by app.ts from the modules that own them. */
export interface Credentials {
  /**
   * The session behind a token's SHA-256 (modules/auth/session-check.ts): cached for under a second
   * unless `fresh`; nothing when the token is unknown, expired, revoked or its account inactive.
   */
  sessionOf(hash: string, fresh: boolean): Promise<Session | undefined>;
  /**
   * The API key behind an `fp_` bearer, let through to a route of `scope` (modules/api-keys/access.ts);
   * null when no key has this hash. Throws the 403s of scopes, and a RateLimitedError carrying the
   * key's quota when its limit is spent.
   */
  admitKey(token: string, scope: ApiKeyScope | undefined): Promise<KeyAdmission | null>;
  /**
   * Whether the deployment requires a second factor (the settings module answers it, cached); an
   * account without one then reaches only the routes marked `allowWithoutSecondFactor`.
   */
  secondFactorRequired(): Promise<boolean>;
}

/** The policy name of an API key's per-minute limit in the RateLimit fields (docs/api.md). */
export const API_KEY_RATE_POLICY = 'api-key';

export function registerAuth(app: FastifyInstance, credentials: Credentials) {
  const { secondFactorRequired } = credentials;
  app.decorateRequest('user', null);
  app.decorateRequest('tokenId', null);
  app.decorateRequest('secondFactorSetupRequired', false);
  app.decorateRequest('apiKey', null);

  /**
   * An `fp_` bearer that is an active key. Its answer, a 429 included, carries the key's RateLimit
   * fields, so a script can pace itself. Answers false when no key has this hash.
   */
  async function authenticateKey(
    request: FastifyRequest,
    reply: FastifyReply,
    token: string,
  ): Promise<boolean> {
    let admitted: KeyAdmission | null;
    try {
      admitted = await credentials.admitKey(token, request.routeOptions.config.scope);
    } catch (error) {
      if (error instanceof RateLimitedError && error.quota) {
        reply.headers(rateLimitFields(API_KEY_RATE_POLICY, error.quota));
      }
      throw error;
    }
    if (!admitted) return false;
    if (admitted.quota) reply.headers(rateLimitFields(API_KEY_RATE_POLICY, admitted.quota));
    request.user = admitted.user;
    request.tokenId = null;
    request.apiKey = admitted.key;
    request.secondFactorSetupRequired = false;
    return true;
  }

  const authenticate: preHandlerAsyncHookHandler = async (request, reply) => {
    const token = bearerOf(request);
    if (!token) throw unauthenticated();
    if (token.startsWith(API_KEY_PREFIX) && (await authenticateKey(request, reply, token))) return;
    const config = request.routeOptions.config;
    const found = await credentials.sessionOf(sha256(token), config.freshSession === true);
    if (!found) throw unauthenticated();
    // Each request its own copy: a handler may not change what the next one reads.
    request.user = { ...found.user };
    request.tokenId = found.tokenId;
    request.secondFactorSetupRequired = !found.hasSecondFactor && (await secondFactorRequired());
    if (request.secondFactorSetupRequired && !config.allowWithoutSecondFactor) {
      throw secondFactorSetupRequired();
    }
  };

  const requireAdmin: preHandlerAsyncHookHandler = async (request) => {
    if (!administers(request.user)) throw forbidden();
  };

  const requireLive: preHandlerAsyncHookHandler = async (request) => {
    if (!usesLiveFeatures(request.user)) throw forbidden('This feature is only available to live accounts.');
  };

  return { authenticate, requireAdmin, requireLive };
}

export type Guards = ReturnType<typeof registerAuth>;
