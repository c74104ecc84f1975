import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const api = process.env.FOOTPRINT_API ?? 'http://127.0.0.1:3000';

export default defineConfig({
  plugins: [react(), tailwindcss()],
  server: {
    proxy: {
      '/api': api,
      '/forgot-password': api,
      '/sanctum': api,
      '/dev': api,
    },
  },
  build: {
    outDir: 'dist',
    sourcemap: true,
  },
});
