import { defineConfig } from 'vite';

// Built by bench/startup.browser.bench.ts into test-artifacts/bench-startup (a production build,
// minified, as an app ships it).
export default defineConfig({ root: import.meta.dirname, base: './', build: { target: 'es2022', chunkSizeWarningLimit: 4000 }, logLevel: 'error' });
