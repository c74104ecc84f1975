import { describe, expect, it } from 'vitest';
import { createRunner } from '../../src/providers/runner.ts';
import {
  type Provider,
  SourceFailedError,
  SourceMisconfiguredError,
  SourceNotFoundError,
  SourceRateLimitedError,
} from '../../src/providers/types.ts';

const wait = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(signal.reason);
    });
  });

function provider(
  source: string,
  behaviour: (signal: AbortSignal) => Promise<unknown>,
  extra: Partial<Provider> = {},
): Provider {
  return {
    id: `test:${source}`,
    source,
    kinds: ['tel'],
    sandbox: false,
    fetch: (_q, signal) => behaviour(signal),
    ...extra,
  };
}

const options = { timeoutMs: 200, breakerFailures: 3, halfOpenAfterMs: 150 };
const query = { kind: 'tel' as const, value: '919876543210' };

describe('provider runner', () => {
  it('calls every provider of the kind in parallel and keeps each payload or error', async () => {
    let aborted = false;
    const runner = createRunner(
      [
        provider('fast', async () => ({ ok: 1 })),
        provider('slow', (signal) => wait(100, signal).then(() => ({ ok: 2 }))),
        provider('broken', async () => {
          throw new SourceFailedError('boom');
        }),
        provider('missing', async () => {
          throw new SourceNotFoundError();
        }),
        provider('hung', (signal) => {
          signal.addEventListener('abort', () => {
            aborted = true;
          });
          return new Promise(() => {});
        }),
        provider('other-kind', async () => ({ never: true }), { kinds: ['email'] }),
      ],
      options,
    );
    const started = performance.now();
    const result = await runner.run(query);
    const elapsed = performance.now() - started;
    expect(result.payloads).toEqual({ fast: { ok: 1 }, slow: { ok: 2 } });
    expect(result.errors).toEqual({
      broken: 'Source failed to answer.',
      missing: 'No record found.',
      hung: 'Source did not answer in time.',
    });
    expect(result.answered.sort()).toEqual(['fast', 'missing', 'slow']);
    // Parallel: bounded by the timeout, not by the sum of the latencies.
    expect(elapsed).toBeLessThan(400);
    expect(elapsed).toBeGreaterThanOrEqual(190);
    expect(aborted).toBe(true);
    const stats = Object.fromEntries(runner.stats().map((s) => [s.source, s]));
    expect(stats.hung).toMatchObject({ calls: 1, failures: 1, timeouts: 1, breaker: 'closed' });
    expect(stats.missing).toMatchObject({ calls: 1, failures: 0, notFound: 1 });
    expect(stats['other-kind']).toMatchObject({ calls: 0 });
    expect(stats.slow!.latency.p50).toBeGreaterThanOrEqual(95);
  });

  it('opens a breaker after consecutive failures, skips the source while open, and closes it again', async () => {
    let healthy = false;
    let calls = 0;
    const runner = createRunner(
      [
        provider('flaky', async () => {
          calls += 1;
          if (!healthy) throw new SourceFailedError('down');
          return { back: true };
        }),
      ],
      options,
    );
    for (let i = 0; i < 3; i++) await runner.run(query);
    expect(runner.stats()[0]!.breaker).toBe('open');
    const whileOpen = await runner.run(query);
    expect(whileOpen.errors.flaky).toBe('Source temporarily unavailable.');
    expect(calls).toBe(3);
    expect(runner.stats()[0]!.rejectedOpen).toBe(1);

    healthy = true;
    await new Promise((r) => setTimeout(r, 170));
    const recovered = await runner.run(query);
    expect(recovered.payloads.flaky).toEqual({ back: true });
    expect(runner.stats()[0]!.breaker).toBe('closed');
  });

  it('never opens a breaker for "no record" answers', async () => {
    const runner = createRunner(
      [
        provider('empty', async () => {
          throw new SourceNotFoundError();
        }),
      ],
      options,
    );
    for (let i = 0; i < 6; i++) await runner.run(query);
    expect(runner.stats()[0]).toMatchObject({ breaker: 'closed', notFound: 6, failures: 0 });
  });

  it('honours a provider-specific timeout', async () => {
    const runner = createRunner(
      [provider('patient', (signal) => wait(300, signal).then(() => 'late'), { timeoutMs: 500 })],
      options,
    );
    expect((await runner.run(query)).payloads.patient).toBe('late');
  });

  it('cuts each source off at its own timeout within one lookup, and aborts only the signal of those cut off', async () => {
    const aborted: string[] = [];
    const watching =
      (name: string, ms: number, answer: unknown) =>
      (signal: AbortSignal): Promise<unknown> => {
        signal.addEventListener('abort', () => aborted.push(name));
        return ms < 0 ? new Promise(() => {}) : wait(ms, signal).then(() => answer);
      };
    const runner = createRunner(
      [
        // Its own 60 ms: cut off, while the others (200 ms by default, 500 ms) go on.
        provider('hasty', watching('hasty', -1, null), { timeoutMs: 60 }),
        provider('default', watching('default', 120, 'in time')),
        provider('patient', watching('patient', 300, 'late'), { timeoutMs: 500 }),
      ],
      options,
    );
    const started = performance.now();
    const result = await runner.run(query);
    expect(result.payloads).toEqual({ default: 'in time', patient: 'late' });
    expect(result.status.hasty?.status).toBe('timed_out');
    expect(performance.now() - started).toBeGreaterThanOrEqual(290);
    expect(aborted).toEqual(['hasty']);
    // Every source answered or was cut off: no timer is left to abort the others later.
    await new Promise((r) => setTimeout(r, 600));
    expect(aborted).toEqual(['hasty']);
  });

  it('counts timeouts against the breaker: a source that keeps hanging is skipped until half-open', async () => {
    let calls = 0;
    const runner = createRunner(
      [
        provider('hung', () => {
          calls += 1;
          return new Promise(() => {});
        }),
      ],
      { ...options, timeoutMs: 20 },
    );
    for (let i = 0; i < 3; i++) await runner.run(query);
    expect(runner.stats()[0]).toMatchObject({ breaker: 'open', timeouts: 3 });
    const skipped = await runner.run(query);
    expect(skipped.errors.hung).toBe('Source temporarily unavailable.');
    expect(calls).toBe(3);
  });
});

