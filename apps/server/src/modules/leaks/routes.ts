import { leakSearchBody, leakSearchQuery, leakSearchResponse } from '@footprint/domain';
import type { FastifyInstance } from 'fastify';
import { parseInput } from '../../errors.ts';
import { apiKeyScope, type Guards } from '../../http/auth.ts';
import { clientOf } from '../../http/context.ts';
import type { ContractTypeProvider } from '../../http/contracts.ts';
import { REFUSALS } from '../../http/responses.ts';
import type { LeakService } from './service.ts';

export function leakRoutes(app: FastifyInstance, deps: { leaks: LeakService; guards: Guards }) {
  const api = app.withTypeProvider<ContractTypeProvider>();
  const handler = {
    preHandler: deps.guards.authenticate,
    ...apiKeyScope('leaks'),
    schema: {
      summary: 'Leak Data Finder: records of imported breaches matching every row',
      description:
        'A paid search (free again within the cache window, and for further pages of it); one that finds ' +
        'nothing is not charged (refunded). 402 when the balance is short; 422 with `errors.page` past the ' +
        'last page; 503, charging nothing, when no source could answer (an empty index and no leak vendor).',
      tags: ['Leak Data Finder'],
      querystring: leakSearchQuery,
      body: leakSearchBody,
      response: { 200: leakSearchResponse },
      refusals: {
        402: REFUSALS.insufficient,
        409: REFUSALS.closedCase,
        422: 'A page past the last one: `errors.page`, the charge refunded (`credits`).',
        503: REFUSALS.unavailable,
      },
    },
  };
  // The spec's browser calls the path with a trailing slash; both spellings answer.
  for (const url of ['/api/leak-data-finder/', '/api/leak-data-finder']) {
    api.post(url, handler, async (request) => {
      const { page, per_page } = parseInput(leakSearchQuery, request.query);
      const { fields, case_reference, legal_basis } = parseInput(leakSearchBody, request.body);
      return deps.leaks.search(
        request.user!,
        fields.map((row) => ({ type: row.type, value: row.value })),
        page,
        per_page,
        clientOf(request),
        case_reference,
        { legalBasis: legal_basis },
      );
    });
  }
}
