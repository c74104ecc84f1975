import { messages, type PhoneLookupResponse, profilePivots, type SiteCheckAnswer } from '@footprint/domain';
import { beforeAll, describe, expect, it } from 'vitest';
import { api, apiSignIn } from '../support/api.ts';
import { problemsOf, screenshot, storeSession, uniqueEmail, useBrowser } from '../support/browser.ts';
import { search } from '../support/screens.ts';

/**
 * A username on a phone profile leads to the username lookup: the merged profile's usernames each
 * offer 'Username lookup', which runs the site check under the page's case reference, charges its
 * price and opens the username results as a new page of the history (Back returns to the profile).
 * A user of its own, so that the balance is this spec's alone.
 */

const browser = useBrowser();
/** What the button beside a profile's username says (the username kind's declared pivot). */
const pivotLabel = profilePivots('Usernames')[0]?.action ?? 'missing';
let token: string;

beforeAll(async () => {
  const email = uniqueEmail('username-pivot');
  const password = 'username pivot passphrase';
  expect(
    (
      await api('/api/register', {
        body: { name: 'Pivot Tester', email, password, password_confirmation: password },
      })
    ).status,
  ).toBe(201);
  token = await apiSignIn(email, password);
});

const balance = async () => ((await api('/api/user', { token })).body as { credits: number }).credits;

describe('a username on a profile', () => {
  it('offers its username lookup, which runs under the case reference and opens the sites found', async () => {
    const page = await browser.newPage({ width: 1280, height: 900 });
    await storeSession(page, token);
    const phone = (await search(page, 'tel', '9876543210', 'CASE-PIVOT-1')) as PhoneLookupResponse;
    const subject = page.getByRole('heading', { level: 1, name: /98765\s?43210/ });
    await subject.waitFor();

    const pivot = page.getByRole('button', { name: `${pivotLabel}: rohand90` });
    await pivot.scrollIntoViewIfNeeded();
    await screenshot(page, 'results-username-pivot-desktop');
    await page.setViewportSize({ width: 390, height: 844 });
    await pivot.scrollIntoViewIfNeeded();
    await screenshot(page, 'results-username-pivot-phone');
    await page.setViewportSize({ width: 1280, height: 900 });
    const before = await balance();
    expect(before).toBe(phone.credits);
    const asked = page.waitForResponse((res) => res.url().includes('/api/username?'), { timeout: 90_000 });
    await pivot.click();
    const response = await asked;
    expect(response.status()).toBe(200);
    const url = new URL(response.url());
    expect(url.searchParams.get('username')).toBe('rohand90');
    expect(url.searchParams.get('case_reference')).toBe('CASE-PIVOT-1');
    const answer = (await response.json()) as { sitesData: SiteCheckAnswer; credits: number };

    // The username results, filed under the same case, charged the username lookup's price.
    await page.getByRole('heading', { level: 1, name: '@rohand90' }).waitFor();
    const found = page.getByRole('list', {
      name: messages.usernameResults.foundListLabel(answer.sitesData.counts.found),
    });
    expect(await found.getByRole('listitem').count()).toBe(answer.sitesData.counts.found);
    const { prices } = (await api('/api/sources', { token })).body as { prices: Record<string, number> };
    expect(prices.username).toBeGreaterThan(0);
    expect(await balance()).toBe(before - (prices.username ?? Number.NaN));
    expect(answer.credits).toBe(await balance());

    // Back returns to the profile the lookup started from.
    await page.goBack();
    await subject.waitFor();
    await page.getByRole('button', { name: `${pivotLabel}: rohand90` }).waitFor();
    expect(problemsOf(page)).toEqual([]);
  }, 120_000);
});
