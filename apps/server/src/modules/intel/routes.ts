import type { IntelArea } from '@footprint/domain';
import type { FastifyInstance } from 'fastify';
import type { Guards } from '../../http/auth.ts';
import { clientOf } from '../../http/context.ts';
import type { IntelService } from './service.ts';

const PATHS: Record<IntelArea, string> = {
  corporate: '/api/corporate-intelligence',
  verification: '/api/verification-id',
};

/**
 * POST /api/corporate-intelligence and POST /api/verification-id (spec §7): { type, data } in,
 * { data, credits } out, or the credit report as a PDF download with the balance in X-Credits.
 * The live-only rule is the service's, so that refused attempts reach the audit trail.
 */
export function intelRoutes(app: FastifyInstance, deps: { intel: IntelService; guards: Guards }) {
  for (const area of ['corporate', 'verification'] as const) {
    app.post(PATHS[area], { preHandler: deps.guards.authenticate }, async (request, reply) => {
      const outcome = await deps.intel.search(request.user!, area, request.body, clientOf(request));
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
    });
  }
}
