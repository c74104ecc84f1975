import {
  heldSearchResponse,
  INTEL_PATHS,
  type IntelArea,
  intelPdfResponse,
  intelRequestDocument,
  intelResponse,
} from '@footprint/domain';
import type { FastifyInstance } from 'fastify';
import { apiKeyScope, type Guards } from '../../http/auth.ts';
import { clientOf } from '../../http/context.ts';
import type { ContractTypeProvider } from '../../http/contracts.ts';
import { REFUSALS } from '../../http/responses.ts';
import type { IntelService } from './service.ts';

const PATHS: Record<IntelArea, string> = INTEL_PATHS;

/**
 * POST /api/corporate-intelligence and POST /api/verification-id (spec §7): { type, data } in,
 * { data, credits } out, or the credit report as a PDF download with the balance in X-Credits.
 * The live-only rule is the service's, so that refused attempts reach the audit trail.
 */
const SUMMARIES: Record<IntelArea, string> = {
  corporate: 'Corporate Intelligence: one search of the chosen type (live accounts)',
  verification: 'Identity Verification: one check of the chosen type (live accounts)',
};

export function intelRoutes(app: FastifyInstance, deps: { intel: IntelService; guards: Guards }) {
  const api = app.withTypeProvider<ContractTypeProvider>();
  for (const area of ['corporate', 'verification'] as const) {
    const schema = {
      summary: SUMMARIES[area],
      description:
        'A paid search. Invalid input is a 400 (the browser reads 422 as "no record found"); no record ' +
        'is a 422 with `credits` (refunded); a trial account gets 403. The credit report type answers a PDF.',
      tags: ['Intelligence'],
      body: intelRequestDocument(area),
      refusals: {
        400: 'Invalid input: `message` and `error` name the first broken rule, `errors` every field (`data.id_number`, `type`, …). Not 422: the browser reads 422 as "no record".',
        402: REFUSALS.insufficient,
        403: REFUSALS.live,
        409: REFUSALS.closedCase,
        422: 'The source holds no record: the charge was refunded (`credits`, `lookup_id`).',
        500: 'The credit report could not be drawn: the charge was refunded (`credits`, `lookup_id`).',
        502: 'The source did not answer: the charge was refunded (`credits`, `lookup_id`).',
        503: {
          description: `${REFUSALS.unavailable} For the credit report: every report thread is busy (Retry-After).`,
          retryAfter: true,
        },
      },
      responseHeaders: {
        'Content-Disposition': 'The credit report (PDF) only: attachment; filename="…".',
        'X-Credits': 'The credit report (PDF) only: the balance after this search.',
        'X-Lookup-Id': 'The credit report (PDF) only: the id of this lookup.',
        'X-Report-Id': 'The credit report (PDF) only: the report id (GET /api/reports/{id}/verify).',
        'X-Report-Sha256': 'The credit report (PDF) only: the SHA-256 of the file.',
      },
      response: {
        200: {
          description: 'The record as JSON, or the credit report as a PDF.',
          content: {
            'application/json': { schema: intelResponse },
            'application/pdf': intelPdfResponse.content['application/pdf'],
          },
        },
        202: heldSearchResponse,
      },
    };
    api.post(
      PATHS[area],
      { preHandler: deps.guards.authenticate, ...apiKeyScope('intel'), schema },
      async (request, reply) => {
        const outcome = await deps.intel.search(request.user!, area, request.body, clientOf(request), {
          holdable: true,
        });
        if (outcome.format === 'pdf') {
          return reply
            .header('content-type', 'application/pdf')
            .header('content-disposition', `attachment; filename="${outcome.fileName}"`)
            .header('x-credits', String(outcome.credits))
            .header('x-lookup-id', outcome.lookupId)
            .header('x-report-id', outcome.reportId)
            .header('x-report-sha256', outcome.sha256)
            .header('cache-control', 'no-store')
            .send(outcome.pdf);
        }
        return {
          data: outcome.record,
          credits: outcome.credits,
          lookup_id: outcome.lookupId,
          sandbox: outcome.sandbox,
        };
      },
    );
  }
}
