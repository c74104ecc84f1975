import { ConfigError, loadConfig } from './config.ts';
import { errorName, outageOf } from './outage.ts';
import { demoAccounts, startRuntime } from './runtime.ts';
import { addressLines } from './start-banner.ts';

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

  const runtime = await startRuntime(config);
  const { app } = runtime;

  const shutdown = async (signal: string) => {
    app.log.info({ signal }, 'shutting down');
    await runtime.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));

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
