/**
 * Which spec checks which screen with axe (WCAG 2.0 to 2.2, A and AA), in which state and at which
 * sizes. An axe check is the costliest step of the browser suite (seconds per screen on CI's two cores),
 * so each screen, state and size is checked once, by the spec named here. Before adding a check, look
 * the screen up: when its state is listed, assert what your test needs and leave axe to its owner; when
 * it is new, check it and add its row. navigation.test.ts reads its own rows to know which pages of the
 * admin's menu tour it checks.
 *
 * Sizes: desktop is 1440 × 900 (navigation: 1366 × 900, a laptop), mobile 390 × 844. A dialog, menu or
 * panel is checked alone (its own scope) where the page behind it is checked on its own.
 */

export type AxeSize = 'desktop' | 'mobile';

export interface AxeCheck {
  /** The path (or the screen, for a dialog or a part of a page). */
  screen: string;
  /** What the screen shows when it is checked (empty lists and full ones are different screens). */
  state: string;
  sizes: AxeSize[];
  spec: string;
}

const both: AxeSize[] = ['desktop', 'mobile'];

export const axeChecks: AxeCheck[] = [
  // Public pages and the sign-in screens.
  ...['/', '/about', '/contact-us', '/privacy', '/terms-conditions', '/refund-policy'].map((screen) => ({
    screen,
    state: 'as published',
    sizes: both,
    spec: 'screens-public.test.ts',
  })),
  { screen: '/pricing', state: 'the placeholder page', sizes: both, spec: 'screens-public.test.ts' },
  { screen: '(unknown path)', state: 'the 404 page', sizes: both, spec: 'screens-public.test.ts' },
  { screen: 'public menu', state: 'open', sizes: ['mobile'], spec: 'screens-public.test.ts' },
  ...['/login', '/register', '/forgot-password', '/password-reset/:token', '/otp-verification'].map(
    (screen) => ({ screen, state: 'empty form', sizes: both, spec: 'screens-public.test.ts' }),
  ),
  { screen: '/register', state: 'registration closed', sizes: both, spec: 'screens-public.test.ts' },
  { screen: '/register', state: 'the password strength meter', sizes: both, spec: 'auth.test.ts' },
  { screen: '/two-step-verification', state: 'asking for the code', sizes: both, spec: 'security.test.ts' },
  { screen: '/verify', state: 'a file checked', sizes: both, spec: 'verify.test.ts' },

  // The search screens, for a live account.
  {
    screen: '/dashboard',
    state: 'phone and e-mail search forms',
    sizes: both,
    spec: 'screens-signed-in.test.ts',
  },
  {
    screen: '/dashboard',
    state: 'country list, profile menu (header); menu drawer (mobile)',
    sizes: both,
    spec: 'screens-signed-in.test.ts',
  },
  {
    screen: '/dashboard',
    state: 'search form with no source configured',
    sizes: ['desktop'],
    spec: 'source-panel.test.ts',
  },
  {
    screen: '/results',
    state:
      'phone results; save menu, RC, challan, UPI, credit report, image dialogs; no results; e-mail results and map',
    sizes: both,
    spec: 'screens-signed-in.test.ts',
  },
  {
    screen: '/dashboard',
    state: 'username search form',
    sizes: both,
    spec: 'screens-signed-in.test.ts',
  },
  {
    screen: '/results',
    state: "username results: many found, an account's evidence and the blocked sites open; found nowhere",
    sizes: both,
    spec: 'screens-signed-in.test.ts',
  },
  { screen: '/results', state: 'the sources panel', sizes: both, spec: 'source-panel.test.ts' },
  { screen: '/results', state: 'results bar with the answer time', sizes: both, spec: 'answer-time.test.ts' },
  { screen: '/results', state: 'the refresh dialog', sizes: ['desktop'], spec: 'answer-time.test.ts' },
  {
    screen: '/results',
    state: "a merged value's provenance",
    sizes: ['desktop'],
    spec: 'merged-profile.test.ts',
  },
  {
    screen: '/leak-data-finder',
    state: 'form, results, paged results',
    sizes: both,
    spec: 'screens-signed-in.test.ts',
  },
  {
    screen: '/corporate, /corporate-results',
    state: 'form, credit report form, results',
    sizes: both,
    spec: 'screens-signed-in.test.ts',
  },
  {
    screen: '/verification-id, /verification-results',
    state: 'form, bank account form, results',
    sizes: both,
    spec: 'screens-signed-in.test.ts',
  },
  { screen: '/help', state: 'as published', sizes: both, spec: 'screens-signed-in.test.ts' },
  {
    screen: '/history',
    state: 'lookups listed, a stored result, the credit statement',
    sizes: both,
    spec: 'screens-signed-in.test.ts',
  },
  { screen: '/upgrade', state: 'a trial account', sizes: both, spec: 'screens-public.test.ts' },

  // Pages of the admin's menu tour: the admin's own (often empty) lists.
  ...[
    '/cases',
    '/bulk',
    '/watchlist',
    '/history',
    '/reviews',
    '/approvals',
    '/api-keys',
    '/security',
    '/subscription',
  ].map((screen) => ({
    screen,
    state: "demo-admin's, reached from the menu",
    sizes: both,
    spec: 'navigation.test.ts',
  })),

  // Cases, bulk lists, watches, API keys, security.
  { screen: '/cases/:id', state: 'a case with searches and a note', sizes: both, spec: 'cases.test.ts' },
  { screen: '/cases', state: 'a list of cases', sizes: ['mobile'], spec: 'cases.test.ts' },
  { screen: '/cases', state: "the page's code failed to load", sizes: ['mobile'], spec: 'cases.test.ts' },
  { screen: '/bulk', state: 'a finished job', sizes: ['desktop'], spec: 'bulk.test.ts' },
  { screen: '/watchlist', state: 'a watch', sizes: both, spec: 'watchlist.test.ts' },
  { screen: 'watch dialog', state: 'open', sizes: ['desktop'], spec: 'watchlist.test.ts' },
  { screen: '/api-keys', state: 'a key used; the key shown once', sizes: both, spec: 'api-keys.test.ts' },
  { screen: '/security', state: 'two-step verification on', sizes: both, spec: 'security.test.ts' },

  // The admin area.
  {
    screen:
      '/admin/users, /admin/users/:id, /admin/audit, /admin/units, /admin/providers, /admin/leak-sources, /admin/settings',
    state: 'with the sandbox data; new-user and audit event dialogs',
    sizes: both,
    spec: 'screens-signed-in.test.ts',
  },
  { screen: '/admin/audit', state: 'the hash chain panel', sizes: ['desktop'], spec: 'admin.test.ts' },
  {
    screen: '/admin/units',
    state: "a tree of four levels, a unit's members open (1280 × 800 and 390 × 844)",
    sizes: both,
    spec: 'units.test.ts',
  },
  {
    screen: '/units',
    state: "a unit admin's unit: members (allowances but their own), the pool without top-up (1280 × 800)",
    sizes: ['desktop'],
    spec: 'pools.test.ts',
  },
  {
    screen: '/history',
    state: "My units (a supervisor), the By column, Open on another's search, the case filter",
    sizes: ['desktop'],
    spec: 'units.test.ts',
  },
  {
    screen: '/results',
    state: "another's search read as their supervisor: the notice, exports only (1280 × 800 and 390 × 844)",
    sizes: both,
    spec: 'units.test.ts',
  },
  {
    screen: '/cases/:id',
    state: 'shared with a unit, the share form',
    sizes: ['desktop'],
    spec: 'units.test.ts',
  },
  {
    screen: '/reviews',
    state: "a supervisor's queue of three drawn searches (1280 × 800 and 390 × 844)",
    sizes: both,
    spec: 'reviews.test.ts',
  },
  {
    screen: '/reviews',
    state: 'a question refused without a note; the Reviewed tab (1280 × 800)',
    sizes: ['desktop'],
    spec: 'reviews.test.ts',
  },
  {
    screen: '/reviews',
    state: "an investigator's own searches with both verdicts (1280 × 800 and 390 × 844)",
    sizes: both,
    spec: 'reviews.test.ts',
  },
  {
    screen: '/results',
    state: "a UPI lookup held for a supervisor's approval: the notice (1280 × 800 and 390 × 844)",
    sizes: both,
    spec: 'approvals.test.ts',
  },
  {
    screen: '/approvals',
    state: "a supervisor's queue of two requests (1280 × 800 and 390 × 844)",
    sizes: both,
    spec: 'approvals.test.ts',
  },
  {
    screen: '/approvals?view=mine',
    state: "an investigator's requests, one approved and one rejected (1280 × 800 and 390 × 844)",
    sizes: both,
    spec: 'approvals.test.ts',
  },
  {
    screen: '/history/:id',
    state: 'an approved UPI lookup (1280 × 800)',
    sizes: ['desktop'],
    spec: 'approvals.test.ts',
  },
];

/** The screens `spec` checks (paths as listed above). */
export const checkedBy = (spec: string): Set<string> =>
  new Set(axeChecks.filter((check) => check.spec === spec).map((check) => check.screen));
