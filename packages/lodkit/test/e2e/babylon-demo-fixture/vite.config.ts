import { resolve } from 'node:path';
import { defineConfig } from 'vite';

// Built by test/e2e/babylonDemo.test.ts into test-artifacts/babylon-demo-dist: the demo's
// babylon.html page alone (demo/vite.config.ts builds it with the three.js pages).
const demo = resolve(import.meta.dirname, '../../../demo');
export default defineConfig({
  root: demo, base: './', logLevel: 'error',
  build: { target: 'es2022', chunkSizeWarningLimit: 4000, rollupOptions: { input: { babylon: resolve(demo, 'babylon.html') } } },
});
