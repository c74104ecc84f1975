// The checker's politeness, measured at the fake sites themselves: one request at a time per site and a
// least interval between two starts, across concurrent lookups sharing one fetcher; and a cap on the
// requests in flight over all sites.
import type { CatalogueSite } from '@footprint/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSiteFetcher } from '../../../src/providers/sites/fetcher.ts';
import { checkUsername } from '../../../src/providers/sites/run.ts';
import { type Arrival, type FakeSites, startFakeSites } from './fake-sites.ts';

let fake: FakeSites;

beforeAll(async () => {
  fake = await startFakeSites();
});

afterAll(async () => {
  await fake.close();
});

const fetcherFor = (minIntervalMs: number, maxInFlight: number) =>
  createSiteFetcher({
    userAgent: 'FootprintSiteCheck/1.0 (+https://footprint.test/bot)',
    allowAddresses: [`127.0.0.1:${fake.port}`],
    timeoutMs: 5000,
    minIntervalMs,
    maxInFlight,
  });

/** A site of the shared `/<path>/` route, told apart by its `site` query parameter. */
const sharedSite = (path: 'polite' | 'cap', name: string, ms: number): CatalogueSite =>
  fake.site(`${path}-${name}`, 'status_code', {
    url: `${fake.origin}/${path}/{username}?site=${name}&ms=${ms}`,
  });

const arrivalsOf = (path: string, name: string, after: number): Arrival[] =>
  fake
    .hits(path)
    .filter((arrival) => arrival.site === name && arrival.at >= after)
    .sort((a, b) => a.at - b.at);

/** The most requests of one list that were at the fake at once. */
const peakOverlap = (arrivals: Arrival[]): number =>
  Math.max(
    0,
    ...arrivals.map(
      (one) => arrivals.filter((other) => other.at <= one.at && (other.endedAt ?? Infinity) > one.at).length,
    ),
  );

describe('politeness', () => {
  it('asks one site one request at a time, the starts at least the interval apart, across concurrent lookups', async () => {
    const interval = 300;
    const fetcher = fetcherFor(interval, 16);
    const sites = [sharedSite('polite', 'a', 60), sharedSite('polite', 'b', 60)];
    const after = performance.now();
    const lookups = await Promise.all(
      ['alice', 'bob', 'carol'].map((name) => checkUsername(name, sites, { fetcher })),
    );
    expect(lookups.flat().map((line) => line.state)).toEqual(Array(6).fill('found'));
    for (const name of ['a', 'b']) {
      const arrivals = arrivalsOf('polite', name, after);
      expect(arrivals, name).toHaveLength(3);
      expect(peakOverlap(arrivals), name).toBe(1);
      for (let i = 1; i < arrivals.length; i++) {
        const previous = arrivals[i - 1] as Arrival;
        const current = arrivals[i] as Arrival;
        // The previous answer had ended before the next request came...
        expect(current.at, `${name} #${i}`).toBeGreaterThanOrEqual(previous.endedAt ?? Infinity);
        // ...and the next came at least the interval after the previous start (less the jitter of a
        // loaded machine, where the fake and the checker share one event loop; without the interval
        // the gap is the fake's 60 ms answer).
        expect(current.at - previous.at, `${name} #${i}`).toBeGreaterThanOrEqual(interval - 60);
      }
    }
    // The two sites were not made to wait for each other: b's first request came before a's second.
    const [a0, a1] = arrivalsOf('polite', 'a', after);
    const [b0] = arrivalsOf('polite', 'b', after);
    expect(Math.abs((b0?.at ?? Infinity) - (a0?.at ?? 0))).toBeLessThan(interval / 2);
    expect(b0?.at).toBeLessThan(a1?.at ?? 0);
  });

  it('keeps at most maxInFlight requests in flight over all sites', async () => {
    const sites = Array.from({ length: 8 }, (_, i) => sharedSite('cap', `s${i}`, 120));
    const run = async (maxInFlight: number) => {
      const fetcher = fetcherFor(0, maxInFlight);
      const after = performance.now();
      const lookups = await Promise.all(
        ['alice', 'bob'].map((name) => checkUsername(name, sites, { fetcher })),
      );
      expect(lookups.flat().every((line) => line.state === 'found')).toBe(true);
      const arrivals = fake.hits('cap').filter((arrival) => arrival.at >= after);
      expect(arrivals).toHaveLength(16);
      for (let i = 0; i < 8; i++) expect(peakOverlap(arrivalsOf('cap', `s${i}`, after))).toBe(1);
      return peakOverlap(arrivals);
    };
    expect(await run(3)).toBe(3);
    // The same lookups without a tight cap: eight sites at once (one request each at a time).
    expect(await run(16)).toBe(8);
    expect(fake.peakOf('cap')).toBe(8);
  });
});
