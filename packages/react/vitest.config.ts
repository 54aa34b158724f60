import { defineConfig } from 'vitest/config';

// `npm test` runs every test file but the full-size ones (`*.full.test.ts`); `npm run test:full`
// (LODKIT_TEST_FULL=1) runs only those, as packages/lodkit does. fast-check gets the suite's one
// seed from lodkit's setup file.
const FULL = process.env.LODKIT_TEST_FULL === '1';

export default defineConfig({
  oxc: { jsx: { runtime: 'automatic' } },
  test: {
    name: '@lodkit/react',
    include: FULL ? ['test/**/*.full.test.ts'] : ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    exclude: FULL ? [] : ['test/**/*.full.test.ts'],
    setupFiles: ['../lodkit/test/setup/vitest.setup.ts'],
    testTimeout: 60_000,
  },
});
