import { defineConfig } from 'vite';

// Built by test/e2e/msftLodGraph.full.test.ts into test-artifacts/msft-lod-graph-dist.
export default defineConfig({ root: import.meta.dirname, base: './', build: { target: 'es2022', chunkSizeWarningLimit: 4000 }, logLevel: 'error' });
