// Build step after `vite build` and `vite build --ssr src/prerender.tsx` (package.json "build"):
// writes the pages a signed-out visitor lands on as finished HTML, and the frame of the signed-in
// pages, so that their first paint needs only the document and the stylesheet, not the app's
// JavaScript.
//
// For each page: the document vite wrote (dist/index.html) with the page's markup in #root and its
// <title>; the app that takes the markup's place is started by public/boot.js once the page has
// painted, with the chunks of the page's routes in the same round trip as the entry. Written as
// dist/prerendered/<name>.html with .br and .gz copies; the server sends it for that exact path.
// - `/` and `/login`: the page itself, as a signed-out visitor sees it (`data-prerendered`, inert).
// - The signed-in pages with a path of their own (`/dashboard`, `/results`, …): the main layout's
//   loading state (app/layouts/main/LayoutSkeleton.tsx: the frame and a spinner, `data-shell`), the
//   same for a visitor who is signed in or not; the app draws it again, then the page or /login.
// - Every other path (dist/index.html itself, the server's fallback: `/cases/<id>`, `/admin/users`,
//   `/register`, …): the router's fallback spinner, which is the app's own first render there.
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { paths } from '../src/config/paths.ts';

// WEB_OUT_DIR: the folder vite built into (vite.config.ts), `dist` unless `npm run start:fakes`.
const out = process.env.WEB_OUT_DIR || 'dist';
const dist = new URL(`../${out}/`, import.meta.url);
const ssrOut = new URL(`../${out}-ssr/`, import.meta.url);

/** Each page, and the route modules it shows (their keys in vite's manifest). */
const pages = [
  {
    path: '/',
    file: 'index.html',
    modules: ['src/app/layouts/PublicLayout.tsx', 'src/features/public/pages/HomePage.tsx'],
  },
  {
    path: '/login',
    file: 'login.html',
    modules: [
      'src/app/layouts/PublicLayout.tsx',
      'src/app/guards/GuestOnly.tsx',
      'src/features/auth/pages/LoginPage.tsx',
    ],
  },
] as const;

/** The main layout, and the guards the live-only pages and the admin area sit behind (router.tsx). */
const main = 'src/app/layouts/MainLayout.tsx';
const liveOnly = 'src/app/guards/LiveOnly.tsx';

/** The signed-in pages with a path of their own, and their route modules. */
const shells: ReadonlyArray<{ path: string; modules: readonly string[] }> = [
  { path: paths.dashboard, modules: [main, 'src/features/search/DashboardPage.tsx'] },
  { path: paths.results, modules: [main, 'src/features/results/ResultsPage.tsx'] },
  { path: paths.leakFinder, modules: [main, 'src/features/leaks/LeakFinderPage.tsx'] },
  { path: paths.upgrade, modules: [main, 'src/features/upgrade/UpgradePage.tsx'] },
  { path: paths.help, modules: [main, 'src/features/help/HelpPage.tsx'] },
  { path: paths.subscription, modules: [main, 'src/features/common/ComingSoonPage.tsx'] },
  { path: paths.history, modules: [main, 'src/features/history/HistoryPage.tsx'] },
  { path: paths.cases, modules: [main, 'src/features/cases/CasesPage.tsx'] },
  { path: paths.reviews, modules: [main, 'src/features/reviews/ReviewsPage.tsx'] },
  { path: paths.approvals, modules: [main, 'src/features/approvals/ApprovalsPage.tsx'] },
  { path: paths.security, modules: [main, 'src/features/security/SecurityPage.tsx'] },
  { path: paths.corporate, modules: [main, liveOnly, 'src/features/intel/CorporatePage.tsx'] },
  {
    path: paths.corporateResults,
    modules: [main, liveOnly, 'src/features/intel/CorporateResultsPage.tsx'],
  },
  { path: paths.verification, modules: [main, liveOnly, 'src/features/intel/VerificationPage.tsx'] },
  {
    path: paths.verificationResults,
    modules: [main, liveOnly, 'src/features/intel/VerificationResultsPage.tsx'],
  },
  { path: paths.apiKeys, modules: [main, liveOnly, 'src/features/api-keys/ApiKeysPage.tsx'] },
  { path: paths.bulk, modules: [main, liveOnly, 'src/features/bulk/BulkPage.tsx'] },
  { path: paths.watchlist, modules: [main, liveOnly, 'src/features/watchlists/WatchlistPage.tsx'] },
  {
    path: paths.admin,
    modules: [
      main,
      'src/app/guards/AdminOnly.tsx',
      'src/features/admin/AdminLayout.tsx',
      'src/features/admin/pages/AdminIndex.tsx',
    ],
  },
];

