import { Readable } from 'node:stream';
import {
  adminCreateUserRequest,
  adminCreateUserResponse,
  adminCreditsRequest,
  adminCreditsResponse,
  adminDecisionResponse,
  adminRejectRequest,
  adminSettingsPatch,
  adminSettingsResponse,
  adminUpdateUserRequest,
  adminUserEnvelopeResponse,
  adminUsersPageResponse,
  adminUsersQuery,
  auditChainResponse,
  auditCsvResponse,
  auditExportQuery,
  auditPageResponse,
  auditQuery,
  leakSourcesResponse,
  providersResponse,
} from '@footprint/domain';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { parseInput } from '../../errors.ts';
import type { Guards } from '../../http/auth.ts';
import { clientOf } from '../../http/context.ts';
import type { ContractTypeProvider } from '../../http/contracts.ts';
import type { AdminService } from './service.ts';
import type { Acting } from './users.ts';

const tags = ['Admin'];
const userId = z.object({ id: z.string().describe('The user id.') });

/** What every route of adminRoutes shares. */
function adminRoutesContext(app: FastifyInstance, deps: { admin: AdminService; guards: Guards }) {
  const { admin, guards } = deps;
  const preHandler = [guards.authenticate, guards.requireAdmin];
  const api = app.withTypeProvider<ContractTypeProvider>();
  const acting = (request: FastifyRequest): Acting => ({
    actor: { id: request.user!.id, email: request.user!.email },
    client: clientOf(request),
  });
  return { admin, guards, preHandler, api, acting };
}

function deploymentRoutes(context: ReturnType<typeof adminRoutesContext>) {
  const { admin, preHandler, api, acting } = context;
  api.get(
    '/api/admin/settings',
    {
      preHandler,
      schema: { summary: 'The deployment settings', tags, response: { 200: adminSettingsResponse } },
    },
    async () => admin.readSettings(),
  );

  api.patch(
    '/api/admin/settings',
    {
      preHandler,
      schema: {
        summary: 'Change deployment settings (one audit row naming what changed)',
        tags,
        body: adminSettingsPatch,
        response: { 200: adminSettingsResponse },
      },
    },
    async (request) => admin.updateSettings(parseInput(adminSettingsPatch, request.body), acting(request)),
  );

  api.get(
    '/api/admin/providers',
    {
      preHandler,
      schema: {
        summary: 'Provider health: calls, failures, timeouts, latency and breaker state per source',
        tags,
        response: { 200: providersResponse },
      },
    },
    async () => admin.providers(),
  );

  api.get(
    '/api/admin/leak-sources',
    {
      preHandler,
      schema: { summary: 'The imported breach sources', tags, response: { 200: leakSourcesResponse } },
    },
    async () => admin.leakSources(),
  );
}

