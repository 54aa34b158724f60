import { resolve } from 'node:path';
import { defineConfig } from 'vite';

// `npm run demo -w @lodkit/react` serves this folder; the e2e test builds it (test/e2e/example.test.ts).
// @lodkit/react and lodkit come from their sources, so the example needs no build step first.
const lodkit = resolve(import.meta.dirname, '../../lodkit/src');
export default defineConfig({
  root: import.meta.dirname,
  base: './',
  oxc: { jsx: { runtime: 'automatic' } },
  resolve: {
    alias: [
      { find: /^@lodkit\/react$/, replacement: resolve(import.meta.dirname, '../src/index.ts') },
      { find: /^lodkit\/three$/, replacement: resolve(lodkit, 'adapters/three/index.ts') },
      { find: /^lodkit$/, replacement: resolve(lodkit, 'index.ts') },
    ],
  },
  build: { target: 'es2022', chunkSizeWarningLimit: 4000 },
});
