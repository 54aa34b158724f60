import { defineConfig } from 'vitest/config';
import base from '../vitest.config.js';

// Benchmarks run as single long "tests" so that every variant is measured in one process, with the
// package's resolution of r3f (its ES build, one three).
export default defineConfig({
  oxc: base.oxc,
  resolve: base.resolve,
  test: { include: ['bench/**/*.bench.tsx'], setupFiles: ['test/setup/act.ts'], testTimeout: 900_000, fileParallelism: false },
});
