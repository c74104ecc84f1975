import {
  challanRequest,
  emailQuery,
  normalizeRc,
  rcDetailsRequest,
  telQuery,
  upiDetailsRequest,
} from '@footprint/domain';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Guards } from '../../http/auth.ts';
import { clientOf } from '../../http/context.ts';
import { parseInput } from '../../http/errors.ts';
import type { QueryKind } from '../../providers/types.ts';
import type { LookupOutcome, LookupService } from './service.ts';

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

  /**
   * Runs the lookup and adds what every answer carries: the lookup id, cache and sandbox flags, and
   * a Server-Timing header that separates source latency from this server's own overhead.
   */
  async function run(request: FastifyRequest, reply: FastifyReply, kind: QueryKind, query: string) {
    const outcome = await lookups.lookup(request.user!, kind, query, clientOf(request));
    reply.header('server-timing', `sources;dur=${outcome.sourcesMs.toFixed(1)}`);
    const meta = { lookup_id: outcome.lookupId, cached: outcome.cached, sandbox: outcome.sandbox };
    return { outcome, meta };
  }

  app.get('/api/tel', { preHandler }, async (request, reply) => {
    const { number } = parseInput(telQuery, request.query);
    const { outcome, meta } = await run(request, reply, 'tel', number);
    return { ...outcome.payloads, errors: outcome.errors, credits: outcome.credits, ...meta };
  });

  app.get('/api/email', { preHandler }, async (request, reply) => {
    const { email } = parseInput(emailQuery, request.query);
    const { outcome, meta } = await run(request, reply, 'email', email);
    return { data: { ...outcome.payloads, errors: outcome.errors }, credits: outcome.credits, ...meta };
  });

  const detail = (url: string, kind: QueryKind, parse: (body: unknown) => string) =>
    app.post(url, { preHandler }, async (request, reply) => {
      const { outcome, meta } = await run(request, reply, kind, parse(request.body));
      return { credits: outcome.credits, data: detailEnvelope(outcome, kind), ...meta };
    });

  detail('/api/rcfull-details', 'rc', (body) => normalizeRc(parseInput(rcDetailsRequest, body).id_number));
  detail('/api/upifull-details', 'upi', (body) => parseInput(upiDetailsRequest, body).upi_id.toLowerCase());
  detail('/api/rc-challan-details', 'challan', (body) =>
    normalizeRc(parseInput(challanRequest, body).rc_number),
  );
}
