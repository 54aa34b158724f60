import { defineConfig } from 'vitest/config';

// (no full-size files here: `npm run test:full` runs nothing in this package)
const FULL = process.env.LODKIT_TEST_FULL === '1';

export default defineConfig({
  test: {
    include: FULL ? ['test/**/*.full.test.ts'] : ['test/**/*.test.ts'],
    exclude: FULL ? [] : ['test/**/*.full.test.ts'],
    passWithNoTests: FULL,
    setupFiles: ['../lodkit/test/setup/vitest.setup.ts'], // the suite's one fast-check seed
    testTimeout: 60_000,
  },
});
