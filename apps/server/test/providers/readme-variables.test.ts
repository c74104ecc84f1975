import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { envSchema } from '../../src/config.ts';
import { vendorVariables } from '../../src/providers/vendors.ts';

const readme = readFileSync(new URL('../../../../README.md', import.meta.url), 'utf8');
const webBuild = readFileSync(new URL('../../../web/vite.config.ts', import.meta.url), 'utf8');
const e2eBrowser = readFileSync(new URL('../../../../e2e/support/browser.ts', import.meta.url), 'utf8');
const e2eWork = readFileSync(new URL('../../../../e2e/support/work.ts', import.meta.url), 'utf8');
/** The variable names in the first column of README's environment table. */
const documented = new Set([...readme.matchAll(/^\| `([A-Z][A-Z0-9_]*)`/gm)].map((m) => m[1] ?? ''));

describe("README's environment table", () => {
  it("lists every variable the server reads, the vendors' included", () => {
    const read = [...Object.keys(envSchema.shape), ...Object.keys(vendorVariables())];
    expect(read.filter((name) => !documented.has(name))).toEqual([]);
  });

  it('lists no variable the server does not read (tests-only and build-only ones excepted)', () => {
    const read = new Set([...Object.keys(envSchema.shape), ...Object.keys(vendorVariables())]);
    // The web build reads WEB_OUT_DIR (apps/web/vite.config.ts), the browser tests the E2E_ ones.
    expect(webBuild).toContain('process.env.WEB_OUT_DIR');
    expect(e2eBrowser).toContain('process.env.E2E_PICTURES');
    expect(e2eWork).toContain('process.env.E2E_TIMINGS');
    const testsOnly = new Set([
      'TEST_DATABASE_URL',
      'CHROMIUM_PATH',
      'WEB_OUT_DIR',
      'E2E_PICTURES',
      'E2E_TIMINGS',
    ]);
    expect([...documented].filter((name) => !read.has(name) && !testsOnly.has(name))).toEqual([]);
  });
});
