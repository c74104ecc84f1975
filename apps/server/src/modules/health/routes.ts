import { healthResponse, notReadyResponse, readyResponse } from '@footprint/domain';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Readiness, Verdict } from './readiness.ts';

/** What a 503 of readiness asks the caller to wait before asking again (seconds). */
export const READY_RETRY_AFTER_SECONDS = 5;

const WORDS: Record<Verdict['failing'][number], string> = {
  database: 'database unreachable',
  migrations: 'migrations pending',
  redis: 'Redis unreachable',
  jobs: 'job queue not running',
  draining: 'draining for shutdown',
};

function notReady(reply: FastifyReply, verdict: Verdict) {
  return reply
    .status(503)
    .header('retry-after', String(READY_RETRY_AFTER_SECONDS))
    .header('cache-control', 'no-store')
    .send({
      status: 'not_ready' as const,
      message: `Not ready: ${verdict.failing.map((name) => WORDS[name]).join(', ')}.`,
      failing: verdict.failing,
      checks: verdict.checks,
    });
}

const NOT_READY =
  '503 with Retry-After when a check fails: the database does not answer `select 1` within a second, ' +
  'a migration of this build is not applied, Redis (when configured) does not answer PING, the job ' +
  'queue is not running, or the process is draining for a shutdown (SIGTERM). `failing` names them.';

/**
 * The probes of a load balancer or orchestrator: public, cheap (one `select 1`, shared by the calls
 * of half a second), never rate-limited, and logged only at warn and above (not once per call).
 */
export function healthRoutes(app: FastifyInstance, deps: { readiness: Readiness }): void {
  const tags = ['System'];
  const quiet = { logLevel: 'warn' as const };

  app.get(
    '/api/health',
    {
      ...quiet,
      schema: {
        summary: 'Health: ok when ready',
        description: `The verdict of GET /api/health/ready with this older, shorter body. ${NOT_READY}`,
        tags,
        response: { 200: healthResponse, 503: notReadyResponse },
      },
    },
    async (_request, reply) => {
      const verdict = await deps.readiness.check();
      if (!verdict.ready) return notReady(reply, verdict);
      return reply.header('cache-control', 'no-store').send({ status: 'ok' as const });
    },
  );

  app.get(
    '/api/health/live',
    {
      ...quiet,
      schema: {
        summary: 'Liveness: the process answers',
        description:
          'Answered by the process itself, without asking any dependency: 200 as long as its event loop ' +
          'runs. A failing dependency is readiness (GET /api/health/ready), not a reason to restart.',
        tags,
        response: { 200: healthResponse },
      },
    },
    async (_request, reply) => reply.header('cache-control', 'no-store').send({ status: 'ok' as const }),
  );

  app.get(
    '/api/health/ready',
    {
      ...quiet,
      schema: {
        summary: 'Readiness: whether to send this process traffic',
        description: `200 with every check ok. ${NOT_READY}`,
        tags,
        response: { 200: readyResponse, 503: notReadyResponse },
      },
    },
    async (_request, reply) => {
      const verdict = await deps.readiness.check();
      if (!verdict.ready) return notReady(reply, verdict);
      return reply
        .header('cache-control', 'no-store')
        .send({ status: 'ready' as const, checks: verdict.checks });
    },
  );
}
