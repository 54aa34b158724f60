import { defineConfig } from 'vite';

// Built by test/e2e/gpuInstanced.test.ts into test-artifacts/gpu-instanced-dist.
export default defineConfig({ root: import.meta.dirname, base: './', build: { target: 'es2022', chunkSizeWarningLimit: 4000 }, logLevel: 'error' });
