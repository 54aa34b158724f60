import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const dist = fileURLToPath(new URL('../dist/', import.meta.url));

// Benchmarks run as single long "tests" so that every variant is measured in one process.
// They measure the BUILT package (`npm run build` first; the bench scripts do it), loaded by Node
// itself like the peers in node_modules: a bench's `../src/x.js` import resolves to `dist/x.js`, and
// dist/ is not run through vitest's module runner, which turns every use of an imported binding
// into a getter call (the layout constants in the per-cluster loops: LodSet.update at 1M objects
// 3.6 ms that way, ≈ 2 ms natively).
export default defineConfig({
  resolve: { alias: [{ find: /^\.\.\/src\/(.*)$/, replacement: `${dist}$1` }] },
  test: {
    include: ['bench/**/*.bench.ts'], testTimeout: 600_000, fileParallelism: false,
    setupFiles: ['bench/kernelsReady.setup.ts'],
    server: { deps: { external: [/\/packages\/lodkit\/dist\//] } },
  },
});
