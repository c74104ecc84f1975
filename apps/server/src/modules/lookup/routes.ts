import {
  DETAIL_KINDS,
  detailEnvelope,
  detailFacts,
  detailRequests,
  detailResponse,
  detailSearchOf,
  emailQuery,
  emailResponse,
  heldSearchResponse,
  SEARCH_KIND_DECLARATIONS,
  sourcesResponse,
  telQuery,
  telResponse,
  usernameQuery,
  usernameResponse,
} from '@footprint/domain';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { parseInput } from '../../errors.ts';
import { apiKeyScope, type Guards } from '../../http/auth.ts';
import { clientOf } from '../../http/context.ts';
import type { ContractTypeProvider } from '../../http/contracts.ts';
import { PAID_SEARCH_REFUSALS } from '../../http/responses.ts';
import type { QueryKind } from '../../providers/types.ts';
import { presentAnswerTime } from './present.ts';
import type { LookupOptions, LookupService } from './service.ts';

/** A request's raw value of one field, as the user typed it (validated elsewhere); undefined if absent. */
const rawField = (input: unknown, name: string): unknown =>
  typeof input === 'object' && input !== null ? (input as Record<string, unknown>)[name] : undefined;

const contractApi = (app: FastifyInstance) => app.withTypeProvider<ContractTypeProvider>();

type RunArgs = [
  request: FastifyRequest,
  reply: FastifyReply,
  kind: QueryKind,
  query: string,
  caseReference: string | null,
  options: LookupOptions,
];

/**
 * Runs the lookup and adds what every answer carries: the lookup id, cache and sandbox flags, when
 * the sources answered and what a cached answer reuses, and a Server-Timing header that separates
 * source latency from this server's own overhead.
 */
async function runLookup(
  lookups: LookupService,
  request: FastifyRequest,
  reply: FastifyReply,
  kind: QueryKind,
  query: string,
  caseReference: string | null,
  options: LookupOptions,
) {
  const outcome = await lookups.lookup(request.user!, kind, query, clientOf(request), caseReference, {
    ...options,
    holdable: true,
  });
  // The sources' time, and the server's whole time so far (token check, charge, sources, settle).
  reply.header(
    'server-timing',
    `sources;dur=${outcome.sourcesMs.toFixed(1)}, app;dur=${reply.elapsedTime.toFixed(1)}`,
  );
  const meta = {
    lookup_id: outcome.lookupId,
    cached: outcome.cached,
    sandbox: outcome.sandbox,
    source_status: outcome.status,
    ...presentAnswerTime(outcome.answeredAt, outcome.reusedFrom),
  };
  return { outcome, meta };
}

