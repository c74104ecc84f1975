/** Every route path of the web app, in one place (spec §2). */
export const paths = {
  home: '/',
  about: '/about',
  attributions: '/attributions',
  contact: '/contact-us',
  privacy: '/privacy',
  terms: '/terms-conditions',
  refund: '/refund-policy',
  product: '/product',
  pricing: '/pricing',
  shipping: '/shipping-policy',
  returns: '/return-policy',
  /** Beyond the spec: anyone checks a report file by its SHA-256. */
  verifyReport: '/verify',
  login: '/login',
  register: '/register',
  forgotPassword: '/forgot-password',
  passwordReset: (token: string, email?: string) =>
    `/password-reset/${encodeURIComponent(token)}${email ? `?email=${encodeURIComponent(email)}` : ''}`,
  otp: '/otp-verification',
  /** Beyond the spec: the second step of a sign-in for an account with a second factor. */
  secondFactor: '/two-step-verification',
  /** Beyond the spec: second factors, trusted devices, sign out everywhere. */
  security: '/security',
  /** Beyond the spec: API keys for scripts (live accounts; docs/api.md). */
  apiKeys: '/api-keys',
  dashboard: '/dashboard',
  results: '/results',
  leakFinder: '/leak-data-finder',
  corporate: '/corporate',
  corporateResults: '/corporate-results',
  verification: '/verification-id',
  verificationResults: '/verification-results',
  upgrade: '/upgrade',
  help: '/help',
  subscription: '/subscription',
  /** Beyond the spec (accountability): the user's own history, and the admin area. */
  history: '/history',
  /** One stored search by its lookup id (the link of an approved request). */
  historyEntry: (id: string) => `/history/${encodeURIComponent(id)}`,
  /** Sampled review (beyond the spec): a supervisor's queue of drawn searches, and one's own reviewed. */
  reviews: '/reviews',
  /** Approval of sensitive searches (beyond the spec): a supervisor's queue, and one's own requests. */
  approvals: '/approvals',
  approvalsMine: '/approvals?view=mine',
  /** Beyond the spec: the units screen for supervisors and unit admins (and admins), outside /admin. */
  units: '/units',
  /** Investigations (beyond the spec). */
  cases: '/cases',
  case: (id: string) => `/cases/${encodeURIComponent(id)}`,
  /** One captured web page of a case: its screenshot, facts, files and text. */
  capture: (caseId: string, captureId: string) =>
    `/cases/${encodeURIComponent(caseId)}/captures/${encodeURIComponent(captureId)}`,
  /** Bulk lookups (beyond the spec, live accounts): a list run as one job. */
  bulk: '/bulk',
  /** Watched searches (beyond the spec; live accounts). */
  watchlist: '/watchlist',
  admin: '/admin',
  adminUsers: '/admin/users',
  adminUser: (id: string) => `/admin/users/${encodeURIComponent(id)}`,
  /** Beyond the spec: the agency's tree of units, its level names and each unit's members. */
  adminUnits: '/admin/units',
  adminAudit: '/admin/audit',
  adminProviders: '/admin/providers',
  adminLeakSources: '/admin/leak-sources',
  /** The username catalogue's self-check: each site's state and precision. */
  adminSiteHealth: '/admin/site-health',
  adminSettings: '/admin/settings',
} as const;

/** Pages open to anyone (spec §2.1). */
export const publicPaths: readonly string[] = [
  paths.home,
  paths.about,
  paths.contact,
  paths.privacy,
  paths.terms,
  paths.refund,
  paths.product,
  paths.pricing,
  paths.shipping,
  paths.returns,
  paths.verifyReport,
  paths.attributions,
];

/** Route prefixes that count as authentication paths (spec §2.2). */
export const authPathPrefixes: readonly string[] = ['/password-reset', '/login', '/register'];

export const isPublicPath = (pathname: string): boolean => publicPaths.includes(pathname);
export const isAuthPath = (pathname: string): boolean =>
  authPathPrefixes.some((prefix) => pathname === prefix || pathname.startsWith(`${prefix}/`));

/** Paths on which the main layout's sidebar is hidden (spec §2.4). */
export const sidebarHiddenPrefixes: readonly string[] = [
  '/subscription',
  '/results',
  '/corporate-results',
  '/upgrade',
  '/verification-results',
];
export const isSidebarHidden = (pathname: string): boolean =>
  sidebarHiddenPrefixes.some((prefix) => pathname.startsWith(prefix));

/** Pages whose small-screen header carries the menu button: the four the spec names (§2.4)… */
const menuButtonPaths: readonly string[] = [
  paths.dashboard,
  paths.leakFinder,
  paths.corporate,
  paths.verification,
];
/**
 * …and every page built beyond the spec that the sidebar lists (app/layouts/main/navigation.tsx), with
 * the pages below them (/cases/:id, /admin/users, …), so that a phone can leave each of them by the menu.
 * The spec's other signed-in pages (/help, /results, /upgrade, …) keep the header it gives them.
 */
const menuButtonSections: readonly string[] = [
  paths.cases,
  paths.bulk,
  paths.watchlist,
  paths.history,
  paths.reviews,
  paths.approvals,
  paths.units,
  paths.apiKeys,
  paths.security,
  paths.admin,
];
export const hasMenuButton = (pathname: string): boolean =>
  menuButtonPaths.includes(pathname) ||
  menuButtonSections.some((section) => pathname === section || pathname.startsWith(`${section}/`));
