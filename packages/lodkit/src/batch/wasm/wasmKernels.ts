/**
 * Loader of the WebAssembly SIMD kernels (wasm/heightKernel.wat and wasm/fusedKernel.wat, embedded
 * as bytes by scripts/generate.mjs): one instance of each, sharing one memory, per
 * {@link ClusterIndex}, which keeps its slot-ordered spheres, metric scratch and per-object state
 * (flags, forced level, level, blend) inside that memory so the kernels read and write them in
 * place. Where WebAssembly or its SIMD proposal is missing, or after `setWasmKernels(false)`, the
 * JavaScript kernels run instead (identical results).
 *
 * Contributor notes:
 * - Synchronous compile (`new WebAssembly.Module`): the module is < 2 kB, far below the size
 *   browsers allow on the main thread, and `LodSet` must work from its constructor on.
 * - Memory layout (numbers: core/layout.ts, which feeds the WAT sources too): view parameters at
 *   [0, 16384) (32 doubles per view), the fused kernel's float32 plane splats at [16384, 49152) (512
 *   bytes per view), its frame block at {@link FUSED_BLOCK} (`FB_*` offsets; summary:
 *   {@link FusedKernel}), spheres from {@link SP_OFFSET}, then (clusters.ts) metric values,
 *   flags, forced levels, levels and blends, each padded by 4 slots (the fused kernel works on
 *   groups of 4 and may touch up to 3 slots past a cluster's end).
 *
 * @module
 */
import { HEIGHT_KERNEL_WASM } from './heightKernel.generated.js';
import { FUSED_KERNEL_WASM } from './fusedKernel.generated.js';
import { sharedMemoryVariant } from './sharedWasm.js';

import { FB_BYTES, FUSED_BLOCK } from '../core/layout.js';

// The memory layout lives in core/layout.ts (one table for the TypeScript and the WAT sources);
// re-exported here for the modules that reach the kernels through this one.
export { FUSED_BLOCK, OWE_BLENDS, OWED_BLEND_COUNT, SP_OFFSET, WASM_MAX_VIEWS } from '../core/layout.js';

/**
 * The fused kernel's exports and views of its frame block (bytes from {@link FUSED_BLOCK}):
 * thresholds t' [0, 32) and blend thresholds b' [32, 64) as float64 (negated for distance, padded
 * with −∞), bias 64, culled marker 72; int32 n 80, nb 84, lo 88, hi 92, descending 96; outputs
 * uFrac 100, hidden 104, redo count 108, lanes re-checked in float64 (cumulative) 112, lanes on the
 * scalar exact path (cumulative) 116, slots redone in JavaScript (cumulative) 120, slots held by
 * hysteresis (finished by the kernel) 124,
 * per-level counts 128–159, redo slots (relative) 160–431 (the kernel itself stores the decided
 * slots' sizes — by id (`bindIds`) or in slot order (`bindSizes`) — and blends by id); hysteresis h (float64) 1024, holds
 * enabled (int32: h > 0 and no minFramesBetweenChanges) 1032, slots run (cumulative) 1036;
 * hybrid's first pass (int32: track = false and no minFramesBetweenChanges) 1296, (int32: the
 * kernel writes `next`/`fixed`, bound by `bindNext`) 1300, slots whose preferred level differs from
 * the displayed one (int32, per call) 1304, sizes in slot order (int32, `bindSizes`) 1308; held slots per level (int32) 1312–1331;
 * changed blends of steady slots owed instead of stored at their ids (int32, `bindOwed`) 1332, and
 * the number of owed slots listed (int32, kept across calls; owedBlends.ts) 1336; hybrid's
 * collection in the kernel 1344–1415 and its rows 2032–6175 (fusedCollect.ts).
 */
export interface FusedKernel {
  setup(views: number): void;
  bind(flags: number, forced: number, levels: number, blend: number): void;
  bindIds(slotId: number, sizes: number, blend: number): void;
  bindNext(next: number, fixed: number): void;
  bindSizes(sizes: number): void;
  bindOwed(owed: number, list: number): void;
  profile(): void;
  run(sp: number, work: number, start: number, end: number, views: number, code: number, cull: number): number;
  f64: Float64Array;
  i32: Int32Array;
}

/** The exports of one kernel instance. */
export interface HeightKernel {
  memory: WebAssembly.Memory;
  heightPerspective(sp: number, work: number, start: number, end: number, mode: number, view: number, px: number, cull: number): void;
  /** The fused metric + decision kernel on the same memory (null when turned off). */
  fused: FusedKernel | null;
}

let compiled: WebAssembly.Module | null | undefined;
let compiledFused: WebAssembly.Module | null | undefined;
let enabled = true;
let fusedEnabled = true;

/**
 * Which WebAssembly kernels one set runs: `wasm` the kernels at all, `fused` the fused metric +
 * decision kernel (off: the WebAssembly metric kernel and the JavaScript decision kernels). Given
 * per set through the engine seam (engineSeam.ts `newLodSet`); results are identical either way.
 * @internal
 */
export interface KernelChoice {
  readonly wasm: boolean;
  readonly fused: boolean;
}

/** The choice of the set being built (null: the module defaults of `setWasmKernels` / `setFusedKernel`). */
let chosen: KernelChoice | null = null;

