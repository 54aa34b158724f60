import { defineConfig } from 'vitest/config';

/**
 * The allocation probes (garbage per frame read from V8's young generation) in their own project,
 * in processes started with `--single-threaded`: V8 then compiles optimised code on the main
 * thread at the moment a function becomes hot instead of on a background thread whenever that
 * thread gets a core. The tier a measured frame runs in is then fixed by the code and its inputs,
 * not by the load on the machine (a lagging background compiler once left a whole measurement
 * in a lower tier, boxing doubles: ~7 kB/frame; see test/batch/allocation.test.ts). And with a
 * quarter of V8's default interrupt budget (16384 bytes of bytecode run, not 67584, before a
 * function is considered for optimising): the per-frame glue (functions run once a frame, such as
 * `setStableFloor` or `validateUpdate`) is optimised within the warm-up too. With the default some
 * of it was still in the baseline tier in the measured window, where every double is a fresh heap
 * number: hybrid below the minimum read 176 B/frame at 100k against 80 at 10k only because the
 * larger set had called other functions often enough to optimise them (96 of the 128 B the
 * per-object check allows; now 112 / 80, and 0 / 0 on compiled output outside vitest). Run one with
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
    execArgv: ['--single-threaded', '--interrupt-budget=16384'],
    testTimeout: 60_000,
  },
});
