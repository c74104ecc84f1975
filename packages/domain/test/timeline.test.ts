import { describe, expect, it } from 'vitest';
import {
  caseTimeline,
  datesOf,
  displayPhone,
  isoDateOf,
  searchLabel,
  type TimelineEntry,
  type TimelineSearch,
} from '../src/index.ts';

describe('isoDateOf', () => {
  it('keeps a day, reads a date-time as UTC, and refuses what is no date', () => {
    expect(isoDateOf('2024-04-18')).toBe('2024-04-18');
    expect(isoDateOf(' 2024-04-18 ')).toBe('2024-04-18');
    expect(isoDateOf('2025-01-04 04:24:59')).toBe('2025-01-04T04:24:59.000Z');
    expect(isoDateOf('2024-06-30T16:05:44Z')).toBe('2024-06-30T16:05:44.000Z');
    expect(isoDateOf('2024-06-30T21:35:44+05:30')).toBe('2024-06-30T16:05:44.000Z');
    expect(isoDateOf('2024-06-30T16:05:44.123456Z')).toBe('2024-06-30T16:05:44.123Z');
    for (const bad of [
      '2024-02-30',
      '1800-01-01',
      '1800-01-01T00:00:00Z',
      '18-04-2024',
      '2024-04',
      'soon',
      '',
      20240418,
      null,
    ]) {
      expect(isoDateOf(bad), String(bad)).toBeNull();
    }
  });
});

describe('datesOf', () => {
  it('reads the breaches, the last-updated entries and the dated fields of an e-mail lookup', () => {
    const result = {
      payloads: {
        hibpData: [
          {
            Name: 'CricketKhel',
            Title: 'Cricket Khel',
            BreachDate: '2024-04-18',
            AddedDate: '2024-06-30T16:05:44Z',
          },
          { Name: 'Nodate', Title: 'No Date', BreachDate: 'unknown' },
        ],
        emailData: {
          PROFILE_CONTAINER: { profile: { sourceIds: { lastUpdated: '2025-01-01T09:54:52.000Z' } } },
          maps_result: {
            reviews: [{ place_name: 'Annapurna Pure Veg', published_at: '2024-10-06T07:05:52.000Z' }],
          },
        },
        osintData: {
          data: [
            { name: 'Rohan Ji', source: 'Orbitly 2019', last_seen: '2021-04-03', dob: '1990-04-17' },
            { name: 'Rohan Ji', registered_on: '2021-11-04 16:59:46' },
          ],
        },
      },
      errors: {},
    };
    expect(datesOf('email', result)).toEqual([
      { at: '2024-04-18', label: 'Breach of Cricket Khel', source: 'Breach Data' },
      { at: '2025-01-01T09:54:52.000Z', label: 'Last updated', source: 'Account Provider' },
      {
        at: '2024-10-06T07:05:52.000Z',
        label: 'Published at — Annapurna Pure Veg',
        source: 'Account Provider',
      },
      { at: '2021-04-03', label: 'Last seen — Rohan Ji', source: 'OSINT' },
      { at: '2021-11-04T16:59:46.000Z', label: 'Registered on — Rohan Ji', source: 'OSINT' },
    ]);
  });

  it("reads the ISP's time (also as a JSON string) once, as last updated, and the reported dates of a phone lookup", () => {
    const hlr = { msisdn: '919876543210', timestamp: '2026-10-01T06:26:08.000Z' };
    const result = {
      payloads: {
        hlrData: JSON.stringify(hlr),
        sKData: {
          data: {
            details: {
              phone_info: [{ number: '9876543210', reported_date: '2023-07-16' }],
              address_info: [{ address: 'HOUSE NO 42 LANE 7 KOTHRUD PUNE', reported_date: '2019-06-11' }],
              personal_info: { dob: '1990-04-17' },
            },
          },
        },
      },
      errors: {},
    };
    expect(datesOf('tel', result)).toEqual([
      { at: '2026-10-01T06:26:08.000Z', label: 'Last updated', source: 'ISP Response' },
      { at: '2023-07-16', label: 'Reported date — 9876543210', source: 'Gov identity records' },
      {
        at: '2019-06-11',
        label: 'Reported date — HOUSE NO 42 LANE 7 KOTHRUD PUNE',
        source: 'Gov identity records',
      },
    ]);
  });

  it("reads each leak record's breach date once per breach", () => {
    const record = (name: string, breach_date: string | null) => ({
      source: { name, breach_date, description: null },
      name: 'Rohan',
    });
    expect(
      datesOf('leak', {
        data: [
          record('Orbitly 2019', '2019-03-14'),
          record('Orbitly 2019', '2019-03-14'),
          record('Undated', null),
        ],
      }),
    ).toEqual([{ at: '2019-03-14', label: 'Breach of Orbitly 2019', source: 'Orbitly 2019' }]);
  });

  it('reads the dated fields of detail and intel answers under the kind', () => {
    const rc = {
      payloads: {
        rc: {
          data: {
            client_id: 'rc_2020-01-01',
            rc_number: 'MH12FP1234',
            registration_date: '2016-05-20',
            fit_up_to: '2031-05-19',
            challan_details: [{ challan_number: 'MH1', challan_date: '2024-03-05 14:30:00' }],
          },
        },
      },
      errors: {},
    };
    expect(datesOf('rc', rc)).toEqual([
      { at: '2016-05-20', label: 'Registration date — MH12FP1234', source: 'rc' },
      { at: '2024-03-05T14:30:00.000Z', label: 'Challan date — MH1', source: 'rc' },
    ]);
    const employment = {
      payloads: {
        'corporate:employment_history': {
          data: {
            employment_history: [
              { establishment_name: 'Nimbuslane', date_of_joining: '2019-07-01', date_of_exit: '1800-01-01' },
            ],
          },
        },
      },
    };
    expect(datesOf('corporate:employment_history', employment)).toEqual([
      { at: '2019-07-01', label: 'Date of joining', source: 'corporate:employment_history' },
    ]);
  });

  it('reads nothing out of shapes it does not know, and at most 200 dates from one result', () => {
    expect(datesOf('tel', null)).toEqual([]);
    expect(datesOf('tel', { payloads: 'x' })).toEqual([]);
    expect(datesOf('leak', { data: [null, 1, { source: 'x' }] })).toEqual([]);
    const many = Array.from({ length: 500 }, (_, i) => ({ name: `n${i}`, last_seen: '2020-01-01' }));
    expect(datesOf('tel', { payloads: { osintData: { data: many } } })).toHaveLength(200);
  });
});

