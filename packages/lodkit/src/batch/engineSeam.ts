/**
 * The engine seam: what tests and the bench may reach inside a `LodSet`, in one documented place,
 * instead of casting into its private fields. Internal: not exported by the package (neither
 * `src/index.ts` nor `package.json` `exports`), and free to change with the engine.
 *
 * - {@link engineOf}: the set's {@link SetEngine} — its `FrameState` (`st`), `ClusterIndex` (`ci`),
 *   `ClusterViews` (`cv`), profile table, thread chooser… — for engine probes (`fusedCounters`,
 *   `rankCutsOf`, `owedBlendCount`, the slot arrays). Read it; a write changes the set's frames.
 * - {@link newLodSet}: a set with its own WebAssembly choice (kernels on/off, fused kernel on/off),
 *   kept for its lifetime (also when `setThreads` moves it to shared memory), whatever the module
 *   defaults `setWasmKernels` / `setFusedKernel` say before or after. Results are identical either
 *   way (only the path differs), with one documented exception: hybrid frames without `exactSizes`
 *   skip different clusters whole (the fused kernel settles more), so an object of a skipped
 *   cluster may keep its `sizes` value from a different earlier frame; levels, blend, the changed
 *   set and stats are identical, and with `exactSizes: true` the sizes too.
 * - {@link setThreadSchedule}: pins the thread split of worker-thread mode — every clustered frame
 *   threaded (or single), and how the workers take part — so that tests see one split on every run.
 * - {@link threadModeLoaded}: awaits the worker-thread code that `setThreads(n > 1)` loads (a
 *   dynamic `import()`), after which the set's workers run: await it before expecting threaded frames.
 * - {@link kernelsOf}: which kernels a set runs now.
 * - {@link withoutRegisteredPolicies}: runs a function as an app that registered no policy would
 *   (the test suite registers every policy in its set-up file).
 *
 * @example
 * ```ts
 * const set = newLodSet(1024, { wasm: false }); // the JavaScript kernels, for this set only
 * set.setThreads(2);
 * await threadModeLoaded(set);                 // the workers have started
 * setThreadSchedule(set, 'threaded');          // every clustered thresholds frame threaded
 * set.update(view, { policy: 'thresholds' });
 * fusedCounters(engineOf(set).ci);              // an engine probe
 * ```
 *
 * @internal
 * @module
 */
import { LodSet } from './lodSet.js';
import { engineOfSet, type SetEngine } from './setEngine.js';
import { scheduleThreads, threadModeArrival } from './workerMode.js';
import { chooseKernels } from './wasm/wasmKernels.js';
import type { WorkerSchedule } from './core/threadChooser.js';
import { clearPolicies, registerPolicies } from './policyRegistry.js';
import { hybridBindingOf } from './passes/hybridBinding.js';

export type { SetEngine } from './setEngine.js';
export type { WorkerSchedule } from './core/threadChooser.js';

/**
 * The internals of `set` (one object; the same object for the set's whole life, its arrays are
 * replaced when the set grows: read them after `add` / `addMany` / `setThreads`).
 * @internal
 */
export function engineOf(set: LodSet): SetEngine {
  return engineOfSet(set);
}

/**
 * Which WebAssembly kernels one set runs (see {@link newLodSet}): an omitted field is on; where
 * WebAssembly SIMD is missing the JavaScript kernels run whatever the choice.
 * @internal
 */
export interface WasmChoice {
  /** The WebAssembly kernels at all (false: the JavaScript kernels). */
  wasm?: boolean;
  /** The fused metric + decision kernel (false: the WebAssembly metric kernel, JavaScript decisions). */
  fused?: boolean;
  /**
   * Keep the JavaScript kernels on the kernel memory until {@link releaseKernels} — a set built
   * before the WebAssembly modules arrive (wasmKernels.ts `kernelsReady`), on demand.
   */
  held?: boolean;
}

