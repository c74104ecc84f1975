import {
  createWatchBody,
  listScopeQuery,
  updateWatchBody,
  watchEventsResponse,
  watchListResponse,
  watchResponse,
  watchRunResponse,
} from '@footprint/domain';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { parseInput } from '../../errors.ts';
import type { Guards } from '../../http/auth.ts';
import { clientOf } from '../../http/context.ts';
import type { ContractTypeProvider } from '../../http/contracts.ts';
import type { Watchlists } from './service.ts';

const tags = ['Watchlists'];
const watchId = z.object({ id: z.string().describe('The watch id.') });

/**
 * /api/watches: the signed-in live user's watches. Another user's watch answers 404 as if it did not
 * exist. Each run is a paid search (charged, audited with the watch's id); runs happen on schedule
 * (jobs.ts) or on "run now".
 */
export function watchlistRoutes(app: FastifyInstance, deps: { watchlists: Watchlists; guards: Guards }) {
  const preHandler = [deps.guards.authenticate, deps.guards.requireLive];
  const api = app.withTypeProvider<ContractTypeProvider>();
  const { watchlists } = deps;

  api.get(
    '/api/watches',
    {
      preHandler,
      schema: {
        summary: "The caller's watches, newest first (scope=unit: also their units' people's, named)",
        tags,
        querystring: listScopeQuery,
        response: { 200: watchListResponse },
      },
    },
    async (request) => ({
      data: await watchlists.list(request.user!, parseInput(listScopeQuery, request.query).scope),
    }),
  );

  api.post(
    '/api/watches',
    {
      preHandler,
      schema: {
        summary: 'Watch a phone, e-mail, username or leak query (daily or weekly)',
        description:
          'The query is checked as its search checks it (GET /api/tel, GET /api/email, GET /api/username, ' +
          'the leak search rows). ' +
          'The first run, at the next tick, records what the search finds; later runs compare with it. ' +
          '409 when the query is already watched; 422 past the limit of watches per user.',
        tags,
        body: createWatchBody,
        response: { 201: watchResponse },
        refusals: { 409: 'The caller already watches this query.' },
      },
    },
    async (request, reply) => {
      const input = parseInput(createWatchBody, request.body);
      return reply.status(201).send(await watchlists.create(request.user!, input, clientOf(request)));
    },
  );

  api.patch<{ Params: { id: string } }>(
    '/api/watches/:id',
    {
      preHandler,
      schema: {
        summary: 'Change the schedule, pause, or resume (also after a stop for credits)',
        tags,
        params: watchId,
        body: updateWatchBody,
        response: { 200: watchResponse },
      },
    },
    async (request) =>
      watchlists.update(
        request.user!,
        request.params.id,
        parseInput(updateWatchBody, request.body),
        clientOf(request),
      ),
  );

  api.delete<{ Params: { id: string } }>(
    '/api/watches/:id',
    {
      preHandler,
      schema: {
        summary: 'Stop watching (its events go with it; the runs stay in history)',
        tags,
        params: watchId,
        response: { 204: z.null() },
      },
    },
    async (request, reply) => {
      await watchlists.remove(request.user!, request.params.id, clientOf(request));
      return reply.status(204).send(null);
    },
  );

  api.get<{ Params: { id: string } }>(
    '/api/watches/:id/events',
    {
      preHandler,
      schema: {
        summary: 'What the runs of a watch found changed, newest first',
        tags,
        params: watchId,
        response: { 200: watchEventsResponse },
      },
    },
    async (request) => ({ data: await watchlists.events(request.user!, request.params.id) }),
  );

  api.post<{ Params: { id: string } }>(
    '/api/watches/:id/run',
    {
      preHandler,
      schema: {
        summary: 'Run a watch now (a paid search, compared like a scheduled run)',
        description:
          '`outcome`: `baseline` (first run), `changed` (an event was stored and e-mailed), `unchanged`, ' +
          '`no_source` (refunded, not compared), `stopped_no_credits` (the watch stopped), `failed`.',
        tags,
        params: watchId,
        response: { 200: watchRunResponse },
      },
    },
    async (request) => watchlists.run(request.user!, request.params.id, clientOf(request)),
  );
}
