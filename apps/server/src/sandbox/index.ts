/**
 * The sandbox wing's public face: synthetic, deterministic data for every source, for a deployment
 * whose operator runs without real vendors (see README.md beside this file). Everything outside
 * `src/sandbox/` imports the wing through this file only.
 *
 *   - the sandbox providers: one deterministic provider per source, with the operator's injected
 *     latency and failures (`SANDBOX_LATENCY`, `SANDBOX_FAILURES`), and the fixed demo identities;
 *   - the sandbox leak index: synthetic breach records written through the leak importer's own path
 *     (the embedded default start and `leaks:sandbox`).
 */

export { runLeaksSandbox, sandboxLeakCliUsage } from './leaks/cli.ts';
export {
  asciiHandle,
  type GenerateSandboxLeaksOptions,
  generateSandboxLeaks,
  SANDBOX_DEMO_ROWS,
  SANDBOX_LEAK_SOURCES,
  type SandboxLeakRow,
  type SandboxLeakSource,
} from './leaks/generator.ts';
export {
  ensureSandboxLeaks,
  type LoadSandboxLeaksOptions,
  type LoadSandboxLeaksResult,
  loadSandboxLeaks,
  SANDBOX_LEAK_COUNT,
} from './leaks/load.ts';
export * from './providers/index.ts';
