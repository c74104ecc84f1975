import { ConfigError, loadConfig } from './config.ts';
import { errorName, outageOf } from './outage.ts';
import { demoAccounts, startRuntime } from './runtime.ts';
import { addressLines } from './start-banner.ts';
import { unreachableAtStart } from './start-checks.ts';

async function main() {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  for (const warning of config.warnings) console.warn(`Warning: ${warning}`);
  const unreachable = await unreachableAtStart(config);
  if (unreachable.length > 0) {
    for (const line of unreachable) console.error(line);
    process.exit(1);
  }

  const runtime = await startRuntime(config);
  const { app } = runtime;

  // SIGTERM (or SIGINT): readiness fails at once, so that a load balancer stops sending traffic; the
  // server keeps serving for SHUTDOWN_DRAIN_SECONDS while it notices; then it stops accepting, lets the
  // requests and job rows in flight finish, and exits 0. A second signal exits at once.
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) {
      app.log.warn({ signal }, 'second signal: exiting now, without waiting for work in flight');
      process.exit(1);
    }
    stopping = true;
    const drainSeconds = config.shutdown.drainSeconds;
    runtime.readiness.drain();
    app.log.info(
      { signal, drainSeconds },
      `shutting down: readiness answers 503; still serving for ${drainSeconds} s (SHUTDOWN_DRAIN_SECONDS)`,
    );
    if (drainSeconds > 0) await new Promise((resolve) => setTimeout(resolve, drainSeconds * 1000));
    app.log.info('drain period over: no longer accepting connections; finishing the requests in flight');
    try {
      await runtime.close((message) => app.log.info(message));
    } catch (err) {
      app.log.error({ err }, 'shutdown failed');
      process.exit(1);
    }
    app.log.info('stopped');
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  const address = await app.listen({ host: config.host, port: config.port });
  const lines = [
    '',
    ...addressLines(config.appUrl, address),
    `Database: ${runtime.database.kind === 'pglite' ? `embedded PGlite in ${config.dataDir}` : 'PostgreSQL (DATABASE_URL)'}`,
    `Audit trail: ${runtime.auditTrail}`,
    `Mail: ${runtime.mailer.kind === 'smtp' ? 'SMTP (SMTP_URL)' : `development outbox at ${config.appUrl}/dev/outbox`}`,
    `Sources (${config.providers.sandbox ? 'SANDBOX on: sources without a vendor answer synthetic data' : 'sandbox off'}):`,
    runtime.providers,
    ...(runtime.leaksLoaded > 0
      ? [`Leak Data Finder: loaded ${runtime.leaksLoaded} synthetic leak records`]
      : []),
  ];
  if (config.demo.seed) {
    lines.push(
      `Demo accounts (password: ${config.demo.password}${process.env.DEMO_PASSWORD ? '' : ', set DEMO_PASSWORD to change'}):`,
    );
    for (const account of demoAccounts) {
      lines.push(
        `  ${account.email.padEnd(28)} ${account.role === 'admin' ? 'admin, ' : ''}${account.appMode}, ${account.credits} credits`,
      );
    }
    lines.push('A first sign-in from a new browser asks for an e-mail code: read it in the outbox.');
  }
  console.log(lines.join('\n'));
}

main().catch((error) => {
  // A dependency unreachable at start is one clear line, not a stack.
  const dependency = outageOf(error);
  if (dependency) {
    const setting = { database: 'DATABASE_URL', redis: 'REDIS_URL', smtp: 'SMTP_URL' }[dependency];
    console.error(
      `Footprint could not start: the ${dependency} is unreachable (${errorName(error)}). Check that it runs and ${setting}, then start again.`,
    );
  } else {
    console.error(error);
  }
  process.exit(1);
});
