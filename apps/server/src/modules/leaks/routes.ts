import { leakSearchBody, leakSearchQuery } from '@footprint/domain';
import type { FastifyInstance } from 'fastify';
import type { Guards } from '../../http/auth.ts';
import { clientOf } from '../../http/context.ts';
import { parseInput } from '../../http/errors.ts';
import type { LeakService } from './service.ts';

export function leakRoutes(app: FastifyInstance, deps: { leaks: LeakService; guards: Guards }) {
  const handler = { preHandler: deps.guards.authenticate };
  // The spec's browser calls the path with a trailing slash; both spellings answer.
  for (const url of ['/api/leak-data-finder/', '/api/leak-data-finder']) {
    app.post(url, handler, async (request) => {
      const { page, per_page } = parseInput(leakSearchQuery, request.query);
      const { fields, case_reference } = parseInput(leakSearchBody, request.body);
      return deps.leaks.search(
        request.user!,
        fields.map((row) => ({ type: row.type, value: row.value })),
        page,
        per_page,
        clientOf(request),
        case_reference,
      );
    });
  }
}
