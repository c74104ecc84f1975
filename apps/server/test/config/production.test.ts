// loadConfig refuses an unsafe production by omission, and names a misspelt setting of ours.
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.ts';

const PRODUCTION = {
  NODE_ENV: 'production',
  DATABASE_URL: 'postgres://footprint@127.0.0.1:5432/footprint',
  SMTP_URL: 'smtp://127.0.0.1:2525',
};

/** The refusal's lines, or [] when the configuration loads. */
function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
    return [];
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
}

describe('production by omission', () => {
  it('loads the complete production setup, draining 5 s; development drains 0 s', () => {
    const config = loadConfig(PRODUCTION);
    expect(config.shutdown.drainSeconds).toBe(5);
    expect(config.migrateOnStart).toBe(true);
    expect(config.demo.seed).toBe(false);
    expect(loadConfig({}).shutdown.drainSeconds).toBe(0);
    expect(
      loadConfig({ ...PRODUCTION, SHUTDOWN_DRAIN_SECONDS: '12', MIGRATE_ON_START: 'false' }),
    ).toMatchObject({
      shutdown: { drainSeconds: 12 },
      migrateOnStart: false,
    });
  });

  it('refuses production without DATABASE_URL unless the embedded database is asked for, and then makes no demo accounts', () => {
    const { DATABASE_URL: _, ...embedded } = PRODUCTION;
    expect(problemsOf(embedded)).toEqual([expect.stringMatching(/^DATABASE_URL: required in production/)]);
    const allowed = loadConfig({ ...embedded, ALLOW_EMBEDDED_DATABASE: 'true' });
    expect(allowed.databaseUrl).toBeUndefined();
    expect(allowed.demo.seed).toBe(false);
    // Outside production the embedded default keeps its demo accounts.
    expect(loadConfig({}).demo.seed).toBe(true);
  });

  it('refuses the demo accounts in production with the published or a common password, takes them with one of its own', () => {
    expect(problemsOf({ ...PRODUCTION, SEED_DEMO: 'true' })).toEqual([
      expect.stringContaining('the password the README publishes'),
    ]);
    expect(problemsOf({ ...PRODUCTION, SEED_DEMO: 'true', DEMO_PASSWORD: 'footprint-demo' })).toHaveLength(1);
    expect(problemsOf({ ...PRODUCTION, SEED_DEMO: 'true', DEMO_PASSWORD: 'password1234' })).toEqual([
      expect.stringContaining('a common password'),
    ]);
    const config = loadConfig({ ...PRODUCTION, SEED_DEMO: 'true', DEMO_PASSWORD: 'plum-harbour-kettle-42' });
    expect(config.demo).toEqual({ seed: true, password: 'plum-harbour-kettle-42' });
  });
});

describe('settings that look like ours but are not', () => {
  it('refuses them in production, naming the likely one or the family', () => {
    const { DATABASE_URL: _, ...rest } = PRODUCTION;
    const problems = problemsOf({
      ...rest,
      DATABSE_URL: 'postgres://footprint@127.0.0.1:5432/footprint',
      REPORT_THREAD: '2',
      COST_WHATSAPP: '3',
      database_url: 'x',
      ALLOW_EMBEDDED_DATABASE: 'true',
    });
    expect(problems).toEqual([
      'DATABSE_URL is not a Footprint setting; did you mean DATABASE_URL?',
      'REPORT_THREAD is not a Footprint setting; did you mean REPORT_THREADS?',
      expect.stringMatching(/^COST_WHATSAPP is not a Footprint setting \(the COST_ settings are COST_TEL, /),
      'database_url is not a Footprint setting; did you mean DATABASE_URL?',
    ]);
  });

  it('only warns outside production', () => {
    const config = loadConfig({ DATABSE_URL: 'postgres://127.0.0.1/x', MEDIA_HOST: 'example.org' });
    expect(config.warnings).toEqual([
      'DATABSE_URL is not a Footprint setting; did you mean DATABASE_URL?',
      'MEDIA_HOST is not a Footprint setting; did you mean MEDIA_HOSTS?',
    ]);
  });

  it("leaves the vendors' variables, the platform's and the world's alone", () => {
    const env = {
      ...PRODUCTION,
      // A vendor's own variables, known or not (its adapter reads its prefix).
      HIBP_API_KEY: 'k',
      HIBP_SOMETHING_NEW: 'x',
      // Kubernetes service links of services named smtp and redis.
      SMTP_PORT: 'tcp://10.0.0.5:25',
      SMTP_SERVICE_HOST: '10.0.0.5',
      REDIS_PORT_6379_TCP_ADDR: '10.0.0.6',
      // What shells, containers, Node and libpq set.
      HOME: '/root',
      HOSTNAME: 'footprint-7d9f',
      PATH: '/usr/bin',
      PWD: '/app',
      NODE_OPTIONS: '--max-old-space-size=512',
      NODE_VERSION: '24.1.0',
      HTTP_PROXY: 'http://proxy:3128',
      HTTPS_PROXY: 'http://proxy:3128',
      NO_PROXY: 'localhost',
      PGHOST: 'db',
      PGPORT: '5432',
      REDIS_HOST: 'redis',
      SMTP_HOST: 'mail',
      TZ: 'UTC',
      npm_config_cache: '/tmp/npm',
    };
    expect(problemsOf(env)).toEqual([]);
  });
});
