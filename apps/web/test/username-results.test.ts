import type { AnsweredSite, HistoryDetail, SiteCheckAnswer } from '@footprint/domain';
import { describe, expect, it } from 'vitest';
import { resultsStateOf } from '../src/features/history/reopen.ts';
import { readResultsState } from '../src/features/results/index.ts';
import { atName, byReason, countsOf, siteCheckOf, siteMatches } from '../src/features/results/username.ts';
import { usernameOf } from '../src/features/search/api/lookupUsername.ts';

const site = (patch: Partial<AnsweredSite>): AnsweredSite => ({
  site: 'github',
  name: 'GitHub',
  category: 'coding',
  india: false,
  state: 'found',
  url: 'https://github.com/rohand90',
  checked_at: '2025-03-14T10:32:04Z',
  ...patch,
});

const check: SiteCheckAnswer = {
  username: 'rohand90',
  catalogue: { sites: 10, scope: 10 },
  counts: { found: 1, not_found: 5, blocked: 2, error: 1, not_checked: 1 },
  sites: [
    site({}),
    site({ site: 'x', name: 'X', state: 'blocked', reason: 'captcha page', category: 'social' }),
    site({ site: 'sharechat', name: 'ShareChat', state: 'blocked', reason: 'captcha page', india: true }),
    site({ site: 'y', name: 'Y', state: 'error', reason: 'HTTP 503' }),
    site({ site: 'z', name: 'Z', state: 'not_checked' }),
  ],
  not_found: ['a', 'b', 'c', 'd', 'e'],
  started_at: '2025-03-14T10:32:00Z',
  finished_at: '2025-03-14T10:32:20Z',
};

describe('the username search and its results', () => {
  it('searches the name as typed, trimmed and without a leading @', () => {
    expect(usernameOf('  @rohand90 ')).toBe('rohand90');
    expect(usernameOf('Rohan.D')).toBe('Rohan.D');
    expect(atName('rohand90')).toBe('@rohand90');
    expect(atName('@rohand90')).toBe('@rohand90');
  });

  it('reads a username state handed to /results, and refuses one without results', () => {
    const results = { sitesData: check, credits: 9, lookup_id: 'l1' };
    expect(
      readResultsState({ type: 'username', userInput: '@rohand90', results, caseReference: ' FIR 7 ' }),
    ).toEqual({
      type: 'username',
      userInput: 'rohand90',
      results: { ...results, errors: {} },
      caseReference: 'FIR 7',
    });
    expect(readResultsState({ type: 'username', userInput: 'rohand90' })).toBeNull();
  });

  it('reopens a stored username lookup, flat like the phone answer, marked cached', () => {
    const detail: HistoryDetail = {
      id: 'lookup-9',
      kind: 'username',
      query: 'rohand90',
      query_typed: '@rohand90',
      status: 'complete',
      case_reference: 'FIR 7',
      created_at: '2025-03-14T10:32:00Z',
      cost: 1,
      cached: false,
      sandbox: true,
      result: { sitesData: check, errors: {} },
    };
    expect(resultsStateOf(detail)).toEqual({
      type: 'username',
      userInput: 'rohand90',
      results: { sitesData: check, errors: {}, lookup_id: 'lookup-9', cached: true, sandbox: true },
      caseReference: 'FIR 7',
    });
  });

  it('reads the site check only when it is one, and counts every state', () => {
    expect(siteCheckOf({ sitesData: check, errors: {}, credits: 1 })).toBe(check);
    expect(siteCheckOf({ errors: { sitesData: 'timed out' }, credits: 1 })).toBeNull();
    const partial = { ...check, counts: { found: 2 } as SiteCheckAnswer['counts'] };
    expect(countsOf(partial)).toEqual({ found: 2, not_found: 0, blocked: 0, error: 0, not_checked: 0 });
  });

  it('groups the sites that could not say by reason, the most common first', () => {
    const unasked = check.sites.filter((s) => s.state !== 'found');
    expect(byReason(unasked, 'No reason given').map((g) => [g.reason, g.sites.map((s) => s.name)])).toEqual([
      ['captcha page', ['X', 'ShareChat']],
      ['HTTP 503', ['Y']],
      ['No reason given', ['Z']],
    ]);
  });

  it('filters sites by name, category, address, reason and the India mark', () => {
    const [github, x, sharechat] = check.sites as [AnsweredSite, AnsweredSite, AnsweredSite];
    expect(siteMatches(github, '')).toBe(true);
    expect(siteMatches(github, 'coding')).toBe(true);
    expect(siteMatches(github, 'github.com/rohand90')).toBe(true);
    expect(siteMatches(x, 'captcha')).toBe(true);
    expect(siteMatches(sharechat, 'india')).toBe(true);
    expect(siteMatches(x, 'india')).toBe(false);
  });
});