type Manifest = Record<string, { file: string; imports?: string[]; isEntry?: boolean }>;

/** The chunk files of `modules` and everything they import statically, the entry excepted. */
function chunksOf(manifest: Manifest, modules: readonly string[]): string[] {
  const files = new Set<string>();
  const visit = (key: string) => {
    const chunk = manifest[key];
    if (!chunk) throw new Error(`${key} is not in vite's manifest: update scripts/prerender.ts`);
    if (chunk.isEntry || files.has(chunk.file)) return;
    files.add(chunk.file);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  for (const key of modules) visit(key);
  return [...files];
}

const escapeHtml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

const manifest = JSON.parse(await readFile(new URL('.vite/manifest.json', dist), 'utf8')) as Manifest;
const template = await readFile(new URL('index.html', dist), 'utf8');
if (!template.includes('<div id="root"></div>')) throw new Error('dist/index.html has no empty #root');
const entryTag = template.match(/<script type="module" crossorigin src="([^"]+)"><\/script>/);
if (!entryTag?.[1]) throw new Error('dist/index.html has no entry script');
const [entryTagText, entry] = entryTag;
const { render, renderShell, renderFallback } = (await import(new URL('prerender.js', ssrOut).href)) as {
  render: (path: string) => Promise<{ html: string; title: string | null }>;
  renderShell: (path: string) => string;
  renderFallback: () => string;
};

/** `document` and its brotli and gzip copies, as the server's static files expect them. */
async function write(target: URL, document: string) {
  await writeFile(target, document);
  await writeFile(
    new URL(`${target.href}.br`),
    brotliCompressSync(document, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
  );
  await writeFile(new URL(`${target.href}.gz`), gzipSync(document, { level: 9 }));
}

/**
 * The page vite wrote with `root` (the whole #root element) in place of the empty one, and the app started by
 * public/boot.js once the page has painted, its entry and the page's chunks together.
 */
function documentWith(
  root: string,
  modules: readonly string[],
  startAt: 'paint' | 'parsed' = 'paint',
): string {
  const chunks = chunksOf(manifest, modules).map((file) => `/${file}`);
  const boot = `<script defer src="/boot.js" data-entry="${entry}" data-chunks="${chunks.join(' ')}" data-start="${startAt}"></script>`;
  return template.replace(entryTagText, boot).replace('<div id="root"></div>', () => root);
}

const outDir = new URL('prerendered/', dist);
await rm(outDir, { recursive: true, force: true });
await mkdir(outDir, { recursive: true });
for (const page of pages) {
  const { html, title } = await render(page.path);
  // Until the app has taken its place (main.tsx), the markup is inert: nothing in it takes focus,
  // clicks or keys. Its fields are also read-only, which tells automation to wait for the live ones.
  const markup = html.replace(/<input /g, '<input readonly="" ');
  let document = documentWith(`<div id="root" data-prerendered="" inert="">${markup}</div>`, page.modules);
  if (title) document = document.replace(/<title>[^<]*<\/title>/, `<title>${escapeHtml(title)}</title>`);
  await write(new URL(page.file, outDir), document);
  console.log(
    `prerendered ${page.path} → dist/prerendered/${page.file} (${(document.length / 1024).toFixed(1)} kB)`,
  );
}
// The signed-in pages: the frame, drawn again by the app's first render (no `inert`: nothing in it
// can be used, and its spinner's status is for everyone).
for (const page of shells) {
  const file = `${page.path.slice(1)}.html`;
  if (file.includes('/')) throw new Error(`${page.path}: the server serves prerendered files by name only`);
  const document = documentWith(`<div id="root" data-shell="">${renderShell(page.path)}</div>`, page.modules);
  await write(new URL(file, outDir), document);
}
console.log(`prerendered the frame of ${shells.map((page) => page.path).join(', ')} → dist/prerendered/`);
// Every other path: the router's fallback spinner, which the app's first render draws again. A spinner
// is no contentful paint, so waiting for one would hold the app back until boot.js's deadline: the app
// starts as soon as the document is parsed, as a module script in <head> would.
await write(
  new URL('index.html', dist),
  documentWith(`<div id="root">${renderFallback()}</div>`, [], 'parsed'),
);
console.log('prerendered the spinner of every other path → dist/index.html');
// The manifest (and the copies the compression plugin made of it) served no visitor.
await rm(new URL('.vite/', dist), { recursive: true, force: true });
await rm(ssrOut, { recursive: true, force: true });
