import { describe, expect, it } from 'vitest';
import {
  diffSnapshots,
  hasChanges,
  leakSnapshot,
  lookupSnapshot,
  nextRunAfter,
  readSnapshot,
  type WatchSnapshot,
} from '../src/index.ts';

const ok = { status: 'ok', mode: 'sandbox' };
const notFound = { status: 'not_found', mode: 'sandbox' };
const failed = { status: 'failed', mode: 'sandbox' };

/** A phone lookup as the lookup service stores it: WhatsApp's name, Caller ID's name. */
const phone = (opts: { wp?: string; tc?: string; tcStatus?: object }) =>
  lookupSnapshot('tel', {
    payloads: {
      ...(opts.wp ? { wpData: { pushname: opts.wp, isUser: true } } : {}),
      ...(opts.tc ? { tcData: { data: { basicInfo: { name: { fullName: opts.tc } } } } } : {}),
    },
    errors: {},
    status: { wpData: opts.wp ? ok : notFound, tcData: opts.tcStatus ?? (opts.tc ? ok : notFound) },
  });

const email = (breaches: string[], hibp = ok) =>
  lookupSnapshot('email', {
    payloads: hibp === ok ? { hibpData: breaches.map((Name) => ({ Name, BreachDate: '2020-01-02' })) } : {},
    errors: {},
    status: { hibpData: hibp },
  });

const record = (id: string, source: string, name: string) => ({
  id,
  source: { name: source, breach_date: '2019-05-06', description: null },
  name,
  email: null,
  phone: null,
  username: null,
  address: null,
});
const leak = (records: ReturnType<typeof record>[], total = records.length, localStatus = 'ok') =>
  leakSnapshot({ data: records, total, origin_status: [{ name: 'Local index', status: localStatus }] });

describe('watch snapshots', () => {
  it('keep the names a phone lookup found, with the sources that gave them and the sources that answered', () => {
    const snapshot = phone({ wp: 'Asha Verma', tc: 'Asha Verma' });
    const name = snapshot.facts.find((fact) => fact.type === 'name');
    expect(name).toMatchObject({ value: 'Asha Verma' });
    expect(name?.sources.sort()).toEqual(['tcData', 'wpData']);
    expect(snapshot.answered).toEqual(['tcData', 'wpData']);
    expect(
      snapshot.facts
        .filter((fact) => fact.type === 'source')
        .map((fact) => fact.value)
        .sort(),
    ).toEqual(['tcData', 'wpData']);
  });

  it('keep the breaches of an e-mail lookup', () => {
    const breaches = email(['Orbitly', 'Quillnest']).facts.filter((fact) => fact.type === 'breach');
    expect(breaches.map((fact) => fact.label)).toEqual(['Orbitly (2020-01-02)', 'Quillnest (2020-01-02)']);
  });

  it('keep the records of a leak search by id, named by their breach, and the total', () => {
    const snapshot = leak([record('r1', 'Breach A', 'Asha Verma')], 7);
    expect(snapshot.total).toBe(7);
    expect(snapshot.partial).toBe(true);
    expect(snapshot.facts).toEqual(
      expect.arrayContaining([
        { type: 'record', value: 'r1', label: 'Breach A (2019-05-06)', sources: ['Local index'] },
        { type: 'breach', value: 'Breach A', label: 'Breach A (2019-05-06)', sources: ['Local index'] },
        { type: 'name', value: 'Asha Verma', sources: ['Local index'] },
      ]),
    );
  });

  it('read back from JSON, and refuse what is not one', () => {
    const snapshot = leak([record('r1', 'Breach A', 'Asha Verma')], 3);
    expect(readSnapshot(JSON.parse(JSON.stringify(snapshot)))).toEqual(snapshot);
    expect(readSnapshot(null)).toBeNull();
    expect(readSnapshot({ facts: 'x' })).toBeNull();
    expect(readSnapshot({ facts: [{ type: 'nope', value: 'x', sources: [] }], answered: [] })?.facts).toEqual(
      [],
    );
  });
});

