import { reviewBody, reviewItemResponse, reviewListResponse, reviewsQuery } from '@footprint/domain';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { parseInput } from '../../errors.ts';
import type { Guards } from '../../http/auth.ts';
import { clientOf } from '../../http/context.ts';
import type { ContractTypeProvider } from '../../http/contracts.ts';
import type { Reviews } from './service.ts';

const tags = ['Reviews'];

/** /api/reviews: sampled review (domain reviews.ts). Who reviews whom is the access policy's decision. */
export function reviewRoutes(app: FastifyInstance, deps: { reviews: Reviews; guards: Guards }) {
  const { reviews } = deps;
  const preHandler = deps.guards.authenticate;
  const api = app.withTypeProvider<ContractTypeProvider>();

  api.get(
    '/api/reviews',
    {
      preHandler,
      schema: {
        summary: "The caller's review queue: their people's searches drawn for review (open, or done)",
        tags,
        querystring: reviewsQuery,
        response: { 200: reviewListResponse },
      },
    },
    async (request) => ({
      data: await reviews.queue(request.user!, parseInput(reviewsQuery, request.query).status),
    }),
  );

  api.get(
    '/api/reviews/mine',
    {
      preHandler,
      schema: {
        summary: "The caller's own searches that were drawn for review, with their reviews",
        tags,
        response: { 200: reviewListResponse },
      },
    },
    async (request) => ({ data: await reviews.mine(request.user!) }),
  );

  api.post<{ Params: { lookupId: string } }>(
    '/api/reviews/:lookupId',
    {
      preHandler,
      schema: {
        summary: 'Review a drawn search: in order, or questioned with a note (once; audited)',
        refusals: { 409: 'The search has been reviewed already.' },
        tags,
        params: z.object({ lookupId: z.string().describe('The id of the drawn search.') }),
        body: reviewBody,
        response: { 200: reviewItemResponse },
      },
    },
    async (request) =>
      reviews.decide(
        request.user!,
        request.params.lookupId,
        parseInput(reviewBody, request.body),
        clientOf(request),
      ),
  );
}
