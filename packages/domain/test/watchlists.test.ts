import { describe, expect, it } from 'vitest';
import {
  diffSnapshots,
  hasChanges,
  keptSnapshot,
  leakSnapshot,
  lookupSnapshot,
  MAX_WATCH_FACTS,
  nextRunAfter,
  readSnapshot,
  type SiteState,
  siteSourceOf,
  USERNAME_SNAPSHOT_BASIS,
  usernameSnapshot,
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

/**
 * A username lookup as the lookup service stores it: the site check's answer, each site in a state.
 * Sites that said no are listed by id only, as the site check lists them.
 */
const SITE_NAMES: Record<string, string> = { github: 'GitHub', gitlab: 'GitLab', reddit: 'Reddit', x: 'X' };
const username = (states: Record<string, SiteState>, vendorSites?: string[]) => {
  const lines = Object.entries(states).filter(([, state]) => state !== 'not_found');
  const counts = { found: 0, not_found: 0, blocked: 0, error: 0, not_checked: 0 };
  for (const state of Object.values(states)) counts[state] += 1;
  return usernameSnapshot({
    payloads: {
      sitesData: {
        username: 'asha.demo',
        catalogue: { sites: 4, scope: 4 },
        counts,
        sites: lines.map(([site, state]) => ({
          site,
          state,
          name: SITE_NAMES[site] ?? site,
          url: `https://${site}.example/asha.demo`,
          checked_at: '2026-01-01T00:00:00.000Z',
          category: 'social',
          india: false,
          ...(state === 'found' ? {} : { reason: 'HTTP 429' }),
        })),
        not_found: Object.entries(states)
          .filter(([, state]) => state === 'not_found')
          .map(([site]) => site),
        started_at: '2026-01-01T00:00:00.000Z',
        finished_at: '2026-01-01T00:00:01.000Z',
      },
      // The vendor's account search, when it answered: the sites it names an account on.
      ...(vendorSites
        ? {
            pseudonymData: {
              search_id: 's1',
              complete: true,
              accounts: vendorSites.map((site) => ({
                site,
                username: 'asha.demo',
                url: null,
                found_at: '2026-01-01T00:00:00.000Z',
              })),
            },
          }
        : {}),
    },
    errors: {},
    status: { sitesData: ok, ...(vendorSites ? { pseudonymData: vendorSites.length ? ok : notFound } : {}) },
  });
};

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

  it('keep one account per site a username was found on, named by the site, and only the sites that said yes or no as answered', () => {
    const snapshot = username({ github: 'found', gitlab: 'not_found', reddit: 'blocked', x: 'error' });
    expect(snapshot.facts).toEqual([
      { type: 'account', value: 'github', label: 'GitHub', sources: [siteSourceOf('github')] },
    ]);
    expect(snapshot.answered).toEqual([siteSourceOf('github'), siteSourceOf('gitlab')]);
    expect(snapshot.basis).toBe(USERNAME_SNAPSHOT_BASIS);
    // The lookup dispatch reads a username's result the same way.
    expect(
      lookupSnapshot('username', {
        payloads: { sitesData: { username: 'x', counts: {}, sites: [], not_found: ['github'] } },
        errors: {},
      }),
    ).toEqual({ facts: [], answered: [siteSourceOf('github')], basis: USERNAME_SNAPSHOT_BASIS });
    // No readable site check (it failed): nothing found, nothing answered.
    expect(usernameSnapshot({ payloads: {}, errors: { sitesData: 'down' } })).toEqual({
      facts: [],
      answered: [],
      basis: USERNAME_SNAPSHOT_BASIS,
    });
    expect(readSnapshot(JSON.parse(JSON.stringify(snapshot)))).toEqual(snapshot);
  });

  it('do not count as answered a found site whose account is past the limit of facts', () => {
    const many = Object.fromEntries(
      Array.from({ length: MAX_WATCH_FACTS + 5 }, (_, i) => [`site${i}`, 'found' as const]),
    );
    const snapshot = username(many);
    expect(snapshot.facts).toHaveLength(MAX_WATCH_FACTS);
    expect(snapshot.answered).toHaveLength(MAX_WATCH_FACTS);
    expect(snapshot.answered).not.toContain(siteSourceOf(`site${MAX_WATCH_FACTS}`));
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

  it("reports a username's new account by its site's name", () => {
    const before = username({ github: 'found', gitlab: 'not_found', reddit: 'not_found' });
    const after = username({ github: 'found', gitlab: 'found', reddit: 'not_found' });
    const changes = diffSnapshots(before, after);
    expect(changes).toEqual({
      items: [{ change: 'added', type: 'account', value: 'gitlab', label: 'GitLab' }],
    });
    expect(hasChanges(changes)).toBe(true);
    expect(diffSnapshots(after, after)).toEqual({ items: [] });
  });

  it('reports an account gone when its site now says there is none', () => {
    const before = username({ github: 'found', gitlab: 'found' });
    const after = username({ github: 'found', gitlab: 'not_found' });
    expect(diffSnapshots(before, after).items).toEqual([
      { change: 'removed', type: 'account', value: 'gitlab', label: 'GitLab' },
    ]);
  });

  it('does not call an account gone when its site was blocked, failed or not checked this run', () => {
    const before = username({ github: 'found', gitlab: 'found', reddit: 'found', x: 'not_found' });
    for (const state of ['blocked', 'error', 'not_checked'] as const) {
      const after = username({ github: 'found', gitlab: state, reddit: 'found', x: 'not_found' });
      expect(diffSnapshots(before, after).items, state).toEqual([]);
    }
    // The whole site check failed: nothing is called gone either.
    const failedCheck = usernameSnapshot({ payloads: {}, errors: { sitesData: 'down' } });
    expect(diffSnapshots(before, failedCheck).items).toEqual([]);
    // Blocked this run, then saying no the next: gone then, not before.
    const blocked = username({ github: 'found', gitlab: 'blocked', reddit: 'found', x: 'not_found' });
    const gone = username({ github: 'found', gitlab: 'not_found', reddit: 'found', x: 'not_found' });
    expect(diffSnapshots(before, blocked).items).toEqual([]);
    expect(diffSnapshots(blocked, gone).items).toEqual([]);
    expect(diffSnapshots(before, gone).items).toEqual([
      { change: 'removed', type: 'account', value: 'gitlab', label: 'GitLab' },
    ]);
  });

  it("keeps a blocked site's account for the next run, so its return is not news and its absence later is", () => {
    const before = username({ github: 'found', gitlab: 'found', x: 'not_found' });
    const blocked = username({ github: 'found', gitlab: 'blocked', x: 'not_found' });
    const kept = keptSnapshot(before, blocked);
    expect(kept.facts.map((fact) => fact.value).sort()).toEqual(['github', 'gitlab']);
    expect(kept.answered).toEqual(blocked.answered);
    // Found again on the next run: nothing new.
    expect(diffSnapshots(kept, username({ github: 'found', gitlab: 'found', x: 'not_found' })).items).toEqual(
      [],
    );
    // Saying no on the next run: gone then.
    expect(
      diffSnapshots(kept, username({ github: 'found', gitlab: 'not_found', x: 'not_found' })).items,
    ).toEqual([{ change: 'removed', type: 'account', value: 'gitlab', label: 'GitLab' }]);
    // An account its site said no to is not kept; a first run and other kinds keep their own snapshot.
    const gone = username({ github: 'found', gitlab: 'not_found', x: 'not_found' });
    expect(keptSnapshot(before, gone)).toEqual(gone);
    expect(keptSnapshot(null, blocked)).toEqual(blocked);
    const tel = phone({ wp: 'Asha Verma', tcStatus: failed });
    expect(keptSnapshot(phone({ wp: 'Asha Verma', tc: 'Ravi Kumar' }), tel)).toEqual(tel);
  });

  it("matches a vendor's account with the site check's by the site, and calls it gone only when its site says no", () => {
    const before = username({ github: 'found', gitlab: 'not_found', reddit: 'blocked' }, [
      'GitHub',
      'Reddit',
      'Orbitly Social',
    ]);
    expect(before.facts).toEqual([
      {
        type: 'account',
        value: 'github',
        label: 'GitHub',
        sources: [siteSourceOf('github'), 'pseudonymData'],
      },
      {
        type: 'account',
        value: 'reddit',
        label: 'Reddit',
        sources: [siteSourceOf('reddit'), 'pseudonymData'],
      },
      {
        type: 'account',
        value: 'orbitly-social',
        label: 'Orbitly Social',
        sources: [siteSourceOf('orbitly-social'), 'pseudonymData'],
      },
    ]);
    // The vendor answers for no site: only the site check's yes and no count.
    expect(before.answered).toEqual([siteSourceOf('github'), siteSourceOf('gitlab')]);
    // The vendor no longer names them: the site the check cannot reach keeps its account, so does the
    // site outside the catalogue; the one whose site now says no is gone.
    const after = username({ github: 'found', gitlab: 'not_found', reddit: 'not_found' }, []);
    expect(diffSnapshots(before, after).items).toEqual([
      { change: 'removed', type: 'account', value: 'reddit', label: 'Reddit' },
    ]);
    // A vendor's new account reads by the name the vendor gives it.
    expect(diffSnapshots(after, username({ github: 'found' }, ['Ask Fedora'])).items).toEqual([
      { change: 'added', type: 'account', value: 'ask-fedora', label: 'Ask Fedora' },
    ]);
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
