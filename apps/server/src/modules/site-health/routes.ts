/** The admin screen of the catalogue's self-check: each site's standing, and a run on demand. */
import { siteHealthResponse, siteHealthRunResponse } from '@footprint/domain';
import type { FastifyInstance } from 'fastify';
import type { Guards } from '../../http/auth.ts';
import { clientOf } from '../../http/context.ts';
import type { ContractTypeProvider } from '../../http/contracts.ts';
import type { SiteHealth } from './service.ts';

const tags = ['Admin'];

export function siteHealthRoutes(app: FastifyInstance, deps: { siteHealth: SiteHealth; guards: Guards }) {
  const { siteHealth, guards } = deps;
  const preHandler = [guards.authenticate, guards.requireAdmin];
  const api = app.withTypeProvider<ContractTypeProvider>();

  api.get(
    '/api/admin/site-health',
    {
      preHandler,
      schema: {
        summary: "The username catalogue's self-check: each site's state and its precision over 30 days",
        description:
          'A site is quarantined (the lookups report it not_checked) from the run its known username was not ' +
          'found or a made-up one was, until a run passes. `enabled` false: the site check is off.',
        tags,
        response: { 200: siteHealthResponse },
      },
    },
    async () => siteHealth.read(),
  );

  api.post(
    '/api/admin/site-health/run',
    {
      preHandler,
      schema: {
        summary: 'Queue a self-check of every site of the catalogue now (202)',
        description:
          'Audited as admin.site_health.run. A run already waiting takes this request in (`queued` false). ' +
          '409 when the site check is off.',
        tags,
        response: { 202: siteHealthRunResponse },
        refusals: { 409: 'The site check is off in this deployment (SITE_CHECK_ENABLED).' },
      },
    },
    async (request, reply) => {
      const answer = await siteHealth.requestRun({
        actor: { id: request.user!.id, email: request.user!.email },
        client: clientOf(request),
      });
      return reply.status(202).send(answer);
    },
  );
}
