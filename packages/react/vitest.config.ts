import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { defineConfig } from 'vitest/config';

const require = createRequire(import.meta.url);
/** A package's ES build (its `module` field), for packages that only point `main` at CommonJS. */
const esm = (name: string): string => {
  const manifest = require.resolve(`${name}/package.json`);
  return join(dirname(manifest), (require(manifest) as { module: string }).module);
};

// `npm test` runs every test file but the full-size ones (`*.full.test.ts`); `npm run test:full`
// (LODKIT_TEST_FULL=1) runs only those, as packages/lodkit does. fast-check gets the suite's one
// seed from lodkit's setup file.
const FULL = process.env.LODKIT_TEST_FULL === '1';

export default defineConfig({
  oxc: { jsx: { runtime: 'automatic' } },
  resolve: {
    alias: [
      { find: /^@react-three\/fiber$/, replacement: esm('@react-three/fiber') },
      { find: /^@react-three\/test-renderer$/, replacement: esm('@react-three/test-renderer') },
    ],
  },
  test: {
    name: '@lodkit/react',
    include: FULL ? ['test/**/*.full.test.ts'] : ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    exclude: FULL ? [] : ['test/**/*.full.test.ts'],
    setupFiles: ['../lodkit/test/setup/vitest.setup.ts', 'test/setup/kernels.ts', 'test/setup/act.ts', 'test/setup/policies.ts'],
    testTimeout: 60_000,
    // The r3f packages ship CommonJS `main` files that require three's CommonJS build: a second
    // copy of three, whose objects fail lodkit's `instanceof Object3D`. Processed by Vite they
    // resolve their ES `module` builds and the one ES three.
    server: { deps: { inline: [/@react-three\//] } },
  },
});