/**
 * Makes {@link newHeightKernel} follow `choice` instead of the module defaults (null: the defaults
 * again) and returns the choice it replaces, for the caller to put back. Instances are only made
 * when a set is built (`ClusterIndex`) and when it moves to worker-thread mode (`makeShared`), so a
 * set that records its choice and puts it in force around both has its own kernels.
 * @internal
 */
export function chooseKernels(choice: KernelChoice | null): KernelChoice | null {
  const before = chosen;
  chosen = choice;
  return before;
}

/** The choice in force (null: the module defaults); a set records it when built. @internal */
export function chosenKernels(): KernelChoice | null {
  return chosen;
}

/**
 * Turns the WebAssembly kernel on or off for sets created afterwards, and for sets without a
 * choice of their own that move to worker-thread mode afterwards (`setThreads`); for tests and
 * for comparing the two paths. Returns whether the kernel is available at all. (A choice for one
 * set: engineSeam.ts `newLodSet`.)
 */
export function setWasmKernels(on: boolean): boolean {
  enabled = on;
  return module() !== null;
}

function module(): WebAssembly.Module | null {
  if (compiled !== undefined) return compiled;
  compiled = null;
  const wasm = (globalThis as { WebAssembly?: typeof WebAssembly }).WebAssembly;
  if (wasm === undefined || typeof wasm.validate !== 'function') return null;
  try {
    if (wasm.validate(HEIGHT_KERNEL_WASM)) compiled = new wasm.Module(HEIGHT_KERNEL_WASM);
  } catch {
    compiled = null; // no SIMD, or compilation refused: the JavaScript kernels run
  }
  return compiled;
}

/**
 * Turns the fused metric + decision kernel alone on or off for sets created afterwards (and, as
 * {@link setWasmKernels}, sets without a choice of their own that move to worker-thread mode)
 * (off: the WebAssembly metric kernel and the JavaScript decision kernels, the path before the
 * fused kernel); for the bench and tests.
 */
export function setFusedKernel(on: boolean): void {
  fusedEnabled = on;
}

function fusedModule(): WebAssembly.Module | null {
  if (compiledFused !== undefined) return compiledFused;
  compiledFused = null;
  try {
    if (WebAssembly.validate(FUSED_KERNEL_WASM)) compiledFused = new WebAssembly.Module(FUSED_KERNEL_WASM);
  } catch {
    compiledFused = null;
  }
  return compiledFused;
}

/** Re-creates the fused kernel's views of its frame block (after the memory grew). */
export function remapFused(k: HeightKernel): void {
  const f = k.fused;
  if (f === null) return;
  const buffer = k.memory.buffer;
  f.f64 = new Float64Array(buffer, FUSED_BLOCK, FB_BYTES / 8); // (8 kB: up to hybrid's collection rows, fusedCollect.ts)
  f.i32 = new Int32Array(buffer, FUSED_BLOCK, FB_BYTES / 4);
}

let compiledShared: [WebAssembly.Module, WebAssembly.Module | null] | null | undefined;

/** The shared-memory variants of both modules (sharedWasm.ts), or null where they do not compile. */
function sharedModules(): [WebAssembly.Module, WebAssembly.Module | null] | null {
  if (compiledShared !== undefined) return compiledShared;
  compiledShared = null;
  if (module() === null) return null;
  try {
    const h = sharedMemoryVariant(HEIGHT_KERNEL_WASM), f = sharedMemoryVariant(FUSED_KERNEL_WASM);
    if (h !== null && WebAssembly.validate(h)) {
      compiledShared = [new WebAssembly.Module(h), f !== null && WebAssembly.validate(f) ? new WebAssembly.Module(f) : null];
    }
  } catch {
    compiledShared = null;
  }
  return compiledShared;
}

/**
 * A new kernel instance, or null when WebAssembly SIMD is unavailable or turned off. `shared`:
 * the instance's memory is a shared one (worker-thread mode, see sharedWasm.ts); null where the
 * engine has no shared WebAssembly memories.
 */
export function newHeightKernel(shared = false): HeightKernel | null {
  if (!(chosen === null ? enabled : chosen.wasm)) return null;
  let m: WebAssembly.Module | null, fm: WebAssembly.Module | null;
  if (shared) {
    const both = sharedModules();
    if (both === null) return null;
    [m, fm] = both;
  } else {
    m = module();
    fm = m === null ? null : fusedModule();
  }
  if (m === null) return null;
  let e: { memory: WebAssembly.Memory; heightPerspective: HeightKernel['heightPerspective'] };
  try {
    e = new WebAssembly.Instance(m, {}).exports as unknown as typeof e;
  } catch {
    return null; // a shared memory refused (no cross-origin isolation): the JavaScript kernels run
  }
  const k: HeightKernel = { memory: e.memory, heightPerspective: e.heightPerspective, fused: null };
  if (!(chosen === null ? fusedEnabled : chosen.fused)) fm = null;
  if (fm !== null) {
    const x = new WebAssembly.Instance(fm, { env: { memory: e.memory } }).exports as unknown as FusedKernel;
    k.fused = {
      setup: x.setup, bind: x.bind, bindIds: x.bindIds, bindNext: x.bindNext, bindSizes: x.bindSizes, bindOwed: x.bindOwed, profile: x.profile, run: x.run,
      f64: new Float64Array(0), i32: new Int32Array(0), 
    };
    remapFused(k);
  }
  return k;
}
