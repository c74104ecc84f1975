import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

const root = fileURLToPath(new URL('../..', import.meta.url));

export const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });

/**
 * Origins of the product servers this test process started (a spec's own, beside the suite's baseURL):
 * the only origins a page may send requests to (support/browser.ts).
 */
export const productOrigins = new Set<string>();

export interface RunningServer {
  url: string;
  /** The address the browser uses (APP_URL): `url` unless a public host was given. */
  publicUrl: string;
  process: ChildProcess;
  output: () => string;
  stop(): Promise<void>;
}

/**
 * Starts the built product (apps/server/dist/main.js serving apps/web/dist) the way the README
 * does, on a fresh database: a new PostgreSQL database when TEST_DATABASE_URL is set, a new PGlite
 * directory otherwise.
 */
export async function startProductServer(
  env: Record<string, string> = {},
  /** A host name for APP_URL and the browser (WebAuthn needs one, not an IP address); it still listens on 127.0.0.1. */
  options: { publicHost?: string } = {},
): Promise<RunningServer> {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'footprint-e2e-'));
  let databaseUrl: string | undefined;
  let dropDatabase = async () => {};
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (adminUrl) {
    const name = `fp_e2e_${randomBytes(5).toString('hex')}`;
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`create database ${name}`);
    await admin.end();
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    databaseUrl = url.toString();
    dropDatabase = async () => {
      const cleanup = new pg.Client({ connectionString: adminUrl });
      await cleanup.connect();
      await cleanup.query(`drop database if exists ${name} with (force)`);
      await cleanup.end();
    };
  }
  const url = `http://127.0.0.1:${port}`;
  const publicUrl = options.publicHost ? `http://${options.publicHost}:${port}` : url;
  let log = '';
  const child = spawn(process.execPath, ['apps/server/dist/main.js'], {
    cwd: root,
    env: {
      PATH: process.env.PATH ?? '',
      NODE_ENV: 'test',
      PORT: String(port),
      HOST: '127.0.0.1',
      APP_URL: publicUrl,
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      SEED_DEMO: 'true',
      DEMO_PASSWORD: 'e2e-demo-password',
      // Enough synthetic leak records for paging (and the demo identities), quick to load.
      SANDBOX_LEAK_RECORDS: '20000',
      // Every spec signs its users in from this one address: well over the per-IP login and OTP limits
      // (30 in 5 and 10 minutes) in a full run. The limits themselves are proven by the server suite
      // (test/auth) and the stress suite; here they would only fail whichever spec comes last.
      RATE_LIMIT_ENABLED: 'false',
      // The specs register their own users and sign them in at once: the shared server keeps the
      // spec's open registration. Approval (the product's default) has its own server in approval.test.ts.
      REGISTRATION_MODE: 'open',
      // And they register with the spec's four fields: the sign-up profile (organisation, designation;
      // required by default) has its own spec in approval.test.ts and the server's test/auth.
      REGISTRATION_REQUIRED_FIELDS: 'none',
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (d) => {
    log += d;
  });
  child.stderr?.on('data', (d) => {
    log += d;
  });

  // A loaded machine (other suites beside this one) has taken over a minute to start it: the limit is
  // the spec hooks' own (120 s) less a margin.
  const deadline = Date.now() + 110_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited early (${child.exitCode}):\n${log}`);
    try {
      const res = await fetch(`${url}/api/health`);
      if (res.ok) break;
    } catch {}
    if (Date.now() > deadline) {
      // Not left running behind the failed spec (nothing else would stop it).
      child.kill('SIGKILL');
      await dropDatabase().catch(() => {});
      rmSync(dataDir, { recursive: true, force: true });
      throw new Error(`server did not start within 110 s:\n${log}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }

  productOrigins.add(new URL(url).origin);
  productOrigins.add(new URL(publicUrl).origin);
  return {
    url,
    publicUrl,
    process: child,
    output: () => log,
    async stop() {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await new Promise((r) => child.once('exit', r));
      }
      await dropDatabase();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
