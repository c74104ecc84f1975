import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * The suite's server is shared by two spec files at a time, and a few tests change its deployment-wide
 * settings for a moment (registration closed, a case reference required) to see the product follow.
 * Every other test depends on those settings being as found: a sign-up, the /register page, a search
 * without a reference. This lock keeps the two apart. Every spec file holds it shared, letting go
 * only between two tests (support/hold-settings.ts, a setup file); a test that changes a setting
 * takes it exclusively for that part only (`changingSettings` in support/settings.ts), so it waits
 * for the other file's running test to end, and the other file's next test waits for it.
 *
 * The lock lives in the global setup's process and is reached over HTTP on 127.0.0.1: one request per
 * acquisition, answered when granted. Requests are granted in the order they came (an exclusive one
 * waiting holds back later shared ones, so it cannot starve). A holder is a worker; an exclusive
 * holder that never releases (a crashed worker) loses the lock after two minutes.
 */

type Mode = 'shared' | 'exclusive';
interface Waiter {
  mode: Mode;
  holder: string;
  grant: () => void;
}

const EXCLUSIVE_LEASE_MS = 120_000;

export async function startSettingsLock(): Promise<{ url: string; stop: () => Promise<void> }> {
  const shared = new Map<string, number>();
  let exclusive: { holder: string; lease: NodeJS.Timeout } | undefined;
  const queue: Waiter[] = [];

  const releaseExclusive = () => {
    if (exclusive) clearTimeout(exclusive.lease);
    exclusive = undefined;
  };
  const pump = () => {
    while (queue.length > 0 && !exclusive) {
      const next = queue[0]!;
      if (next.mode === 'exclusive') {
        if ([...shared.keys()].some((holder) => holder !== next.holder)) return;
        exclusive = {
          holder: next.holder,
          lease: setTimeout(() => {
            releaseExclusive();
            pump();
          }, EXCLUSIVE_LEASE_MS),
        };
      } else {
        shared.set(next.holder, (shared.get(next.holder) ?? 0) + 1);
      }
      queue.shift();
      next.grant();
    }
  };

  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://lock');
    const holder = url.searchParams.get('holder') ?? '';
    const mode = url.searchParams.get('mode') === 'exclusive' ? 'exclusive' : 'shared';
    const done = () => res.writeHead(204).end();
    if (!holder) return void res.writeHead(400).end();
    if (url.pathname === '/acquire') {
      const waiter: Waiter = { mode, holder, grant: done };
      queue.push(waiter);
      // A worker that is gone before its turn leaves the queue.
      res.on('close', () => {
        const at = queue.indexOf(waiter);
        if (at < 0) return;
        queue.splice(at, 1);
        pump();
      });
    } else if (url.pathname === '/release') {
      if (mode === 'exclusive') {
        if (exclusive?.holder === holder) releaseExclusive();
      } else {
        const count = (shared.get(holder) ?? 0) - 1;
        if (count > 0) shared.set(holder, count);
        else shared.delete(holder);
      }
      done();
    } else {
      res.writeHead(404).end();
    }
    pump();
  });
  // A request waits as long as the lock is held.
  server.requestTimeout = 0;
  server.headersTimeout = 0;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    stop: () =>
      new Promise<void>((resolve) => {
        releaseExclusive();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
