// Build step after `vite build` and `vite build --ssr src/prerender.tsx` (package.json "build"):
// writes the pages a signed-out visitor lands on as finished HTML, so that their first paint needs
// only the document and the stylesheet, not the app's JavaScript.
//
// For each page: the shell vite wrote (dist/index.html, which stays the answer for every other path)
// with the page's markup in #root and its <title>; the app that takes the markup's place is started
// by public/boot.js once the page has painted, with the chunks of the page's routes in the same round
// trip as the entry. Written as
// dist/prerendered/<name>.html with .br and .gz copies; the server sends it for that exact path.
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const dist = new URL('../dist/', import.meta.url);
const ssrOut = new URL('../dist-ssr/', import.meta.url);

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
const shell = await readFile(new URL('index.html', dist), 'utf8');
if (!shell.includes('<div id="root"></div>')) throw new Error('dist/index.html has no empty #root');
const entryTag = shell.match(/<script type="module" crossorigin src="([^"]+)"><\/script>/);
if (!entryTag?.[1]) throw new Error('dist/index.html has no entry script');
const [entryTagText, entry] = entryTag;
const { render } = (await import(new URL('prerender.js', ssrOut).href)) as {
  render: (path: string) => Promise<{ html: string; title: string | null }>;
};

const outDir = new URL('prerendered/', dist);
await rm(outDir, { recursive: true, force: true });
await mkdir(outDir, { recursive: true });
for (const page of pages) {
  const { html, title } = await render(page.path);
  // Until the app has taken its place (main.tsx), the markup is inert: nothing in it takes focus,
  // clicks or keys. Its fields are also read-only, which tells automation to wait for the live ones.
  const markup = html.replace(/<input /g, '<input readonly="" ');
  // The app starts once the page has painted (public/boot.js), its entry and the page's chunks
  // together.
  const chunks = chunksOf(manifest, page.modules).map((file) => `/${file}`);
  const boot = `<script defer src="/boot.js" data-entry="${entry}" data-chunks="${chunks.join(' ')}"></script>`;
  let document = shell
    .replace(entryTagText, boot)
    .replace('<div id="root"></div>', `<div id="root" data-prerendered="" inert="">${markup}</div>`);
  if (title) document = document.replace(/<title>[^<]*<\/title>/, `<title>${escapeHtml(title)}</title>`);
  const target = new URL(page.file, outDir);
  await writeFile(target, document);
  await writeFile(
    new URL(`${page.file}.br`, outDir),
    brotliCompressSync(document, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
  );
  await writeFile(new URL(`${page.file}.gz`, outDir), gzipSync(document, { level: 9 }));
  console.log(
    `prerendered ${page.path} → dist/prerendered/${page.file} (${(document.length / 1024).toFixed(1)} kB)`,
  );
}
// The manifest (and the copies the compression plugin made of it) served no visitor.
await rm(new URL('.vite/', dist), { recursive: true, force: true });
await rm(ssrOut, { recursive: true, force: true });
