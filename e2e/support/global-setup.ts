import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import { startProductServer } from './server.ts';
import { startSettingsLock } from './settings-lock.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    baseURL: string;
    /** The settings lock of support/settings-lock.ts. */
    settingsLock: string;
  }
}

/**
 * One product server for the whole e2e run; each spec makes its own users, so they never collide, and
 * the settings lock (support/settings-lock.ts) keeps a test that changes the deployment's settings
 * apart from the tests that depend on them.
 */
export default async function setup(project: TestProject) {
  for (const built of ['../../apps/server/dist/main.js', '../../apps/web/dist/index.html']) {
    if (!existsSync(fileURLToPath(new URL(built, import.meta.url)))) {
      throw new Error(`${built} is missing: run \`npm run build\` before the e2e suite (npm test does).`);
    }
  }
  const lock = await startSettingsLock();
  project.provide('settingsLock', lock.url);
  const server = await startProductServer();
  project.provide('baseURL', server.url);
  return async () => {
    await server.stop();
    await lock.stop();
  };
}
