import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/** Client build: dist/; in dev, /api is proxied to the server on 127.0.0.1:8080. */
export default defineConfig({
  plugins: [react()],
  server: {
    host: '127.0.0.1',
    proxy: { '/api': { target: 'http://127.0.0.1:8080', changeOrigin: false } },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    chunkSizeWarningLimit: 1500,
  },
});
