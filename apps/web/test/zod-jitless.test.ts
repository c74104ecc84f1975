// Loaded first, as in main.tsx: zod must pick the setting up when it loads.
import '../src/lib/zod-jitless.ts';
import { loginRequest } from '@footprint/domain';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { config } from 'zod/v4/core';

describe('zod without eval', () => {
  afterEach(() => vi.restoreAllMocks());

  it('reads the setting the entry module leaves for it', () => {
    expect(config().jitless).toBe(true);
  });

  it('parses a form without ever asking for Function (what the CSP reported)', () => {
    const probe = vi.spyOn(globalThis, 'Function');
    expect(loginRequest.parse({ email: 'ada@example.test', password: 'a long passphrase' })).toMatchObject({
      email: 'ada@example.test',
    });
    expect(loginRequest.safeParse({ email: 'nope' }).success).toBe(false);
    expect(probe).not.toHaveBeenCalled();
  });
});
