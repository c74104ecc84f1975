// Lighthouse accessibility score of every signed-in page, desktop (1366×900) and phone (390×844).
// Run against a server already running on 127.0.0.1 with the demo accounts and the development outbox
// (`npm start` in another terminal):
//   npm run bench:a11y -- --url http://127.0.0.1:3000 [--email demo-admin@footprint.test]
//     [--password footprint-demo] [--only /dashboard,/results] [--sizes desktop,mobile]
// Signs in through the API (the e-mail code read from /dev/outbox.json), puts the session where the web
// app keeps it, and runs Lighthouse's accessibility category (no throttling: only accessibility is
// measured) in Debian's Chromium: a navigation for each page, and a snapshot of the pages that show the
// answer of a search (phone and e-mail results, corporate and verification results), searched for in
// the browser first. Prints each score and the audits below full marks. The account needs the admin
// role for the admin pages; a case is opened and two searches filed under it when it has none, so the
// case page has content (this spends the account's credits once).

import { parseArgs } from 'node:util';
import { navigation, snapshot } from 'lighthouse';
import puppeteer, { type Page } from 'puppeteer-core';

const { values } = parseArgs({
  options: {
    url: { type: 'string', default: 'http://127.0.0.1:3000' },
    email: { type: 'string', default: 'demo-admin@footprint.test' },
    password: { type: 'string', default: process.env.DEMO_PASSWORD ?? 'footprint-demo' },
    only: { type: 'string' },
    sizes: { type: 'string', default: 'desktop,mobile' },
  },
});
const base = new URL(values.url).origin;
if (!['127.0.0.1', 'localhost'].includes(new URL(base).hostname)) {
  throw new Error('This benchmark talks only to a server on 127.0.0.1.');
}
const chromiumPath = process.env.CHROME_PATH ?? process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const deviceId = crypto.randomUUID();

async function call<T>(path: string, init: { body?: unknown; token?: string; method?: string } = {}) {
  const res = await fetch(`${base}${path}`, {
    method: init.method ?? (init.body ? 'POST' : 'GET'),
    headers: {
      'content-type': 'application/json',
      'x-device-id': deviceId,
      ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
    },
    body: init.body ? JSON.stringify(init.body) : undefined,
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : null) as T };
}

