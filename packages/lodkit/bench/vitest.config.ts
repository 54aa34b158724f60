import { defineConfig } from 'vitest/config';

// Benchmarks run as single long "tests" so that every variant is measured in one process.
export default defineConfig({
  test: { include: ['bench/**/*.bench.ts'], testTimeout: 600_000, fileParallelism: false },
});
