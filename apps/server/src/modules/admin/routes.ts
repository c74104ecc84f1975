import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Database } from '../../db/client.ts';
import type { Guards } from '../../http/auth.ts';
import { parseInput } from '../../http/errors.ts';
import type { Runner } from '../../providers/runner.ts';
import { isRegistrationEnabled, writeSetting } from '../settings/service.ts';

const settingsPatch = z.strictObject({
  registration_enabled: z
    .boolean({ error: 'The registration enabled field must be true or false.' })
    .optional(),
});

/** Operator endpoints; every one is behind authenticate + requireAdmin, checked on the server. */
export function adminRoutes(
  app: FastifyInstance,
  deps: { db: Database; guards: Guards; runner: Runner; registrationDefault: boolean },
) {
  const { db, guards } = deps;
  const preHandler = [guards.authenticate, guards.requireAdmin];

  const current = async () => ({
    registration_enabled: await isRegistrationEnabled(db, { registrationEnabled: deps.registrationDefault }),
  });

  app.get('/api/admin/settings', { preHandler }, current);

  /** Provider health: calls, failures, timeouts, latency percentiles and breaker state per source. */
  app.get('/api/admin/providers', { preHandler }, async () => ({ providers: deps.runner.stats() }));

  app.patch('/api/admin/settings', { preHandler }, async (request) => {
    const input = parseInput(settingsPatch, request.body);
    if (input.registration_enabled !== undefined) {
      await writeSetting(db, 'registration_enabled', input.registration_enabled, request.user!.id);
    }
    return current();
  });
}
