import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import { startProductServer } from './server.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    baseURL: string;
  }
}

/** One product server for the whole e2e run; each spec makes its own users, so they never collide. */
export default async function setup(project: TestProject) {
  for (const built of ['../../apps/server/dist/main.js', '../../apps/web/dist/index.html']) {
    if (!existsSync(fileURLToPath(new URL(built, import.meta.url)))) {
      throw new Error(`${built} is missing: run \`npm run build\` before the e2e suite (npm test does).`);
    }
  }
  const server = await startProductServer();
  project.provide('baseURL', server.url);
  return async () => {
    await server.stop();
  };
}
