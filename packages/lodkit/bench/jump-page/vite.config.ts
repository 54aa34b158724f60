import { defineConfig } from 'vite';

// Built by bench/jump.browser.bench.ts into test-artifacts/bench-jump (a production build, minified).
export default defineConfig({ root: import.meta.dirname, base: './', build: { target: 'es2022', chunkSizeWarningLimit: 4000 }, logLevel: 'error' });
