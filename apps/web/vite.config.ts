import zlib from 'node:zlib';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { compression, defineAlgorithm } from 'vite-plugin-compression2';

const api = process.env.FOOTPRINT_API ?? 'http://127.0.0.1:3000';
/**
 * Where the build goes (WEB_OUT_DIR, under apps/web): `dist` for `npm start`; `npm run start:fakes`
 * builds into `dist-fakes`, so one never rewrites the folder the other is serving. The server-side
 * build (the prerender step's only) goes beside it, with `-ssr` added.
 */
const outDir = process.env.WEB_OUT_DIR || 'dist';

export default defineConfig(({ isSsrBuild }) => ({
  plugins: [
    react(),
    tailwindcss(),
    // Every text asset (index.html included) is written beside itself as .br and .gz at the highest
    // levels, once at build time; the server picks one by the browser's Accept-Encoding. Source maps
    // are left out (only served outside production), and so is anything that would not shrink.
    // The server-side build only renders pages at build time (scripts/prerender.ts): never served.
    !isSsrBuild &&
      compression({
        include: /\.(html|css|js|mjs|svg|json|txt|webmanifest)$/,
        threshold: 512,
        algorithms: [
          defineAlgorithm('brotliCompress', { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }),
          defineAlgorithm('gzip', { level: 9 }),
        ],
        logLevel: 'silent',
      }),
  ],
  resolve: {
    // react-toastify's main entry injects a <style> element at run time, which the strict CSP
    // (style-src 'self') refuses; the unstyled build plus the CSS file imported in main.tsx is the same UI.
    alias: [{ find: /^react-toastify$/, replacement: 'react-toastify/unstyled' }],
  },
  server: {
    proxy: {
      '/api': api,
      // Only the POST is the API; a GET of /forgot-password is the page itself.
      '/forgot-password': { target: api, bypass: (req) => (req.method === 'POST' ? undefined : req.url) },
      '/sanctum': api,
      '/dev': api,
    },
  },
  build: {
    outDir: isSsrBuild ? `${outDir}-ssr` : outDir,
    sourcemap: true,
    // Which chunk holds which route module, for the prerendered pages' modulepreload hints
    // (scripts/prerender.ts reads it, then deletes it).
    manifest: !isSsrBuild,
  },
}));
