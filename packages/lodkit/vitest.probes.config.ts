import { defineConfig } from 'vitest/config';

/**
 * The allocation probes (garbage per frame read from V8's young generation) in their own project,
 * in processes started with `--single-threaded`: V8 then compiles optimised code on the main
 * thread at the moment a function becomes hot instead of on a background thread whenever that
 * thread gets a core. The tier a measured frame runs in is then fixed by the code and its inputs,
 * not by the load on the machine (a lagging background compiler once left a whole measurement
 * in a lower tier, boxing doubles: ~7 kB/frame; see test/batch/allocation.test.ts). Run one with
 * `npx vitest run --config vitest.probes.config.ts test/batch/allocation.test.ts`.
 */
export const PROBES = [
  'test/batch/allocation.test.ts',
  'test/batch/threadsAllocation.test.ts',
  'test/adapters/three/allocation.test.ts',
  'test/adapters/three/instancedAllocation.test.ts',
];

export default defineConfig({
  test: {
    name: 'lodkit-probes',
    include: process.env.LODKIT_TEST_FULL === '1' ? [] : PROBES,
    passWithNoTests: true,
    setupFiles: ['test/setup/vitest.setup.ts', 'test/setup/registerPolicies.ts'],
    execArgv: ['--single-threaded'],
    testTimeout: 60_000,
  },
});
