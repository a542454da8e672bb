import path from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { buildablePages } from './pages.js';

/**
 * Production build of the bench-only pages (bench/console/pages/*.html → bench/console/dist).
 * They import the product's runtime and widgets from src/ exactly as the console does, so the
 * schema pages are built with the same code and settings as the shipped app.
 */
const here = path.dirname(fileURLToPath(import.meta.url));
// pages whose product parts have not landed yet are left out (see pages.ts)
const pages = buildablePages(path.resolve(here, '../..'), path.join(here, 'pages'));

export default defineConfig({
  root: here,
  base: '/',
  plugins: [react()],
  logLevel: 'warn',
  build: {
    outDir: path.join(here, 'dist'),
    emptyOutDir: true,
    chunkSizeWarningLimit: 10_000,
    reportCompressedSize: false,
    rollupOptions: { input: pages },
  },
});
