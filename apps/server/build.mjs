// Bundles the server (and the workspace's domain package, which ships TypeScript) into dist/main.js.
// Dependencies from npm stay external and load from node_modules.
import { cpSync, readFileSync, rmSync } from 'node:fs';
import { build } from 'esbuild';

const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8'));
// esbuild too: the leak parse pool imports it (dynamically) only when run from source.
const external = [
  ...Object.keys(pkg.dependencies).filter((name) => !name.startsWith('@footprint/')),
  'esbuild',
];

rmSync('dist', { recursive: true, force: true });
const entries = {
  main: 'src/main.ts',
  cli: 'src/cli/index.ts',
  // The report pool's worker thread loads this file beside main.js.
  'report-worker': 'src/modules/reports/worker.ts',
  // The leak importer's parse pool loads this file beside cli.js.
  'leak-parse-worker': 'src/modules/leaks/import/parse-worker.ts',
};
await build({
  entryPoints: entries,
  outdir: 'dist',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node24',
  sourcemap: true,
  external,
  banner: {
    js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);",
  },
  logLevel: 'warning',
});
// The username site catalogue and its lists' licences (MIT: they must ship with it), read at run time
// from dist/sites/ by src/providers/sites/catalogue.ts.
cpSync('src/providers/sites/catalogue.json', 'dist/sites/catalogue.json');
cpSync('src/providers/sites/LICENSES', 'dist/sites/LICENSES', { recursive: true });
console.log(`built dist/ (${Object.keys(entries).join(', ')}, sites/)`);