describe('diffSnapshots', () => {
  it('finds nothing between two identical answers', () => {
    const changes = diffSnapshots(phone({ wp: 'Asha Verma' }), phone({ wp: 'Asha Verma' }));
    expect(changes).toEqual({ items: [] });
    expect(hasChanges(changes)).toBe(false);
  });

  it('ignores case and spacing of names', () => {
    expect(diffSnapshots(phone({ wp: 'Asha Verma' }), phone({ wp: 'asha  VERMA' })).items).toEqual([]);
  });

  it('reports a new name and the one gone when the same source answered again', () => {
    const changes = diffSnapshots(phone({ wp: 'Asha Verma' }), phone({ wp: 'Ravi Kumar' }));
    expect(changes.items).toEqual([
      { change: 'added', type: 'name', value: 'Ravi Kumar' },
      { change: 'removed', type: 'name', value: 'Asha Verma' },
    ]);
    expect(hasChanges(changes)).toBe(true);
  });

  it('does not call a fact gone when the source that gave it failed this time', () => {
    const before = phone({ wp: 'Asha Verma', tc: 'Ravi Kumar' });
    const after = phone({ wp: 'Asha Verma', tcStatus: failed });
    expect(diffSnapshots(before, after).items).toEqual([]);
  });

  it('reports a source that now finds a record, and one that found one and now finds none', () => {
    const changes = diffSnapshots(phone({ wp: 'Asha Verma' }), phone({ tc: 'Asha Verma' }));
    expect(changes.items).toEqual([
      { change: 'added', type: 'source', value: 'tcData', label: expect.any(String) },
      { change: 'removed', type: 'source', value: 'wpData', label: expect.any(String) },
    ]);
  });

  it('reports a new breach', () => {
    expect(diffSnapshots(email(['Orbitly']), email(['Orbitly', 'Quillnest'])).items).toEqual([
      { change: 'added', type: 'breach', value: 'Quillnest', label: 'Quillnest (2020-01-02)' },
    ]);
  });

  it('keeps breaches when the breach source failed', () => {
    expect(diffSnapshots(email(['Orbitly']), email([], failed)).items).toEqual([]);
  });

  it('reports a new leak record, a record gone, and the total moving', () => {
    const before = leak([record('r1', 'Breach A', 'Asha Verma'), record('r2', 'Breach B', 'Asha Verma')], 2);
    const after = leak([record('r1', 'Breach A', 'Asha Verma'), record('r3', 'Breach C', 'Asha Verma')], 2);
    expect(diffSnapshots(before, after)).toEqual({
      items: [
        { change: 'added', type: 'breach', value: 'Breach C', label: 'Breach C (2019-05-06)' },
        { change: 'removed', type: 'breach', value: 'Breach B', label: 'Breach B (2019-05-06)' },
        { change: 'added', type: 'record', value: 'r3', label: 'Breach C (2019-05-06)' },
        { change: 'removed', type: 'record', value: 'r2', label: 'Breach B (2019-05-06)' },
      ],
    });
    // The local index failed this time: nothing is called gone.
    expect(diffSnapshots(before, leak([record('r1', 'Breach A', 'Asha Verma')], 1, 'failed')).items).toEqual(
      [],
    );
    const grown = diffSnapshots(leak([], 10), leak([], 12));
    expect(grown).toEqual({ items: [], total: { before: 10, after: 12 } });
    expect(hasChanges(grown)).toBe(true);
  });

  it('reports only the total when the listing was partial (a record off the list is not gone)', () => {
    const before = leak([record('r1', 'Breach A', 'Asha Verma'), record('r2', 'Breach B', 'Asha Verma')], 2);
    const after = leak([record('r3', 'Breach C', 'Asha Verma'), record('r1', 'Breach A', 'Asha Verma')], 3);
    expect(diffSnapshots(before, after)).toEqual({
      items: [
        { change: 'added', type: 'breach', value: 'Breach C', label: 'Breach C (2019-05-06)' },
        { change: 'added', type: 'record', value: 'r3', label: 'Breach C (2019-05-06)' },
      ],
      total: { before: 2, after: 3 },
    });
    // From a partial listing, a record newly listed may have been there unlisted: only the total.
    expect(diffSnapshots(after, leak([record('r4', 'Breach D', 'Asha Verma')], 4))).toEqual({
      items: [],
      total: { before: 3, after: 4 },
    });
  });

  it('treats a first snapshot without a total as no total change', () => {
    const withoutTotal: WatchSnapshot = { facts: [], answered: [] };
    expect(diffSnapshots(withoutTotal, leak([], 4))).toEqual({ items: [] });
  });
});

describe('nextRunAfter', () => {
  it('is a day or a week later', () => {
    const from = new Date('2026-01-01T10:00:00Z');
    expect(nextRunAfter(from, 'daily').toISOString()).toBe('2026-01-02T10:00:00.000Z');
    expect(nextRunAfter(from, 'weekly').toISOString()).toBe('2026-01-08T10:00:00.000Z');
  });
});
