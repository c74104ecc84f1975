import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { holdSettings, releaseSettings } from './settings.ts';

// Every spec file holds the settings lock shared (support/settings.ts) from before its own `beforeAll`
// hooks to after its `afterAll` ones, so a test elsewhere that closes registration for a moment
// waits for them, and they for it. After each test the worker lets go and asks again at once: a
// change that waits goes in between two tests, and the next test (with any `beforeAll` of its
// `describe`) waits for it to end.
beforeAll(holdSettings);
beforeEach(holdSettings);
afterEach(async () => {
  await releaseSettings();
  await holdSettings();
});
afterAll(releaseSettings);
