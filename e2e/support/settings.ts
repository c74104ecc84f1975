import { threadId } from 'node:worker_threads';
import { inject } from 'vitest';
import { timingsWanted } from './work.ts';

/** This worker, as the lock knows it: its files run one after another. */
const holder = `${process.pid}.${threadId}`;
let sharedHeld = false;

async function lockCall(action: 'acquire' | 'release', mode: 'shared' | 'exclusive'): Promise<void> {
  const answer = await fetch(`${inject('settingsLock')}/${action}?mode=${mode}&holder=${holder}`, {
    method: 'POST',
  });
  if (answer.status !== 204) throw new Error(`the settings lock answered ${answer.status} to ${action}`);
}

/** Holds the lock shared (support/hold-settings.ts: a spec file's whole run but the gaps between tests). */
export async function holdSettings(): Promise<void> {
  if (sharedHeld) return;
  await lockCall('acquire', 'shared');
  sharedHeld = true;
}

export async function releaseSettings(): Promise<void> {
  if (!sharedHeld) return;
  sharedHeld = false;
  await lockCall('release', 'shared');
}

/**
 * Runs `change` with the suite's server to this test alone: the deployment-wide settings it changes
 * (and must restore before it returns) cannot reach another file's test. It gives up its shared hold
 * while it waits (two tests waiting to change settings must not wait on each other) and takes it
 * back after.
 */
export async function changingSettings<T>(change: () => Promise<T>): Promise<T> {
  const had = sharedHeld;
  await releaseSettings();
  const asked = performance.now();
  await lockCall('acquire', 'exclusive');
  // With E2E_TIMINGS, what the lock cost this test: the wait for the other file's running test.
  if (timingsWanted) console.log(`settings lock: waited ${Math.round(performance.now() - asked)} ms`);
  try {
    return await change();
  } finally {
    await lockCall('release', 'exclusive');
    if (had) await holdSettings();
  }
}
