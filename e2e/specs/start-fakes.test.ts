// `npm run start:fakes` builds the web app into a folder of its own (apps/web/dist-fakes) and serves
// it: a running `npm start` of the same checkout, which serves apps/web/dist, keeps answering.
import { existsSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

/** The runner's own build step (scripts/ is outside this TypeScript project: loaded at run time). */
const { buildFakesWeb, FAKES_WEB_OUT_DIR, fakesWebDist } = (await import(
  new URL('../../scripts/fakes-web.ts', import.meta.url).href
)) as {
  buildFakesWeb: (options?: { quiet?: boolean }) => Promise<void>;
  FAKES_WEB_OUT_DIR: string;
  fakesWebDist: string;
};

const webDist = fileURLToPath(new URL('../../apps/web/dist', import.meta.url));

/** Every file under `dir` with its size and modification time. */
function filesOf(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (at: string) => {
    for (const entry of readdirSync(at, { withFileTypes: true })) {
      const path = join(at, entry.name);
      if (entry.isDirectory()) walk(path);
      else {
        const stat = statSync(path);
        out.set(path.slice(dir.length), `${stat.size}:${stat.mtimeMs}`);
      }
    }
  };
  walk(dir);
  return out;
}

it('builds into apps/web/dist-fakes, leaves apps/web/dist untouched, and hands the server that folder', async () => {
  expect(FAKES_WEB_OUT_DIR).not.toBe('dist');
  expect(fakesWebDist).not.toBe(webDist);
  const before = filesOf(webDist);
  expect(before.get('/index.html')).toBeDefined();
  rmSync(fakesWebDist, { recursive: true, force: true });

  await buildFakesWeb({ quiet: true });

  expect(existsSync(join(fakesWebDist, 'index.html'))).toBe(true);
  expect(existsSync(join(fakesWebDist, 'prerendered', 'login.html'))).toBe(true);
  // Not one file of the other build was written, removed or added.
  expect(filesOf(webDist)).toEqual(before);
  // The runner hands the server that folder (the server serves WEB_DIST).
  const runner = readFileSync(
    fileURLToPath(new URL('../../scripts/run-with-fakes.ts', import.meta.url)),
    'utf8',
  );
  expect(runner).toMatch(/WEB_DIST: fakesWebDist/);
  expect(runner).toMatch(/await buildFakesWeb\(\)/);
}, 300_000);
