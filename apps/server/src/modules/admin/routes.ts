import { Readable } from 'node:stream';
import {
  adminCreateUserRequest,
  adminCreditsRequest,
  adminSettingsPatch,
  adminUpdateUserRequest,
  adminUsersQuery,
  auditExportQuery,
  auditQuery,
} from '@footprint/domain';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Database } from '../../db/client.ts';
import type { Guards } from '../../http/auth.ts';
import { clientOf } from '../../http/context.ts';
import { parseInput } from '../../http/errors.ts';
import type { Runner } from '../../providers/runner.ts';
import { listAuditEvents } from '../audit/query.ts';
import type { DeploymentDefaults } from '../settings/service.ts';
import { exportAudit, listLeakSources, readAdminSettings, updateAdminSettings } from './service.ts';
import {
  type Acting,
  changeCredits,
  createUser,
  getUser,
  listUsers,
  presentAdminUser,
  updateUser,
} from './users.ts';

/** Operator endpoints; every one is behind authenticate + requireAdmin, checked on the server. */
export function adminRoutes(
  app: FastifyInstance,
  deps: { db: Database; guards: Guards; runner: Runner; settings: DeploymentDefaults; now?: () => Date },
) {
  const { db, guards } = deps;
  const preHandler = [guards.authenticate, guards.requireAdmin];
  const now = deps.now ?? (() => new Date());
  const acting = (request: FastifyRequest): Acting => ({
    actor: { id: request.user!.id, email: request.user!.email },
    client: clientOf(request),
  });

  app.get('/api/admin/settings', { preHandler }, async () => readAdminSettings(db, deps.settings));

  app.patch('/api/admin/settings', { preHandler }, async (request) =>
    updateAdminSettings(db, deps.settings, parseInput(adminSettingsPatch, request.body), acting(request)),
  );

  /** Provider health: calls, failures, timeouts, latency percentiles and breaker state per source. */
  app.get('/api/admin/providers', { preHandler }, async () => ({ providers: deps.runner.stats() }));

  app.get('/api/admin/leak-sources', { preHandler }, async () => listLeakSources(db));

  app.get('/api/admin/users', { preHandler }, async (request) =>
    listUsers(db, parseInput(adminUsersQuery, request.query)),
  );

  app.post('/api/admin/users', { preHandler }, async (request, reply) => {
    const input = parseInput(adminCreateUserRequest, request.body);
    return reply.status(201).send(await createUser(db, input, acting(request)));
  });

  app.get<{ Params: { id: string } }>('/api/admin/users/:id', { preHandler }, async (request) => ({
    user: presentAdminUser(await getUser(db, request.params.id)),
  }));

  app.patch<{ Params: { id: string } }>('/api/admin/users/:id', { preHandler }, async (request) => {
    const patch = parseInput(adminUpdateUserRequest, request.body);
    return { user: await updateUser(db, request.params.id, patch, acting(request), now()) };
  });

  app.post<{ Params: { id: string } }>('/api/admin/users/:id/credits', { preHandler }, async (request) => {
    const input = parseInput(adminCreditsRequest, request.body);
    return changeCredits(db, request.params.id, input, acting(request));
  });

  app.get('/api/admin/audit', { preHandler }, async (request) => {
    const { page, per_page, ...filters } = parseInput(auditQuery, request.query);
    return listAuditEvents(db, filters, { page, per_page });
  });

  /** The filtered trail as a CSV download, streamed; the export itself is written to the trail first. */
  app.get('/api/admin/audit.csv', { preHandler }, async (request, reply) => {
    const filters = parseInput(auditExportQuery, request.query);
    const { fileName, rows, chunks } = await exportAudit(db, filters, acting(request));
    return reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="${fileName}"`)
      .header('cache-control', 'no-store')
      .header('x-audit-rows', String(rows))
      .send(Readable.from(chunks));
  });
}
