import { defineConfig } from 'vite';

// The WebGPU bench page: `npm run bench:webgpu` builds it into .bench-build/webgpu-page and opens it
// in headless Chromium; `npx vite bench/webgpu` serves it for a browser with a real GPU.
export default defineConfig({
  root: import.meta.dirname,
  base: './',
  build: { outDir: '../../.bench-build/webgpu-page', emptyOutDir: true, target: 'es2022' },
  server: { host: '127.0.0.1' },
  preview: { host: '127.0.0.1' },
  logLevel: 'error',
});