describe('source statuses', () => {
  const sources = () => ['fast', 'missing', 'unserved'];

  it('lists every source of the kind: answered, no record, failed, and not configured', async () => {
    const runner = createRunner(
      [
        provider('fast', async () => ({ ok: 1 }), {
          vendor: { id: 'acme', name: 'Acme', costPerCall: 0.01, currency: 'USD' },
        }),
        provider(
          'missing',
          async () => {
            throw new SourceNotFoundError();
          },
          { sandbox: true },
        ),
      ],
      { ...options, sourcesOf: sources },
    );
    const result = await runner.run(query);
    expect(result.status).toEqual({
      fast: { status: 'ok', mode: 'live', vendor: 'Acme' },
      missing: { status: 'not_found', mode: 'sandbox', message: 'No record found.' },
      unserved: {
        status: 'not_configured',
        mode: 'not_configured',
        message: 'Not configured in this deployment.',
      },
    });
    expect(result.errors).not.toHaveProperty('unserved');
    expect(runner.available('tel')).toBe(true);
    expect(runner.available('email')).toBe(false);
  });

  it('honours Retry-After: no call reaches the vendor until it has passed', async () => {
    let calls = 0;
    const runner = createRunner(
      [
        provider('fast', async () => {
          calls += 1;
          throw new SourceRateLimitedError('slow down', 150);
        }),
      ],
      { ...options, sourcesOf: () => ['fast'] },
    );
    expect((await runner.run(query)).status.fast?.status).toBe('rate_limited');
    expect((await runner.run(query)).status.fast?.status).toBe('rate_limited');
    expect(calls).toBe(1);
    expect(runner.stats()[0]).toMatchObject({ rateLimited: 2, breaker: 'closed' });
    expect(runner.stats()[0]?.pausedUntil).not.toBeNull();
    await new Promise((r) => setTimeout(r, 170));
    await runner.run(query);
    expect(calls).toBe(2);
  });

  it('flags refused credentials for operators and tells users only that the source failed', async () => {
    let refuse = true;
    const runner = createRunner(
      [
        provider('fast', async () => {
          if (refuse) throw new SourceMisconfiguredError('Acme refused the credentials (401)', 401);
          return { ok: 1 };
        }),
      ],
      { ...options, sourcesOf: () => ['fast'] },
    );
    const result = await runner.run(query);
    expect(result.status.fast).toEqual({
      status: 'failed',
      mode: 'live',
      message: 'Source failed to answer.',
    });
    expect(runner.stats()[0]).toMatchObject({
      misconfigured: true,
      lastError: { message: 'Acme refused the credentials (401)' },
    });
    refuse = false;
    await runner.run(query);
    expect(runner.stats()[0]?.misconfigured).toBe(false);
  });

  it('reports timeouts as timed_out and tells the usage record of every call that went out', async () => {
    const calls: string[] = [];
    const runner = createRunner(
      [provider('hung', () => new Promise(() => {})), provider('fast', async () => ({ ok: 1 }))],
      {
        ...options,
        timeoutMs: 50,
        sourcesOf: () => ['hung', 'fast'],
        onCall: (c) => calls.push(`${c.provider.source}:${c.state}`),
      },
    );
    const result = await runner.run(query);
    expect(result.status.hung?.status).toBe('timed_out');
    expect(calls.sort()).toEqual(['fast:ok', 'hung:timed_out']);
  });
});
