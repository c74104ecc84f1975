/**
 * The web build of `npm run start:fakes`: into apps/web/dist-fakes (git-ignored), never apps/web/dist,
 * so a `npm start` of the same checkout keeps serving its own build while this one is made and run.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The folder under apps/web that start:fakes builds into (WEB_OUT_DIR of vite.config.ts). */
export const FAKES_WEB_OUT_DIR = 'dist-fakes';
/** That folder, absolute: the server's WEB_DIST under start:fakes. */
export const fakesWebDist = fileURLToPath(new URL(`../apps/web/${FAKES_WEB_OUT_DIR}`, import.meta.url));
const root = fileURLToPath(new URL('..', import.meta.url));

/** Builds the web app into apps/web/dist-fakes; resolves when done, rejects if the build fails. */
export function buildFakesWeb(options: { quiet?: boolean } = {}): Promise<void> {
  return new Promise((resolve, reject) => {
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
    const child = spawn(npm, ['run', 'build', '--workspace', '@footprint/web'], {
      cwd: root,
      stdio: options.quiet ? ['ignore', 'ignore', 'inherit'] : 'inherit',
      env: { ...process.env, WEB_OUT_DIR: FAKES_WEB_OUT_DIR },
    });
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`the web build exited with ${code ?? 'a signal'}`)),
    );
  });
}
