import {
  challanRequest,
  emailQuery,
  normalizeRc,
  rcDetailsRequest,
  telQuery,
  upiDetailsRequest,
} from '@footprint/domain';
import type { FastifyInstance } from 'fastify';
import type { Guards } from '../../http/auth.ts';
import { clientOf } from '../../http/context.ts';
import { parseInput } from '../../http/errors.ts';
import type { LookupOutcome, LookupService } from './service.ts';

const meta = (outcome: LookupOutcome) => ({
  lookup_id: outcome.lookupId,
  cached: outcome.cached,
  sandbox: outcome.sandbox,
});

/** A detail lookup answers `data` as the vendor envelope (spec §7: the browser reads data.data). */
const detailEnvelope = (outcome: LookupOutcome, source: string) =>
  outcome.payloads[source] ?? {
    data: null,
    status_code: 404,
    success: false,
    message: outcome.errors[source] ?? 'No record found.',
    message_code: 'not_found',
  };

export function lookupRoutes(app: FastifyInstance, deps: { lookups: LookupService; guards: Guards }) {
  const { lookups, guards } = deps;
  const preHandler = guards.authenticate;

  app.get('/api/tel', { preHandler }, async (request) => {
    const { number } = parseInput(telQuery, request.query);
    const outcome = await lookups.lookup(request.user!, 'tel', number, clientOf(request));
    return { ...outcome.payloads, errors: outcome.errors, credits: outcome.credits, ...meta(outcome) };
  });

  app.get('/api/email', { preHandler }, async (request) => {
    const { email } = parseInput(emailQuery, request.query);
    const outcome = await lookups.lookup(request.user!, 'email', email, clientOf(request));
    return {
      data: { ...outcome.payloads, errors: outcome.errors },
      credits: outcome.credits,
      ...meta(outcome),
    };
  });

  app.post('/api/rcfull-details', { preHandler }, async (request) => {
    const input = parseInput(rcDetailsRequest, request.body);
    const outcome = await lookups.lookup(
      request.user!,
      'rc',
      normalizeRc(input.id_number),
      clientOf(request),
    );
    return { credits: outcome.credits, data: detailEnvelope(outcome, 'rc'), ...meta(outcome) };
  });

  app.post('/api/upifull-details', { preHandler }, async (request) => {
    const input = parseInput(upiDetailsRequest, request.body);
    const outcome = await lookups.lookup(request.user!, 'upi', input.upi_id.toLowerCase(), clientOf(request));
    return { credits: outcome.credits, data: detailEnvelope(outcome, 'upi'), ...meta(outcome) };
  });

  app.post('/api/rc-challan-details', { preHandler }, async (request) => {
    const input = parseInput(challanRequest, request.body);
    const outcome = await lookups.lookup(
      request.user!,
      'challan',
      normalizeRc(input.rc_number),
      clientOf(request),
    );
    return { credits: outcome.credits, data: detailEnvelope(outcome, 'challan'), ...meta(outcome) };
  });
}
