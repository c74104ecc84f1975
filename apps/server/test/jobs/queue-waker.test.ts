import { afterEach, describe, expect, it, vi } from 'vitest';
import { IDLE_POLL_MAX_MS, QueueWaker } from '../../src/modules/jobs/pg-boss.ts';

afterEach(() => {
  vi.useRealTimers();
});

describe('QueueWaker (the idle wait of pg-boss fetch loops)', () => {
  it('lets one loop of an idle queue poll, backing off to IDLE_POLL_MAX_MS, while the others wait', async () => {
    vi.useFakeTimers();
    const waker = new QueueWaker();
    const signal = new AbortController().signal;
    // Three loops found nothing: one becomes the poller, two wait for it.
    let done = 0;
    const loops = [waker.idle(signal), waker.idle(signal), waker.idle(signal)].map((p) =>
      p.then(() => done++),
    );
    await vi.advanceTimersByTimeAsync(499);
    expect(done).toBe(0);
    await vi.advanceTimersByTimeAsync(1);
    // Only the poller's timer ran out; the other two still wait.
    expect(done).toBe(1);
    // The poller keeps finding nothing: its waits double, up to the cap.
    const waits: number[] = [];
    for (let i = 0; i < 6; i++) {
      waits.push(waker.delayMs);
      const next = waker.idle(signal);
      await vi.advanceTimersByTimeAsync(waker.delayMs === IDLE_POLL_MAX_MS ? IDLE_POLL_MAX_MS : 60_000);
      await next;
    }
    expect(waits).toEqual([1000, 2000, 4000, IDLE_POLL_MAX_MS, IDLE_POLL_MAX_MS, IDLE_POLL_MAX_MS]);
    expect(done).toBe(1);
    // A job found (or sent from this process) wakes every loop and starts the back-off again.
    waker.wake();
    await Promise.all(loops);
    expect(done).toBe(3);
    expect(waker.delayMs).toBe(500);
  });

  it('lets a loop go when its queue stops', async () => {
    const waker = new QueueWaker();
    const abort = new AbortController();
    const poller = waker.idle(abort.signal);
    const waiter = waker.idle(abort.signal);
    abort.abort();
    await Promise.all([poller, waiter]);
    // Already stopped: no wait at all.
    await waker.idle(abort.signal);
  });
});
