import { describe, expect, it } from 'vitest';
import { createForeground } from '../../src/modules/searches/foreground.ts';

/** A search held open until its returned function is called. */
function held(foreground: ReturnType<typeof createForeground>) {
  let end!: () => void;
  const done = foreground.track(() => new Promise<void>((resolve) => (end = resolve)));
  return async () => {
    end();
    await done;
  };
}

describe('interactive searches in flight (what bulk jobs give way to)', () => {
  it('counts the searches in flight, and remembers the most at once for a second or two after', async () => {
    let clock = 0;
    const foreground = createForeground(() => clock);
    expect(foreground.recent()).toBe(0);
    const ends = [held(foreground), held(foreground), held(foreground)];
    expect(foreground.recent()).toBe(3);
    for (const end of ends) await end();
    // All three ended, but a person between two searches is still searching.
    clock = 500;
    expect(foreground.recent()).toBe(3);
    clock = 1_200;
    expect(foreground.recent()).toBe(3);
    clock = 2_300;
    expect(foreground.recent()).toBe(0);
  });

  it('forgets a burst once two windows have passed with none in flight', async () => {
    let clock = 0;
    const foreground = createForeground(() => clock);
    const end = held(foreground);
    clock = 5_000;
    // Still in flight after a long time: counted.
    expect(foreground.recent()).toBe(1);
    await end();
    clock = 7_100;
    expect(foreground.recent()).toBe(0);
  });

  it('wakes a waiter when a search ends, or after its time at the latest', async () => {
    const foreground = createForeground();
    const end = held(foreground);
    let woken = false;
    const waiting = foreground.ended(10_000).then(() => {
      woken = true;
    });
    expect(woken).toBe(false);
    await end();
    await waiting;
    expect(woken).toBe(true);
    const started = performance.now();
    await foreground.ended(30);
    expect(performance.now() - started).toBeGreaterThanOrEqual(25);
  });
});
