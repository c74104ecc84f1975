import {
  apiKeyCreatedResponse,
  apiKeyCreateRequest,
  apiKeyListResponse,
  apiKeySummary,
  MAX_API_KEYS,
} from '@footprint/domain';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { parseInput } from '../../errors.ts';
import type { Guards } from '../../http/auth.ts';
import { clientOf } from '../../http/context.ts';
import type { ContractTypeProvider } from '../../http/contracts.ts';
import type { ApiKeyService } from './service.ts';

const tags = ['API keys'];
const idParams = z.object({ id: z.string() });

/**
 * The API keys page's calls. Signed-in live accounts only, and a session only: these routes declare no
 * scope, so an API key is refused here (a key cannot make or list keys).
 */
export function apiKeyRoutes(app: FastifyInstance, deps: { apiKeys: ApiKeyService; guards: Guards }) {
  const { apiKeys, guards } = deps;
  const api = app.withTypeProvider<ContractTypeProvider>();
  const signedIn = {
    preHandler: [guards.authenticate, guards.requireLive],
    // Reads the account fresh: a revoked session or a disabled account must not make keys.
    config: { freshSession: true },
  };

  api.get(
    '/api/api-keys',
    {
      ...signedIn,
      schema: {
        summary: "The account's API keys (never the secret)",
        tags,
        response: { 200: apiKeyListResponse },
      },
    },
    async (request) => ({ api_keys: await apiKeys.list(request.user!), max: MAX_API_KEYS }),
  );

  api.post(
    '/api/api-keys',
    {
      ...signedIn,
      schema: {
        summary: 'Create an API key; the key is in this answer only',
        description:
          `\`scopes\` are what the key may call (docs/api.md). At most ${MAX_API_KEYS} active keys per ` +
          'account (422 beyond). Only the hash of the key is stored: copy `key` now.',
        tags,
        body: apiKeyCreateRequest,
        response: { 201: apiKeyCreatedResponse },
      },
    },
    async (request, reply) => {
      const input = parseInput(apiKeyCreateRequest, request.body);
      const created = await apiKeys.create(request.user!, input, clientOf(request));
      return reply.status(201).header('cache-control', 'no-store').send(created);
    },
  );

  api.delete(
    '/api/api-keys/:id',
    {
      ...signedIn,
      schema: {
        summary: 'Revoke an API key: it is refused from now on',
        description: 'Revoking a revoked key changes nothing. A key of another account is a 404.',
        tags,
        params: idParams,
        response: { 200: apiKeySummary },
      },
    },
    async (request) => {
      const { id } = request.params as { id: string };
      return apiKeys.revoke(request.user!, id, clientOf(request));
    },
  );
}
