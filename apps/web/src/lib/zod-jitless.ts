/**
 * zod compiles fast object parsers with `new Function`, after probing whether eval is allowed. The
 * page's CSP (script-src 'self', no 'unsafe-eval') forbids it, so the probe itself was reported as a
 * CSP violation on every page with a form (Chromium's Issues panel, Lighthouse's best practices).
 * Its interpreted parsers give the same answers.
 *
 * zod reads its settings from this global when it first loads (zod/v4/core's `config()` writes the
 * same object). Setting it here, before any zod code has loaded, keeps zod out of the app's entry
 * chunk: importing `config` would pull zod's core into it. apps/web/test/zod-jitless.test.ts checks
 * that zod still reads it.
 */
const holder = globalThis as { __zod_globalConfig?: Record<string, unknown> };
holder.__zod_globalConfig = { ...holder.__zod_globalConfig, jitless: true };
