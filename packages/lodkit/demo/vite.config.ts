import { defineConfig } from 'vite';

// The demo is a static site: `npm run demo` serves it, `npm run demo:build` writes demo/dist.
export default defineConfig({
  root: import.meta.dirname,
  base: './',
  build: { outDir: 'dist', emptyOutDir: true, chunkSizeWarningLimit: 1500 },
  server: { host: '127.0.0.1' },
  preview: { host: '127.0.0.1' },
});
