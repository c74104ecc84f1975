// The bulk worker's pieces alone, without a database or a queue: a row's outcome read from its
// lookups row, a job's share of rows while people search, and the outcome writer's batching.
import { analyzePhoneLookup, mergePhoneProfile, PHONE_SOURCES } from '@footprint/domain';
import { describe, expect, it } from 'vitest';
import type { Executor } from '../../src/db/client.ts';
import {
  createOutcomeWriter,
  outcomeOf,
  type RowOutcome,
  refusalOf,
  summaryOf,
} from '../../src/modules/bulk/outcomes.ts';
import { rowsAllowed, SHARED_ROWS } from '../../src/modules/bulk/run.ts';
import type { Searches } from '../../src/modules/searches/service.ts';
import { DEMO, sandboxPayload } from '../../src/sandbox/index.ts';

const state = (over: Partial<Parameters<typeof outcomeOf>[2]> = {}) => ({
  status: 'complete' as const,
  cost: 3,
  cache_of: null,
  sources_answered: ['a'],
  result: { payloads: {}, errors: {} },
  ...over,
});

describe("a bulk row's outcome, from its lookups row", () => {
  it('takes its cost from the lookups row: a refund is failed at no cost, a free repeat is cached', () => {
    expect(outcomeOf('tel', { id: 'r' }, state())).toMatchObject({
      status: 'success',
      cost: 3,
      release: false,
    });
    expect(outcomeOf('tel', { id: 'r' }, state({ status: 'refunded' }), 'no source')).toMatchObject({
      status: 'failed',
      cost: 0,
      error: 'no source',
      summary: { name: null, emails: [], phones: [], addresses: [] },
    });
    expect(outcomeOf('email', { id: 'r' }, state({ cost: 0, cache_of: 'l1' }))).toMatchObject({
      status: 'cached',
      cost: 0,
    });
    // "No record" is refunded (the charging rule): the row cost nothing.
    expect(outcomeOf('tel', { id: 'r' }, state({ status: 'no_record' }))).toMatchObject({
      status: 'no_record',
      cost: 0,
    });
  });

  it('lets go of the reserved lookup id of a row refused before any charge', () => {
    expect(refusalOf({ id: 'r' }, 'insufficient_credits', 'short')).toMatchObject({
      status: 'insufficient_credits',
      cost: 0,
      release: true,
    });
  });
});

describe("a job's rows in flight while people search", () => {
  const deps = (people: number, rowConcurrency = 16) => ({
    rowConcurrency,
    searches: { foreground: { recent: () => people } } as unknown as Searches,
  });

  it('uses every lane when nobody searches, its share while people do, and one at least', () => {
    expect(rowsAllowed(deps(0))).toBe(16);
    expect(rowsAllowed(deps(1))).toBe(SHARED_ROWS / 2);
    expect(rowsAllowed(deps(4))).toBe(3);
    expect(rowsAllowed(deps(100))).toBe(1);
    expect(rowsAllowed(deps(1, 4))).toBe(4);
  });
});

describe("the rows' outcome writer", () => {
  const outcome = (id: string): RowOutcome => refusalOf({ id }, 'failed', null);

  /** An executor whose statements wait until released, counted. */
  function heldExecutor() {
    const pending: Array<() => void> = [];
    let failWith: unknown;
    let statements = 0;
    const db = {
      execute: () => {
        statements++;
        return new Promise<void>((resolve, reject) =>
          pending.push(() => (failWith === undefined ? resolve() : reject(failWith))),
        );
      },
    } as unknown as Executor;
    return {
      db,
      pending,
      statements: () => statements,
      fail: (error: unknown) => {
        failWith = error;
      },
      releaseAll: async () => {
        while (pending.length > 0) {
          pending.shift()!();
          await new Promise((resolve) => setImmediate(resolve));
        }
      },
    };
  }

  it('writes one statement at a time, the outcomes handed over meanwhile together in the next', async () => {
    const held = heldExecutor();
    const writer = createOutcomeWriter(held.db, 10);
    await writer.write(outcome('a'));
    await writer.write(outcome('b'));
    await writer.write(outcome('c'));
    expect(held.pending).toHaveLength(1);
    const drained = writer.drain();
    await held.releaseAll();
    await drained;
    // [a], then [b, c]: two statements for three outcomes.
    expect(held.statements()).toBe(2);
  });

  it("throws a statement's error from the next write and from drain", async () => {
    const held = heldExecutor();
    const writer = createOutcomeWriter(held.db, 10);
    held.fail(new Error('write failed'));
    await writer.write(outcome('a'));
    await held.releaseAll();
    await expect(writer.drain()).rejects.toThrow('write failed');
    await expect(writer.write(outcome('b'))).rejects.toThrow('write failed');
  });
});

describe('a results row', () => {
  it("names the merged profile's subject, as the results page does, not the first name a source gave", () => {
    const payloads: Record<string, unknown> = {};
    const errors: Record<string, string> = {};
    for (const source of PHONE_SOURCES) {
      try {
        payloads[source] = sandboxPayload(source, { kind: 'tel', value: DEMO.richPhone });
      } catch (error) {
        errors[source] = (error as Error).message;
      }
    }
    const analysis = analyzePhoneLookup({ ...payloads, errors }, {});
    const top = analysis.attributes.find((a) => a.attribute === 'Name')!.values[0]!.value;
    // The first name a source gave differs from the merged top name in the demo answer.
    expect(mergePhoneProfile({ ...payloads, errors }).names[0]?.value).not.toBe(top);
    const summary = summaryOf('tel', { payloads, errors });
    expect(summary.name).toBe(top);
    // Phones in one spelling (E.164), each once.
    expect(summary.phones.length).toBeGreaterThan(1);
    for (const phone of summary.phones) expect(phone).toMatch(/^\+\d+$/);
    expect(new Set(summary.phones).size).toBe(summary.phones.length);
  });
});
