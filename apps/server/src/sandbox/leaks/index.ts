export {
  asciiHandle,
  type GenerateSandboxLeaksOptions,
  generateSandboxLeaks,
  SANDBOX_DEMO_ROWS,
  SANDBOX_LEAK_SOURCES,
  type SandboxLeakRow,
  type SandboxLeakSource,
  SandboxRng,
} from './generator.ts';
export {
  ensureSandboxLeaks,
  type LoadSandboxLeaksOptions,
  type LoadSandboxLeaksResult,
  loadSandboxLeaks,
  SANDBOX_LEAK_COUNT,
} from './load.ts';
