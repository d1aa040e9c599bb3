import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The admin app: built into dist/admin, served by `cms serve` at /admin (src/http/admin-static.ts).
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/admin/',
  plugins: [react()],
  build: {
    outDir: fileURLToPath(new URL('../../dist/admin', import.meta.url)),
    emptyOutDir: true,
    assetsDir: 'assets',
    // The strict CSP allows no inline script or style: Vite's module preload polyfill is inline-free,
    // and assets are never inlined as data: URLs into scripts.
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    reportCompressedSize: false,
  },
});
