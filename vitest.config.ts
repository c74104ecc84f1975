import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// Test files (the server's above all) spend much of their time waiting on PostgreSQL, child
// processes and timers, so they run at least three at a time even on two cores (Vitest's default
// there is one). The stress project still runs its files one at a time, the e2e project two.
const workers = Math.max(availableParallelism() - 1, 3);

export default defineConfig({
  test: {
    maxWorkers: workers,
    projects: [
      {
        test: {
          name: 'domain',
          root: './packages/domain',
          include: ['test/**/*.test.ts'],
        },
      },
      {
        test: {
          // The web app's pure modules (formatters, navigation states, highlighting, paid answers).
          name: 'web',
          root: './apps/web',
          include: ['test/**/*.test.ts'],
          environment: 'node',
          // The date formatters read local time; the expectations are written for UTC.
          env: { TZ: 'UTC' },
        },
      },
      {
        test: {
          name: 'server',
          root: './apps/server',
          include: ['test/**/*.test.ts'],
          // A file's first test also pays for its server's warm-up (the report worker, fonts), with
          // other files running beside it.
          testTimeout: 60_000,
          hookTimeout: 60_000,
          // Each file gets its own database, so files run in parallel safely.
          pool: 'forks',
          // A worker runs its files one after another in one module graph instead of loading the
          // server's modules again for every file: loading them took 230 s of the pass's 600 s of CPU.
          // Every file builds its own app, database and servers, and no file mocks a module or changes
          // the environment, so nothing of one file's reaches another's.
          isolate: false,
        },
      },
      {
        test: {
          // PostgreSQL only (TEST_DATABASE_URL): concurrency, crashes, faults and hostile input.
          name: 'stress',
          root: './apps/server',
          include: ['stress/**/*.test.ts'],
          testTimeout: 180_000,
          hookTimeout: 180_000,
          pool: 'forks',
          fileParallelism: false,
        },
      },
      {
        test: {
          name: 'e2e',
          root: './e2e',
          include: ['specs/**/*.test.ts'],
          globalSetup: ['./support/global-setup.ts'],
          setupFiles: ['./support/hold-settings.ts'],
          // Two files side by side, each checking its pages against the WCAG 2.2 rules, load two
          // cores heavily: a long flow may take over a minute.
          testTimeout: 90_000,
          hookTimeout: 120_000,
          // Two spec files at a time: one file keeps about three quarters of the two cores busy (the
          // browser, the server, the test), waiting on the rest. Every spec makes its own users, so two
          // never see each other's data. Their modules stay loaded from one file to the next.
          maxWorkers: 2,
          isolate: false,
        },
      },
    ],
  },
});