function accountRoutes(context: ReturnType<typeof adminRoutesContext>) {
  const { admin, preHandler, api, acting } = context;
  api.get(
    '/api/admin/users',
    {
      preHandler,
      schema: {
        summary: 'Accounts, newest first, optionally filtered by name, e-mail or id, and by status',
        tags,
        querystring: adminUsersQuery,
        response: { 200: adminUsersPageResponse },
      },
    },
    async (request) => admin.listUsers(parseInput(adminUsersQuery, request.query)),
  );

  api.post(
    '/api/admin/users',
    {
      preHandler,
      schema: {
        summary: 'Create an account (without a password, a temporary one is answered once)',
        tags,
        body: adminCreateUserRequest,
        response: { 201: adminCreateUserResponse },
      },
    },
    async (request, reply) => {
      const input = parseInput(adminCreateUserRequest, request.body);
      return reply.status(201).send(await admin.createUser(input, acting(request)));
    },
  );

  api.get<{ Params: { id: string } }>(
    '/api/admin/users/:id',
    {
      preHandler,
      schema: { summary: 'One account', tags, params: userId, response: { 200: adminUserEnvelopeResponse } },
    },
    async (request) => admin.getUser(request.params.id),
  );

  api.patch<{ Params: { id: string } }>(
    '/api/admin/users/:id',
    {
      preHandler,
      schema: {
        summary: 'Change an account (never the last active admin); disabling revokes its sessions',
        tags,
        params: userId,
        body: adminUpdateUserRequest,
        response: { 200: adminUserEnvelopeResponse },
      },
    },
    async (request) => {
      const patch = parseInput(adminUpdateUserRequest, request.body);
      return admin.updateUser(request.params.id, patch, acting(request));
    },
  );

  api.post<{ Params: { id: string } }>(
    '/api/admin/users/:id/approve',
    {
      preHandler,
      schema: {
        summary: 'Approve a self-registered account (pending or rejected → active); the user is e-mailed',
        description: 'Audited as admin.user.approve. 409 when the account is not waiting for a decision.',
        tags,
        params: userId,
        response: { 200: adminDecisionResponse },
        refusals: { 409: 'The account is not pending (`status`).' },
      },
    },
    async (request) => admin.approveUser(request.params.id, acting(request)),
  );

  api.post<{ Params: { id: string } }>(
    '/api/admin/users/:id/reject',
    {
      preHandler,
      schema: {
        summary: 'Reject a pending self-registered account, with an optional reason; the user is e-mailed',
        description: 'Audited as admin.user.reject. 409 when the account is not pending.',
        tags,
        params: userId,
        body: adminRejectRequest.optional(),
        response: { 200: adminDecisionResponse },
        refusals: { 409: 'The account is not pending (`status`).' },
      },
    },
    async (request) => {
      const input = parseInput(adminRejectRequest, request.body ?? {});
      return admin.rejectUser(request.params.id, input.reason, acting(request));
    },
  );

  api.post<{ Params: { id: string } }>(
    '/api/admin/users/:id/credits',
    {
      preHandler,
      schema: {
        summary: 'Grant (amount > 0) or deduct (amount < 0, never below zero) credits',
        tags,
        params: userId,
        body: adminCreditsRequest,
        response: { 200: adminCreditsResponse },
      },
    },
    async (request) => {
      const input = parseInput(adminCreditsRequest, request.body);
      return admin.changeCredits(request.params.id, input, acting(request));
    },
  );
}

function auditRoutes(context: ReturnType<typeof adminRoutesContext>) {
  const { admin, preHandler, api, acting } = context;
  api.get(
    '/api/admin/audit',
    {
      preHandler,
      schema: {
        summary: 'The audit trail, newest first, filtered',
        tags,
        querystring: auditQuery,
        response: { 200: auditPageResponse },
      },
    },
    async (request) => {
      const { page, per_page, ...filters } = parseInput(auditQuery, request.query);
      return admin.listAudit(filters, { page, per_page });
    },
  );

  api.get(
    '/api/admin/audit/chain',
    {
      preHandler,
      schema: {
        summary:
          "The audit trail's hash chain: intact through row N, still being checked, or broken at row X",
        description:
          'Each call verifies up to 10,000 more rows from where the last one stopped (status `checking` ' +
          'until it reaches the head). `npm run cli -- audit:verify` walks the whole chain.',
        tags,
        response: { 200: auditChainResponse },
      },
    },
    async (_request, reply) => {
      reply.header('cache-control', 'no-store');
      return admin.auditChain();
    },
  );

  /** The filtered trail as a CSV download, streamed; the export itself is written to the trail first. */
  api.get(
    '/api/admin/audit.csv',
    {
      preHandler,
      schema: {
        summary: 'The filtered audit trail as a CSV download (the export is itself audited)',
        tags,
        querystring: auditExportQuery,
        response: { 200: auditCsvResponse },
        responseHeaders: {
          'Content-Disposition': 'attachment; filename="…"',
          'X-Audit-Rows': 'How many audit rows the file lists.',
        },
      },
    },
    async (request, reply) => {
      const filters = parseInput(auditExportQuery, request.query);
      const { fileName, rows, chunks } = await admin.exportAudit(filters, acting(request));
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${fileName}"`)
        .header('cache-control', 'no-store')
        .header('x-audit-rows', String(rows))
        .send(Readable.from(chunks));
    },
  );
}

/** Operator endpoints; every one is behind authenticate + requireAdmin, checked on the server. */
export function adminRoutes(app: FastifyInstance, deps: { admin: AdminService; guards: Guards }) {
  const context = adminRoutesContext(app, deps);
  deploymentRoutes(context);
  accountRoutes(context);
  auditRoutes(context);
}