describe('the searches and the case timeline', () => {
  const by = { name: 'Asha Rao', email: 'asha@example.test' };
  const search = (over: Partial<TimelineSearch>): TimelineSearch => ({
    lookup_id: 'l1',
    kind: 'tel',
    query: '919876543210',
    query_typed: '9876543210',
    created_at: '2026-11-20T10:00:00.000Z',
    user: by,
    ...over,
  });

  it('names each search with what was searched and who ran it', () => {
    expect(displayPhone('919876543210')).toBe('+91 98765 43210');
    expect(searchLabel(search({}))).toBe('Phone lookup of +91 98765 43210 by Asha Rao');
    expect(searchLabel(search({ kind: 'email', query: 'rich.demo@example.test' }))).toBe(
      'E-mail lookup of rich.demo@example.test by Asha Rao',
    );
    expect(searchLabel(search({ kind: 'leak', query_typed: 'Name: Rohan Deshmukh' }))).toBe(
      'Leak Data Finder search for Name: Rohan Deshmukh by Asha Rao',
    );
    expect(searchLabel(search({ kind: 'rc', query: 'MH12FP1234' }))).toBe(
      'RC lookup of MH12FP1234 by Asha Rao',
    );
    expect(
      searchLabel(search({ kind: 'corporate:corporate_gstin', query_typed: 'GSTIN: 27AADCN4821K1ZC' })),
    ).toBe('Corporate search (GSTIN: 27AADCN4821K1ZC) by Asha Rao');
    expect(searchLabel(search({ user: { name: '', email: 'x@example.test' } }))).toBe(
      'Phone lookup of +91 98765 43210 by x@example.test',
    );
  });

  it('sorts oldest first, keeps each fact once (under the first search), and past the cap keeps every search and the latest facts', () => {
    const searches = [
      search({ lookup_id: 'a' }),
      search({ lookup_id: 'b', created_at: '2026-11-21T10:00:00Z' }),
    ];
    const fact = (at: string, lookup_id: string, label = `Fact ${at}`): TimelineEntry => ({
      at,
      label,
      source: 'OSINT',
      lookup_id,
    });
    const timeline = caseTimeline(searches, [
      fact('2021-01-01', 'b', 'Same'),
      fact('2021-01-01', 'a', 'Same'),
      fact('2019-06-11', 'a'),
      fact('2026-11-20', 'b'),
    ]);
    expect(timeline).toEqual([
      fact('2019-06-11', 'a'),
      fact('2021-01-01', 'a', 'Same'),
      fact('2026-11-20', 'b'),
      {
        at: '2026-11-20T10:00:00.000Z',
        label: 'Phone lookup of +91 98765 43210 by Asha Rao',
        source: 'Footprint',
        lookup_id: 'a',
      },
      {
        at: '2026-11-21T10:00:00.000Z',
        label: 'Phone lookup of +91 98765 43210 by Asha Rao',
        source: 'Footprint',
        lookup_id: 'b',
      },
    ]);
    const capped = caseTimeline(
      searches,
      [fact('2019-01-01', 'a'), fact('2020-01-01', 'a'), fact('2021-01-01', 'a')],
      4,
    );
    expect(capped.map((e) => e.at)).toEqual([
      '2020-01-01',
      '2021-01-01',
      '2026-11-20T10:00:00.000Z',
      '2026-11-21T10:00:00.000Z',
    ]);
  });
});