/**
 * `new LodSet(initialCapacity)` with its own WebAssembly choice, in place of the module defaults
 * (`setWasmKernels` / `setFusedKernel`, which stay as they were).
 * @internal
 */
export function newLodSet(initialCapacity: number, kernels: WasmChoice): LodSet {
  const before = chooseKernels({ wasm: kernels.wasm ?? true, fused: kernels.fused ?? true, held: kernels.held ?? false });
  try {
    return new LodSet(initialCapacity);
  } finally {
    chooseKernels(before);
  }
}

/**
 * The kernels `set` runs now: `wasm` the WebAssembly kernels (false: none, or dropped after a frame
 * with more views than they take), `fused` the fused kernel among them.
 * @internal
 */
export function kernelsOf(set: LodSet): { wasm: boolean; fused: boolean } {
  const k = engineOfSet(set).ci.wasm;
  return { wasm: k !== null, fused: k !== null && k.fused !== null };
}

/**
 * Lets a set built with `held: true` ({@link newLodSet}) attach its WebAssembly kernels at its next
 * `update`, as a set built before the modules arrived does once they are compiled.
 * @internal
 */
export function releaseKernels(set: LodSet): void {
  engineOfSet(set).ci.releaseKernels();
}

/**
 * What the last budget frame of `set` drew (passes/budgetRegime.ts): `'thresholds'` the
 * thresholds' selection (it fitted), `'knapsack'` the least screen-space error that fits,
 * `'coarsest'` every object at its coarsest allowed level (below the minimum cost).
 * @internal
 */
export function budgetRegimeOf(set: LodSet): 'thresholds' | 'knapsack' | 'coarsest' {
  const r = engineOfSet(set).sse.regime.drawn;
  return r === 0 ? 'thresholds' : r === 1 ? 'knapsack' : 'coarsest';
}

/**
 * Pins the thread split of worker-thread mode (`LodSet.setThreads`): `frames` 'threaded' runs every
 * clustered thresholds frame threaded, 'single' on the calling thread alone, 'adaptive' as in use
 * (the timed choice of threadChooser.ts); `workers` how the workers take part in threaded frames
 * ('free' as in use, 'absent', 'first', 'holdFirst': threads.ts `setWorkerSchedule`). Kept across
 * `setThreads` and growth; results never depend on it, only the split does. (The same as the set's
 * own `setThreadSchedule`, which stays for the builds bench/replay.mjs compares.)
 * @internal
 */
export function setThreadSchedule(set: LodSet, frames: 'adaptive' | 'threaded' | 'single', workers: WorkerSchedule = 'free'): void {
  scheduleThreads(engineOfSet(set), frames, workers);
}

/**
 * Settles once the worker-thread code that `set.setThreads(n > 1)` asked for has loaded and the
 * set's workers have started (when it still runs more than one thread and has profiles); at once
 * when nothing is pending (one thread, or the code loaded before: `setThreads` then starts the
 * workers itself). Never rejects: an error starting the workers is thrown by the set's next `update`.
 * @internal
 */
export function threadModeLoaded(set: LodSet): Promise<void> {
  return threadModeArrival(engineOfSet(set));
}

/** Runs `fn` with no policy registered (only `'thresholds'` and policy objects work), then restores the registrations. @internal */
export function withoutRegisteredPolicies<T>(fn: () => T): T {
  const before = clearPolicies();
  try {
    return fn();
  } finally {
    registerPolicies(before);
  }
}

/**
 * Switches hybrid's binding pass (passes/hybridBinding.ts) on or off for `set` (on by default): off,
 * every hybrid frame takes clusterDrivers.ts `clusteredHybrid`'s passes, as the tests of those passes'
 * cluster shortcuts need. Results never depend on it.
 * @internal
 */
export function setHybridBindingPass(set: LodSet, on: boolean): void {
  hybridBindingOf(engineOfSet(set).ci).enabled = on;
}
