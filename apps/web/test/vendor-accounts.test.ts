// The username results page with a vendor's account search (pseudonymData): its accounts listed and
// attributed to the vendor, alone (the site check off) or beside the site check; rendered to static
// markup inside the providers the page reads.
import {
  messages,
  type SiteCheckAnswer,
  SOURCE_LABELS,
  type UsernameLookupResponse,
} from '@footprint/domain';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { UsernameResults } from '../src/features/results/components/UsernameResults.tsx';
import { VendorAccounts } from '../src/features/results/components/VendorAccounts.tsx';
import { vendorAccountsOf } from '../src/features/results/vendorAccounts.ts';
import { AuthContext, type AuthContextValue } from '../src/lib/auth-context.ts';

const t = messages.usernameResults;

const auth = {
  user: null,
  loading: false,
  setUser: () => {},
  mergeUser: () => {},
  refetch: async () => null,
  login: async () => {
    throw new Error('not in this test');
  },
  logout: async () => {},
} satisfies AuthContextValue;

const github = {
  site: 'GitHub',
  username: 'asha_rao',
  url: 'https://github.example.test/asha_rao',
  found_at: '2026-06-23T14:10:03.000Z',
};

const search = (patch: Record<string, unknown> = {}) => ({
  search_id: 's-1',
  complete: true,
  accounts: [github, { site: 'Forum', username: null, url: null, found_at: '2026-06-23T14:10:04.000Z' }],
  ...patch,
});

/** A username answer: the site check's status and payload as given, the vendor's as given. */
function answer(
  parts: { sitesData?: SiteCheckAnswer; pseudonymData?: unknown; vendor?: string | null } = {},
): UsernameLookupResponse {
  const { sitesData, pseudonymData, vendor = 'osint.ly' } = parts;
  return {
    ...(sitesData ? { sitesData } : {}),
    ...(pseudonymData !== undefined ? { pseudonymData } : {}),
    errors: {},
    credits: 7,
    lookup_id: 'l-1',
    cached: false,
    sandbox: false,
    source_status: {
      sitesData: sitesData
        ? { status: 'not_found', mode: 'live', vendor: 'Site check' }
        : { status: 'not_configured', mode: 'not_configured' },
      pseudonymData:
        pseudonymData === undefined
          ? { status: 'not_found', mode: 'live', ...(vendor ? { vendor } : {}) }
          : { status: 'ok', mode: 'live', ...(vendor ? { vendor } : {}) },
    },
  } as unknown as UsernameLookupResponse;
}

const nowhere: SiteCheckAnswer = {
  username: 'asha_rao',
  catalogue: { sites: 3, scope: 3 },
  counts: { found: 0, not_found: 3, blocked: 0, error: 0, not_checked: 0 },
  sites: [],
  not_found: ['a', 'b', 'c'],
  started_at: '2026-06-23T14:10:00.000Z',
  finished_at: '2026-06-23T14:10:05.000Z',
};

const page = (results: UsernameLookupResponse) =>
  renderToStaticMarkup(
    createElement(
      QueryClientProvider,
      { client: new QueryClient() },
      createElement(
        AuthContext.Provider,
        { value: auth },
        createElement(
          MemoryRouter,
          null,
          createElement(UsernameResults, {
            state: { type: 'username', userInput: 'asha_rao', results },
            results,
          }),
        ),
      ),
    ),
  );

describe("a vendor's account search on the username results page", () => {
  it('alone (no site check): its accounts, attributed to the vendor, each profile in a new tab', () => {
    const html = page(answer({ pseudonymData: search() }));
    expect(html).toContain(t.vendorTitle);
    expect(html).toContain('osint.ly’s account search');
    expect(html).toContain(`aria-label="${t.vendorListLabel(2, 'osint.ly')}"`);
    expect(html).toMatch(
      /<a href="https:\/\/github\.example\.test\/asha_rao" target="_blank" rel="noopener noreferrer"/,
    );
    expect(html).toContain('asha_rao');
    expect(html).toContain(t.vendorNoLink);
    expect(html).toContain(t.vendorNoName);
    // Not the no-results view, and no site-check picture invented for a check that did not run.
    expect(html).not.toContain(t.noneFoundTitle);
    expect(html).not.toContain(t.foundTitle);
  });

  it('beside a site check that found the name nowhere: the accounts, not "no account found"', () => {
    const html = page(answer({ sitesData: nowhere, pseudonymData: search() }));
    expect(html).toContain(t.vendorTitle);
    expect(html).not.toContain(t.noneFoundTitle);
    expect(html).toContain(t.checkedOf(3, 3));
  });

  it('neither answered with an account: the site check’s found-nowhere, or the no-results view', () => {
    expect(page(answer({ sitesData: nowhere }))).toContain(t.noneFoundTitle);
    const none = page(answer({}));
    expect(none).not.toContain(t.vendorTitle);
    expect(none).not.toContain(t.noneFoundTitle);
  });
});

describe('vendorAccountsOf', () => {
  it('names the vendor the answer gives, else the source; marks a search that ran out of time', () => {
    expect(vendorAccountsOf(answer({ pseudonymData: search() }))).toMatchObject({
      vendor: 'osint.ly',
      complete: true,
    });
    const unnamed = vendorAccountsOf(answer({ pseudonymData: search({ complete: false }), vendor: null }));
    expect(unnamed).toMatchObject({ vendor: SOURCE_LABELS.pseudonymData, complete: false });
  });

  it('has nothing to show for no account, a broken payload or broken accounts', () => {
    expect(vendorAccountsOf(answer({ pseudonymData: search({ accounts: [] }) }))).toBeNull();
    expect(vendorAccountsOf(answer({ pseudonymData: { accounts: 'all' } }))).toBeNull();
    expect(vendorAccountsOf(answer({ pseudonymData: search({ accounts: [{ site: 3 }, null] }) }))).toBeNull();
    expect(
      vendorAccountsOf(answer({ pseudonymData: search({ accounts: [{ site: 3 }, github] }) }))?.accounts,
    ).toEqual([github]);
  });
});

describe('VendorAccounts', () => {
  const render = (patch: Record<string, unknown>) =>
    renderToStaticMarkup(
      createElement(VendorAccounts, {
        search: { vendor: 'osint.ly', complete: true, accounts: [github], ...patch },
      }),
    );

  it('links only http(s) profile addresses', () => {
    const html = render({ accounts: [{ ...github, url: 'javascript:alert(1)' }] });
    expect(html).not.toContain('href=');
    expect(html).toContain('javascript:alert(1)');
  });

  it('says when the search had not finished', () => {
    expect(render({ complete: false })).toContain(t.vendorIncomplete);
    expect(render({})).not.toContain(t.vendorIncomplete);
  });
});
