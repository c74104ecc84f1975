import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const api = process.env.FOOTPRINT_API ?? 'http://127.0.0.1:3000';

export default defineConfig({
  plugins: [react(), tailwindcss()],
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
    outDir: 'dist',
    sourcemap: true,
  },
});
