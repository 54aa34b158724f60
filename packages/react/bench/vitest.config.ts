import { defineConfig } from 'vitest/config';
import base from '../vitest.config.js';

// Benchmarks run as single long "tests" so that every variant is measured in one process, with the
// package's resolution of r3f (its ES build, one three). lodkit's build is loaded by Node itself, as
// drei, r3f and three are (vitest's module runner would turn each use of an imported binding into a
// getter call: it doubled `LodSet.update` here). Build lodkit first (`npm run build -w lodkit`).
export default defineConfig({
  oxc: base.oxc,
  resolve: base.resolve,
  test: { include: ['bench/**/*.bench.tsx'], setupFiles: ['test/setup/act.ts'], testTimeout: 900_000, fileParallelism: false, server: { deps: { external: [/\/packages\/lodkit\/dist\//] } } },
});
