import { historyQuery, statementQuery } from '@footprint/domain';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../db/client.ts';
import type { Guards } from '../../http/auth.ts';
import { clientOf } from '../../http/context.ts';
import { parseInput } from '../../http/errors.ts';
import { isCaseReferenceRequired } from '../settings/service.ts';
import type { HistoryService } from './service.ts';

/** Every signed-in user's own records; nobody sees another's. */
export function historyRoutes(
  app: FastifyInstance,
  deps: { history: HistoryService; guards: Guards; db: Database },
) {
  const preHandler = deps.guards.authenticate;

  app.get('/api/history', { preHandler }, async (request) =>
    deps.history.list(request.user!, parseInput(historyQuery, request.query)),
  );

  app.get<{ Params: { id: string } }>('/api/history/:id', { preHandler }, async (request) =>
    deps.history.open(request.user!, request.params.id, clientOf(request)),
  );

  app.get('/api/credits/statement', { preHandler }, async (request) =>
    deps.history.statement(request.user!, parseInput(statementQuery, request.query)),
  );

  /** What the search forms need to know: is a case reference mandatory on this deployment? */
  app.get('/api/case-reference-policy', { preHandler }, async () => ({
    required: await isCaseReferenceRequired(deps.db),
  }));
}