/** Password, then the e-mail code from the development outbox when this browser is new. */
async function signIn(email: string, password: string): Promise<string> {
  const since = Date.now() - 2000;
  const login = await call<{ token?: string }>('/api/login', { body: { email, password } });
  if (login.status === 200 && login.body.token) return login.body.token;
  if (login.status !== 403) throw new Error(`sign-in refused: ${login.status} ${JSON.stringify(login.body)}`);
  for (let tries = 0; tries < 50; tries += 1) {
    const outbox =
      await call<Array<{ to: string; subject: string; text: string; created_at: string }>>(
        '/dev/outbox.json',
      );
    if (outbox.status !== 200) throw new Error('no /dev/outbox.json: run the server without SMTP_URL');
    const mail = outbox.body.find(
      (m) => m.to === email && /verification code/.test(m.subject) && Date.parse(m.created_at) >= since,
    );
    const otp = mail && /code is (\d{6})/.exec(mail.text)?.[1];
    if (otp) {
      const verified = await call<{ token: string }>('/api/verify-email-otp', { body: { email, otp } });
      if (verified.status !== 200) throw new Error(`e-mail code refused: ${verified.status}`);
      return verified.body.token;
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`no verification code for ${email} in the outbox`);
}

const token = await signIn(values.email, values.password);
const me = await call<{ id: string; role: string }>('/api/user', { token });

/** The account's first case, or a new one with a phone and an e-mail search filed under it. */
async function caseId(): Promise<string> {
  const cases = await call<{ data: Array<{ id: string }> }>('/api/cases', { token });
  if (cases.body.data?.[0]) return cases.body.data[0].id;
  const reference = `A11Y-${Date.now()}`;
  const made = await call<{ id: string }>('/api/cases', {
    token,
    body: { title: 'Accessibility check', reference },
  });
  await call(`/api/tel?number=919876543210&case_reference=${reference}`, { token });
  await call(`/api/email?email=rich.demo%40example.test&case_reference=${reference}`, { token });
  return made.body.id;
}

const pages: string[] = [
  '/dashboard',
  '/leak-data-finder',
  '/corporate',
  '/verification-id',
  '/cases',
  `/cases/${await caseId()}`,
  '/bulk',
  '/watchlist',
  '/history',
  '/api-keys',
  '/security',
  '/help',
  '/subscription',
  '/upgrade',
  ...(me.body.role === 'admin'
    ? [
        '/admin/users',
        `/admin/users/${me.body.id}`,
        '/admin/audit',
        '/admin/units',
        '/admin/providers',
        '/admin/leak-sources',
        '/admin/settings',
      ]
    : []),
];

/** Searches typed into the page as a user does; the answer is then audited where it shows. */
const searches: Array<{ name: string; path: string; run: (page: Page) => Promise<void> }> = [
  {
    name: '/results (phone)',
    path: '/results',
    run: async (page) => {
      await page.goto(`${base}/dashboard`);
      await choose(page, 'Phone');
      await page.locator('::-p-aria(Phone number)').fill('9876543210');
      await agreeAndSearch(page, 'Search');
      await page.locator('::-p-text(Merged profile)').wait();
    },
  },
  {
    name: '/results (e-mail)',
    path: '/results',
    run: async (page) => {
      await page.goto(`${base}/dashboard`);
      await choose(page, 'Email');
      await page.locator('::-p-aria(Email address)').fill('rich.demo@example.test');
      await agreeAndSearch(page, 'Search');
      await page.locator('::-p-text(Found breaches)').wait();
    },
  },
  {
    name: '/corporate-results',
    path: '/corporate-results',
    run: async (page) => {
      await page.goto(`${base}/corporate`);
      await page.locator('::-p-aria(Search type)').fill('corporate_gstin');
      await page.locator('::-p-aria(GSTIN)').fill('27AADCN4821K1ZC');
      await agreeAndSearch(page, 'Search');
      await page.waitForFunction(`location.pathname === '/corporate-results'`);
      await page.locator('main h1').wait();
    },
  },
  {
    name: '/verification-results',
    path: '/verification-results',
    run: async (page) => {
      await page.goto(`${base}/verification-id`);
      await page.locator('::-p-aria(Search type)').fill('pan');
      await page.locator('::-p-aria(PAN Number)').fill('BQZPD4821K');
      await page.locator('::-p-aria(Name)').fill('Rohan Deshmukh');
      await agreeAndSearch(page, 'Verify');
      await page.waitForFunction(`location.pathname === '/verification-results'`);
      await page.locator('main h1').wait();
    },
  },
];

// The page's code is given as strings: this package is type-checked without the DOM library.

/** Checks the radio button whose label says `label` (the toggles hide the radio itself). */
async function choose(page: Page, label: string) {
  await page.locator('main input[type="radio"]').wait();
  await page.evaluate(`(() => {
    for (const option of document.querySelectorAll('label')) {
      const radio = option.querySelector('input[type="radio"]');
      if (radio && option.textContent.trim() === ${JSON.stringify(label)}) radio.click();
    }
  })()`);
}

/** Fills the case reference, ticks the terms box where the form has one, and presses `button`. */
async function agreeAndSearch(page: Page, button: string) {
  await page.locator('input[list]').fill('CASE-2025-0417');
  await page.evaluate(`(() => {
    for (const box of document.querySelectorAll('main input[type="checkbox"]')) {
      const label = [...box.labels].map((l) => l.textContent).join(' ');
      if (/Terms of Services/.test(label) && !box.checked) box.click();
    }
  })()`);
  await page.locator(`::-p-aria(${button}[role="button"])`).click();
}

const sizes = {
  desktop: { width: 1366, height: 900, mobile: false },
  mobile: { width: 390, height: 844, mobile: true },
} as const;

const settingsFor = (size: keyof typeof sizes, emulate: boolean) => ({
  onlyCategories: ['accessibility'],
  formFactor: size,
  screenEmulation: { ...sizes[size], deviceScaleFactor: sizes[size].mobile ? 3 : 1, disabled: !emulate },
  emulatedUserAgent: false as const,
  throttlingMethod: 'provided' as const,
  // The session is in localStorage: keep it.
  disableStorageReset: true,
});

interface Score {
  page: string;
  size: string;
  score: number;
  failing: string[];
}

function scoreOf(
  result: Awaited<ReturnType<typeof navigation>>,
  page: string,
  size: string,
  path: string,
): Score {
  if (!result) throw new Error(`Lighthouse returned nothing for ${page}`);
  const { categories, audits, finalDisplayedUrl, runtimeError } = result.lhr;
  if (runtimeError) throw new Error(`${page} (${size}): ${runtimeError.code} ${runtimeError.message}`);
  // A page that ended elsewhere (the sign-in page, /upgrade) measured the wrong page.
  if (new URL(finalDisplayedUrl).pathname !== path) {
    throw new Error(`${page} (${size}) ended on ${finalDisplayedUrl}`);
  }
  const category = categories.accessibility;
  const failing = (category?.auditRefs ?? [])
    .filter((ref) => ref.weight > 0 && (audits[ref.id]?.score ?? 1) < 1)
    .map((ref) => {
      const items =
        (audits[ref.id]?.details as { items?: Array<{ node?: { snippet?: string } }> })?.items ?? [];
      const where = items
        .slice(0, 3)
        .map((item) => item.node?.snippet)
        .filter(Boolean)
        .join(' | ');
      return `${ref.id}: ${audits[ref.id]?.title}${where ? ` (${where})` : ''}`;
    });
  return { page, size, score: Math.round((category?.score ?? 0) * 100), failing };
}

const only = values.only?.split(',');
const wanted = (path: string) => !only || only.some((prefix) => path.startsWith(prefix));
const browser = await puppeteer.launch({
  executablePath: chromiumPath,
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run'],
});
const scores: Score[] = [];
try {
  const page = await browser.newPage();
  await page.goto(`${base}/robots.txt`);
  const expiry = new Date(Date.now() + 86_400_000).toISOString();
  await page.evaluate(
    `localStorage.setItem('auth_token', ${JSON.stringify(token)}); localStorage.setItem('token_expiry', '${expiry}');`,
  );
  const chosen = (Object.keys(sizes) as Array<keyof typeof sizes>).filter((size) =>
    values.sizes.split(',').includes(size),
  );
  for (const size of chosen) {
    for (const path of pages.filter(wanted)) {
      const result = await navigation(page, `${base}${path}`, {
        config: { extends: 'lighthouse:default', settings: settingsFor(size, true) },
      });
      scores.push(scoreOf(result, path, size, path));
      console.log(`${path} (${size}): ${scores.at(-1)?.score}`);
    }
    // The answers of searches: the page stays where the search left it, and is audited as it is.
    await page.setViewport({
      width: sizes[size].width,
      height: sizes[size].height,
      isMobile: sizes[size].mobile,
      hasTouch: sizes[size].mobile,
      deviceScaleFactor: sizes[size].mobile ? 3 : 1,
    });
    for (const search of searches.filter((s) => wanted(s.name))) {
      await search.run(page).catch(async (error) => {
        const picture = `/tmp/footprint-a11y-${search.path.slice(1)}-${size}.png`;
        await page.screenshot({ path: picture });
        throw new Error(`${search.name} (${size}): the search did not show its answer (see ${picture})`, {
          cause: error,
        });
      });
      await new Promise((resolve) => setTimeout(resolve, 1500));
      const result = await snapshot(page, {
        config: { extends: 'lighthouse:default', settings: settingsFor(size, false) },
      });
      scores.push(scoreOf(result, search.name, size, search.path));
      console.log(`${search.name} (${size}): ${scores.at(-1)?.score}`);
    }
  }
} finally {
  await browser.close();
}

console.log('\n| page | desktop 1366×900 | phone 390×844 |\n|---|---|---|');
for (const name of [...new Set(scores.map((s) => s.page))]) {
  const of = (size: string) => scores.find((s) => s.page === name && s.size === size)?.score ?? '—';
  // Case and user pages are named by their route, not their id.
  const shown = name.replace(/\/[0-9a-f-]{36}$/, '/:id');
  console.log(`| \`${shown}\` | ${of('desktop')} | ${of('mobile')} |`);
}
const below = scores.filter((s) => s.score < 100);
for (const s of below) console.log(`\n${s.page} (${s.size}) ${s.score}: ${s.failing.join('; ')}`);
console.log(below.length === 0 ? '\nEvery page scores 100.' : `\n${below.length} page(s) below 100.`);
process.exitCode = below.length === 0 ? 0 : 1;
