import { resolve } from 'node:path';
import { defineConfig } from 'vite';

// The demo is a static site: `npm run demo` serves it, `npm run demo:build` writes demo/dist.
export default defineConfig({
  root: import.meta.dirname,
  base: './',
  // Three pages: the MotoGP / forest demo, the GPU-driven one (gpu.html, WebGPU) and the Babylon.js one (babylon.html).
  build: {
    outDir: 'dist', emptyOutDir: true, chunkSizeWarningLimit: 1500, target: 'es2022',
    rollupOptions: { input: { main: resolve(import.meta.dirname, 'index.html'), gpu: resolve(import.meta.dirname, 'gpu.html'), babylon: resolve(import.meta.dirname, 'babylon.html') } },
  },
  server: { host: '127.0.0.1' },
  preview: { host: '127.0.0.1' },
});
