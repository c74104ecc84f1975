import {
  approvalDecisionBody,
  approvalsListResponse,
  approvalsQuery,
  searchApprovalResponse,
} from '@footprint/domain';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { parseInput } from '../../errors.ts';
import { apiKeyScope, type Guards } from '../../http/auth.ts';
import { clientOf } from '../../http/context.ts';
import type { ContractTypeProvider } from '../../http/contracts.ts';
import type { Approvals } from './service.ts';

const tags = ['Approvals'];
const approvalId = z.object({ id: z.string().describe('The request id (from the 202 of a held search).') });

/**
 * /api/approvals: sensitive searches held for a supervisor (domain approvals.ts). Who decides whose
 * request is the access policy's decision (decidesApprovals), not the route's. A held search's
 * requester follows it here, with a session or with the API key that asked (scope lookups).
 */
export function approvalRoutes(app: FastifyInstance, deps: { approvals: Approvals; guards: Guards }) {
  const { approvals } = deps;
  const preHandler = deps.guards.authenticate;
  const api = app.withTypeProvider<ContractTypeProvider>();

  api.get(
    '/api/approvals',
    {
      preHandler,
      schema: {
        summary: "The caller's approval queue: their people's held searches (open), or those decided (done)",
        tags,
        querystring: approvalsQuery,
        response: { 200: approvalsListResponse },
      },
    },
    async (request) => ({
      data: await approvals.queue(request.user!, parseInput(approvalsQuery, request.query).status ?? 'open'),
    }),
  );

  api.get(
    '/api/approvals/mine',
    {
      preHandler,
      ...apiKeyScope('lookups'),
      schema: {
        summary: "The caller's own held searches and what became of them",
        tags,
        response: { 200: approvalsListResponse },
      },
    },
    async (request) => ({ data: await approvals.mine(request.user!) }),
  );

  api.get<{ Params: { id: string } }>(
    '/api/approvals/:id',
    {
      preHandler,
      ...apiKeyScope('lookups'),
      schema: {
        summary: 'One held search: its status and, once approved and run, its lookup_id',
        tags,
        params: approvalId,
        response: { 200: searchApprovalResponse },
      },
    },
    async (request) => approvals.get(request.user!, request.params.id),
  );

  api.post<{ Params: { id: string } }>(
    '/api/approvals/:id',
    {
      preHandler,
      schema: {
        summary: 'Approve (the search runs and is charged) or reject with a reason (nothing is charged)',
        refusals: {
          403: "The caller's own request.",
          409: 'The request is decided already, or expired.',
        },
        tags,
        params: approvalId,
        body: approvalDecisionBody,
        response: { 200: searchApprovalResponse },
      },
    },
    async (request) =>
      approvals.decide(
        request.user!,
        clientOf(request),
        request.params.id,
        parseInput(approvalDecisionBody, request.body),
      ),
  );
}
