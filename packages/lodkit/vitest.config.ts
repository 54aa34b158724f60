import { defineConfig } from 'vitest/config';
import { PROBES } from './vitest.probes.config.js';

// `npm test` runs every test file but the full-size ones (`*.full.test.ts`: the large browser
// scenes); `npm run test:full` (LODKIT_TEST_FULL=1) runs only those. CI runs both.
const FULL = process.env.LODKIT_TEST_FULL === '1';

export default defineConfig({
  test: {
    include: FULL ? ['test/**/*.full.test.ts'] : ['test/**/*.test.ts'],
    // (the allocation probes run in their own project: vitest.probes.config.ts)
    exclude: FULL ? [] : ['test/**/*.full.test.ts', ...PROBES],
    setupFiles: ['test/setup/vitest.setup.ts', 'test/setup/registerPolicies.ts'], // fast-check's seed, every policy registered
    testTimeout: 60_000,
  },
});
