// Abuse: forgot-password timing must not tell whether an account exists. Measured here, over real
// HTTP on 127.0.0.1, with known and unknown addresses interleaved.
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createUser, type TestApp } from '../test/support/app.ts';

let t: TestApp;
let base: string;

beforeAll(async () => {
  t = await createTestApp({ env: { RATE_LIMIT_ENABLED: 'false' } });
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
}, 120_000);
afterAll(async () => {
  await t?.close();
});

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
};

describe('forgot-password timing', () => {
  it('takes the same time for an existing and a made-up address (medians within 2 ms or 25%)', async () => {
    const users = await Promise.all(Array.from({ length: 5 }, () => createUser(t.db)));
    const csrf = await fetch(`${base}/sanctum/csrf-cookie`);
    const token = /XSRF-TOKEN=([^;]+)/.exec(csrf.headers.get('set-cookie') ?? '')?.[1] ?? '';
    const headers = {
      'content-type': 'application/json',
      cookie: `XSRF-TOKEN=${token}`,
      'x-xsrf-token': decodeURIComponent(token),
    };
    const time = async (email: string) => {
      const started = performance.now();
      const res = await fetch(`${base}/forgot-password`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ email }),
      });
      await res.arrayBuffer();
      expect(res.status).toBe(200);
      return performance.now() - started;
    };
    // Warm up both paths, then interleave so that drift hits both alike.
    for (let i = 0; i < 5; i++) {
      await time(users[i % users.length]!.email);
      await time(`nobody-${i}@example.test`);
    }
    // One round: 60 pairs, interleaved. Each request's background work (the reset mail, the audit row)
    // is let finish before the next request, and the order inside each pair alternates, so neither path
    // pays for the other's.
    const settle = () => new Promise((r) => setTimeout(r, 15));
    const round = async (n: number) => {
      const known: number[] = [];
      const unknown: number[] = [];
      for (let i = 0; i < 60; i++) {
        const knownFirst = i % 2 === 0;
        for (const which of knownFirst ? ['known', 'unknown'] : ['unknown', 'known']) {
          if (which === 'known') known.push(await time(users[i % users.length]!.email));
          else unknown.push(await time(`nobody-${n}-${i}-${Date.now()}@example.test`));
          await settle();
        }
      }
      const k = median(known);
      const u = median(unknown);
      console.log(
        `forgot-password median, round ${n}: existing ${k.toFixed(2)} ms, made-up ${u.toFixed(2)} ms`,
      );
      return { gap: Math.abs(k - u), allowed: Math.max(2, 0.25 * Math.min(k, u)) };
    };
    // A real difference (a password hash, a mail sent inline) shows in every round; a neighbour's load
    // on a shared machine rarely twice. So up to three rounds, and the gap must close in one of them.
    let last = await round(1);
    for (let n = 2; n <= 3 && last.gap >= last.allowed; n++) last = await round(n);
    expect(last.gap).toBeLessThan(last.allowed);
  }, 240_000);
});