export function lookupRoutes(
  app: FastifyInstance,
  deps: { lookups: LookupService; guards: Guards; sandbox: boolean },
) {
  const { lookups, guards } = deps;
  const preHandler = guards.authenticate;
  // Every lookup, and the sources list a script checks first, answer API keys with the lookups scope.
  const scoped = apiKeyScope('lookups');
  const api = contractApi(app);
  const tags = ['Lookups'];
  const paid =
    'A paid search: charges its price unless the same user ran it within the cache window (then free, ' +
    '`cached`). An answer in which every source that answered said "no record" is not charged: the ' +
    'charge is refunded and `credits` is the balance after. 402 with `credits` when the balance is ' +
    'short; 502 with the credits refunded when no source answered; 503, charging nothing, when no ' +
    'source of the kind is configured. ' +
    '`source_status` tells what became of every source. `answered_at` is when the sources answered: for ' +
    'a cached answer, the time of the paid lookup it replays, which `reused_from` names with its case ' +
    "reference. The Server-Timing header separates source latency from the server's own.";
  const timing = {
    'Server-Timing': "`sources;dur=<ms>, app;dur=<ms>`: the sources' time and the server's whole time.",
  };
  const fresh =
    ' `fresh=1` skips the cache: the sources are asked again and the lookup is charged even when an ' +
    'identical one is within the cache window.';
  const freshBody =
    ' `fresh: true` in the body skips the cache: the sources are asked again and the lookup is charged ' +
    'even when an identical one is within the cache window.';

  const run = (...args: RunArgs) => runLookup(lookups, ...args);

  api.get(
    '/api/sources',
    {
      preHandler,
      ...scoped,
      schema: {
        summary: 'Which searches this deployment answers',
        description:
          'Per search kind: whether any source answers it (a search with none answers 503 and charges ' +
          'nothing), its price in credits and, per source, whether a live vendor, the sandbox or nobody ' +
          'answers it.',
        tags,
        response: { 200: sourcesResponse },
      },
    },
    async () => ({ sandbox: deps.sandbox, kinds: lookups.sources(), prices: lookups.prices() }),
  );

  api.get(
    '/api/tel',
    {
      preHandler,
      ...scoped,
      schema: {
        summary: 'Phone lookup: every phone source at once',
        description: paid + fresh,
        tags,
        querystring: telQuery,
        response: { 200: telResponse, 202: heldSearchResponse },
        refusals: PAID_SEARCH_REFUSALS,
        responseHeaders: timing,
      },
    },
    async (request, reply) => {
      const { number, case_reference, legal_basis, fresh } = parseInput(telQuery, request.query);
      const { outcome, meta } = await run(request, reply, 'tel', number, case_reference, {
        fresh,
        legalBasis: legal_basis,
        typed: rawField(request.query, 'number'),
      });
      return { ...outcome.payloads, errors: outcome.errors, credits: outcome.credits, ...meta };
    },
  );

  api.get(
    '/api/email',
    {
      preHandler,
      ...scoped,
      schema: {
        summary: 'E-mail lookup: every e-mail source at once',
        description: paid + fresh,
        tags,
        querystring: emailQuery,
        response: { 200: emailResponse, 202: heldSearchResponse },
        refusals: PAID_SEARCH_REFUSALS,
        responseHeaders: timing,
      },
    },
    async (request, reply) => {
      const { email, case_reference, legal_basis, fresh } = parseInput(emailQuery, request.query);
      const { outcome, meta } = await run(request, reply, 'email', email, case_reference, {
        fresh,
        legalBasis: legal_basis,
        typed: rawField(request.query, 'email'),
      });
      return { data: { ...outcome.payloads, errors: outcome.errors }, credits: outcome.credits, ...meta };
    },
  );

  api.get(
    '/api/username',
    {
      preHandler,
      ...scoped,
      schema: {
        summary: 'Username lookup: the accounts a name has on the sites of the catalogue',
        description:
          paid +
          fresh +
          ' `sitesData` is the site check: every site of its scope in one state (found, not_found, ' +
          'blocked, error, not_checked), each found one with the evidence of its page (final address, ' +
          'status, title, SHA-256 of the body, time). The site check runs only where the operator ' +
          'switched it on (SITE_CHECK_ENABLED); a lookup then takes as long as its slowest sites, up to ' +
          "SITE_CHECK_DEADLINE_MS. `pseudonymData` is a vendor's account search (osint.ly, where " +
          'OSINTLY_API_KEY is set): the accounts it reported (site, username, profile address, time), ' +
          '`complete` false when its search ran out of time (OSINTLY_DEADLINE_MS); no account is no record.',
        tags,
        querystring: usernameQuery,
        response: { 200: usernameResponse, 202: heldSearchResponse },
        refusals: PAID_SEARCH_REFUSALS,
        responseHeaders: timing,
      },
    },
    async (request, reply) => {
      const { username, case_reference, legal_basis, fresh } = parseInput(usernameQuery, request.query);
      const { outcome, meta } = await run(request, reply, 'username', username, case_reference, {
        fresh,
        legalBasis: legal_basis,
        typed: rawField(request.query, 'username'),
      });
      return { ...outcome.payloads, errors: outcome.errors, credits: outcome.credits, ...meta };
    },
  );

  detailLookupRoutes(api, lookups, { preHandler, tags, paid, freshBody, timing });
}

/**
 * One route per detail kind, as its declaration names it (kinds/details.ts): its body parsed, its
 * value normalized, the lookup run as every lookup is, the vendor's envelope answered.
 */
function detailLookupRoutes(
  api: ReturnType<typeof contractApi>,
  lookups: LookupService,
  shared: {
    preHandler: Guards['authenticate'];
    tags: string[];
    paid: string;
    freshBody: string;
    timing: Record<string, string>;
  },
) {
  const { preHandler, tags, paid, freshBody, timing } = shared;
  for (const kind of DETAIL_KINDS) {
    const facts = detailFacts(kind);
    const { access } = SEARCH_KIND_DECLARATIONS[kind];
    const body = detailRequests[kind];
    api.post(
      facts.path,
      {
        preHandler,
        ...apiKeyScope(access.scope),
        schema: {
          summary: facts.summary,
          description: paid + freshBody,
          tags,
          body,
          response: { 200: detailResponse, 202: heldSearchResponse },
          refusals: PAID_SEARCH_REFUSALS,
          responseHeaders: timing,
        },
      },
      async (request, reply) => {
        const { query, typed, caseReference, legalBasis, fresh } = detailSearchOf(
          kind,
          parseInput(body, request.body),
          request.body,
        );
        const { outcome, meta } = await runLookup(lookups, request, reply, kind, query, caseReference, {
          fresh,
          typed,
          legalBasis,
        });
        return {
          credits: outcome.credits,
          data: detailEnvelope(outcome.payloads, outcome.errors, kind),
          ...meta,
        };
      },
    );
  }
}
