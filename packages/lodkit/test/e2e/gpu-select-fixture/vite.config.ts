import { defineConfig } from 'vite';

// Built by test/e2e/gpuSelect.test.ts into test-artifacts/gpu-select-dist.
export default defineConfig({ root: import.meta.dirname, base: './', build: { target: 'es2022' }, logLevel: 'error' });
