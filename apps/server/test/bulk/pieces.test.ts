// The bulk worker's pieces alone, without a database or a queue: a row's outcome read from its
// lookups row, a job's share of rows while people search, and the outcome writer's batching.
import {
  analyzePhoneLookup,
  mergePhoneProfile,
  messages,
  PHONE_SOURCES,
  type SourceStatus,
} from '@footprint/domain';
import { describe, expect, it } from 'vitest';
import type { Executor } from '../../src/db/client.ts';
import { bulkKind, label, searchText } from '../../src/modules/approvals/read.ts';
import {
  createOutcomeWriter,
  outcomeOf,
  type RowOutcome,
  refusalOf,
  summaryOf,
} from '../../src/modules/bulk/outcomes.ts';
import { checkList, entriesOfValues } from '../../src/modules/bulk/parse.ts';
import { rowsAllowed, SHARED_ROWS } from '../../src/modules/bulk/run.ts';
import { foundNothing } from '../../src/modules/lookup/service.ts';
import type { Searches } from '../../src/modules/searches/service.ts';
import { DEMO, sandboxPayload, sitesPayload, USERNAME_DEMO } from '../../src/sandbox/index.ts';

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

describe('a username list', () => {
  it("checks each row by GET /api/username's rule, folding '@name' into 'name'", () => {
    const checked = checkList(
      'username',
      entriesOfValues([
        ' rohand90 ',
        '@rohand90',
        'two words',
        '',
        'a/b',
        'x'.repeat(65),
        'Rohand90',
        '@nobody.demo',
      ]),
    );
    const error = messages.search.invalidUsername;
    expect(checked).toEqual({
      total: 7,
      // The case is kept, as the single lookup keeps it: 'Rohand90' is its own row.
      valid: [
        { line: 1, input: 'rohand90', query: 'rohand90' },
        { line: 7, input: 'Rohand90', query: 'Rohand90' },
        { line: 8, input: '@nobody.demo', query: 'nobody.demo' },
      ],
      duplicates: 1,
      invalid: [
        { line: 3, value: 'two words', error },
        { line: 5, value: 'a/b', error },
        { line: 6, value: 'x'.repeat(65), error },
      ],
    });
  });

  it("summarises a row by the accounts its site check found, each with its site's name and profile address", () => {
    const answer = sitesPayload(USERNAME_DEMO.rich);
    const found = answer.sites.filter((site) => site.state === 'found');
    expect(found.length).toBeGreaterThan(20);
    const summary = summaryOf('username', { payloads: { sitesData: answer }, errors: {} });
    expect(summary).toEqual({
      name: null,
      emails: [],
      phones: [],
      addresses: [],
      accounts: found.map((site) => ({ site: site.name, url: site.url })),
    });
    expect(summary.accounts[0]?.url).toContain(USERNAME_DEMO.rich);
    const nowhere = summaryOf('username', { payloads: { sitesData: sitesPayload(USERNAME_DEMO.none) } });
    expect(nowhere.accounts).toEqual([]);
    // A phone row has none.
    expect(summaryOf('tel', { payloads: {}, errors: {} }).accounts).toEqual([]);
  });

  it("adds a vendor account search's accounts that name another profile", () => {
    const answer = sitesPayload(USERNAME_DEMO.rich);
    const first = answer.sites.find((site) => site.state === 'found')!;
    const vendor = {
      search_id: 's-1',
      complete: true,
      accounts: [
        // The same profile as the site check's, spelled otherwise: one account.
        { site: 'Other name', username: 'rohand90', url: `${first.url.toUpperCase()}/`, found_at: '' },
        {
          site: 'Vendor Only',
          username: 'rohand90',
          url: 'https://vendor-only.example.test/rohand90',
          found_at: '',
        },
        // No address: kept by its site's name, unless that site is listed already.
        { site: 'No Address', username: 'rohand90', url: null, found_at: '' },
        { site: first.name.toLowerCase(), username: 'rohand90', url: null, found_at: '' },
      ],
    };
    const found = answer.sites.filter((site) => site.state === 'found').length;
    const both = summaryOf('username', { payloads: { sitesData: answer, pseudonymData: vendor } }).accounts;
    expect(both).toHaveLength(found + 2);
    expect(both.slice(found)).toEqual([
      { site: 'Vendor Only', url: 'https://vendor-only.example.test/rohand90' },
      { site: 'No Address', url: '' },
    ]);
    // The vendor alone.
    expect(summaryOf('username', { payloads: { pseudonymData: vendor } }).accounts).toHaveLength(4);
  });

  it("names a held username job's request for approval as the phone and e-mail jobs' are named", () => {
    expect(bulkKind('username')).toBe('bulk:username');
    expect(label(bulkKind('username'))).toBe('Bulk username');
    expect(searchText({ kind: bulkKind('username'), queryTyped: 'handles.csv (3 rows)' })).toBe(
      'Bulk username lookup of handles.csv (3 rows)',
    );
  });

  it('judges an answer that found nothing as the lookup service does', () => {
    const ok: SourceStatus = { status: 'ok', mode: 'sandbox' };
    const none: SourceStatus = { status: 'not_found', mode: 'sandbox' };
    expect(foundNothing({}, {})).toBe(true);
    // A username found on no site: its one source answered, judged not_found.
    expect(foundNothing({ sitesData: {} }, { sitesData: none })).toBe(true);
    expect(foundNothing({ sitesData: {} }, { sitesData: ok })).toBe(false);
    expect(foundNothing({ a: {}, b: {} }, { a: none, b: ok })).toBe(false);
  });
});
