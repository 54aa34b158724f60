/**
 * Loader of the WebAssembly SIMD kernels (wasm/heightKernel.wat and wasm/fusedKernel.wat, embedded
 * as bytes by scripts/generate.mjs): one instance of each, sharing one memory, per
 * {@link ClusterIndex}, which keeps its slot-ordered spheres, metric scratch and per-object state
 * (flags, forced level, level, blend) inside that memory so the kernels read and write them in
 * place. Where WebAssembly or its SIMD proposal is missing, or after `setWasmKernels(false)`, the
 * JavaScript kernels run instead (identical results).
 *
 * Contributor notes:
 * - Loaded and compiled asynchronously ({@link kernelsReady}): the bytes (≈ 16 kB of base64) stay
 *   out of an app's entry chunk and the compile off its main thread. The modules import their
 *   memory, so a set makes it when built ({@link newKernelMemory}) and lays its arrays out in it
 *   from the start; its frames run the JavaScript kernels on those arrays until the kernels are
 *   compiled, and the next frame instantiates them on that memory ({@link attachKernels}): nothing
 *   moves (moving 100k objects' arrays into a new memory cost 30–39 ms, bench/RESULTS.md).
 * - Memory layout (numbers: core/layout.ts, which feeds the WAT sources too): view parameters at
 *   [0, 16384) (32 doubles per view), the fused kernel's float32 plane splats at [16384, 49152) (512
 *   bytes per view), its frame block at {@link FUSED_BLOCK} (`FB_*` offsets; summary:
 *   {@link FusedKernel}), spheres from {@link SP_OFFSET}, then (clusters.ts) metric values,
 *   flags, forced levels, levels and blends, each padded by 4 slots (the fused kernel works on
 *   groups of 4 and may touch up to 3 slots past a cluster's end).
 *
 * @module
 */
import { SHARED_MAX_PAGES, sharedMemoryVariant } from './sharedWasm.js';

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
 * collection in the kernel 1344–1415 and its rows 2032–6175 (fusedCollect.ts); the budget
 * policy's classification (`budget`) 1424–1447, with those counts and rows (budgetKernel.ts).
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
  /** The budget policy's classification of slots `[start, end)` (wasm/budgetLanes.part.wat, passes/budgetKernel.ts). */
  budget(work: number, start: number, end: number): number;
  /** The same classification in hybrid's binding modes (the same source with the mode read from the frame block; passes/hybridBinding.ts). */
  budgetHybrid(work: number, start: number, end: number): number;
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

/** The compiled modules: null until {@link kernelsReady} settles, and after it where they do not compile. */
let compiled: WebAssembly.Module | null = null;
let compiledFused: WebAssembly.Module | null = null;
/** True once loading settled without kernels: sets built afterwards keep plain arrays. */
let missing = false;
/** Their bytes, kept for the shared-memory variants (worker-thread mode). */
let bytes: { height: Uint8Array<ArrayBuffer>; fused: Uint8Array<ArrayBuffer> } | null = null;
let loading: Promise<boolean> | null = null;
let enabled = true;
let fusedEnabled = true;

/**
 * Which WebAssembly kernels one set runs: `wasm` the kernels at all, `fused` the fused metric +
 * decision kernel (off: the WebAssembly metric kernel and the JavaScript decision kernels), `held`
 * a set that keeps the JavaScript kernels until told otherwise (engineSeam.ts `releaseKernels`), as
 * a set built before the modules arrive. Given per set through the engine seam (engineSeam.ts
 * `newLodSet`); results are identical either way.
 * @internal
 */
export interface KernelChoice {
  readonly wasm: boolean;
  readonly fused: boolean;
  readonly held?: boolean;
}

/** The choice of the set being built (null: the module defaults of `setWasmKernels` / `setFusedKernel`). */
let chosen: KernelChoice | null = null;

/**
 * Makes the sets built from now on (`ClusterIndex`) and those moving to worker-thread mode
 * (`makeShared`) follow `choice` instead of the module defaults (null: the defaults again) and
 * returns the choice it replaces, for the caller to put back. A set resolves the choice once, when
 * built, and keeps it (also for kernels that arrive later).
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

/** The choice in force with the module defaults filled in. */
export function resolvedKernels(): KernelChoice {
  return chosen === null ? { wasm: enabled, fused: fusedEnabled } : chosen;
}

/**
 * Loads and compiles the WebAssembly kernels, once per process; resolves to whether they compiled
 * (false where WebAssembly or its SIMD proposal is missing). The bytes come by a dynamic `import()`
 * (a chunk of their own in a bundled app) and compile with `WebAssembly.compile`, off the main
 * thread where the engine allows. Every set starts loading them; until they are ready its frames
 * run the JavaScript kernels (identical results), and the first frame after attaches the kernels to
 * the memory the set's arrays already live in (nothing moves). When they arrive after the first set
 * was built, the engine's one-time JIT warm-up runs once more, for their path (≈ 5 ms, in the task
 * that settles this promise, not in a frame). Await it before timing frames, or to have the first
 * frames on the WebAssembly kernels.
 * @example
 * ```ts
 * import { kernelsReady, LodSet } from 'lodkit';
 * await kernelsReady(); // optional: frames before it run the JavaScript kernels
 * const set = new LodSet(100_000);
 * ```
 * @category Batch
 */
export function kernelsReady(): Promise<boolean> {
  if (loading === null) loading = load();
  return loading;
}

async function load(): Promise<boolean> {
  const wasm = (globalThis as { WebAssembly?: typeof WebAssembly }).WebAssembly;
  if (wasm === undefined || typeof wasm.compile !== 'function') { missing = true; return false; }
  try {
    const m = await import('./kernelBytes.js');
    const [h, f] = await Promise.all([wasm.compile(m.HEIGHT_KERNEL_WASM), wasm.compile(m.FUSED_KERNEL_WASM).catch(() => null)]);
    bytes = { height: m.HEIGHT_KERNEL_WASM, fused: m.FUSED_KERNEL_WASM };
    compiled = h; compiledFused = f;
  } catch {
    compiled = null; compiledFused = null; missing = true; // no SIMD, or compilation refused: the JavaScript kernels run
  }
  return compiled !== null;
}

/** True once the kernels are compiled and ready to attach. */
export function kernelsCompiled(): boolean {
  return compiled !== null;
}

/**
 * Turns the WebAssembly kernel on or off for sets created afterwards, and for sets without a
 * choice of their own that move to worker-thread mode afterwards (`setThreads`); for tests and
 * for comparing the two paths. Returns whether the kernel is compiled (false before
 * {@link kernelsReady} settles). (A choice for one set: engineSeam.ts `newLodSet`.)
 */
export function setWasmKernels(on: boolean): boolean {
  enabled = on;
  return compiled !== null;
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
  if (bytes === null) return null; // (not loaded yet: asked again when they are)
  compiledShared = null;
  try {
    const h = sharedMemoryVariant(bytes.height), f = sharedMemoryVariant(bytes.fused);
    if (h !== null && WebAssembly.validate(h)) {
      compiledShared = [new WebAssembly.Module(h), f !== null && WebAssembly.validate(f) ? new WebAssembly.Module(f) : null];
    }
  } catch {
    compiledShared = null;
  }
  return compiledShared;
}

/**
 * The memory a set's slot arrays live in when it may run the WebAssembly kernels (`choice.wasm`,
 * and the kernels not known to be missing), made before the kernels are compiled so that they
 * attach later without moving anything; starts loading them. `shared`: a shared memory (worker-
 * thread mode, see sharedWasm.ts). Null: plain arrays, the JavaScript kernels for good.
 */
export function newKernelMemory(choice: KernelChoice, shared: boolean): WebAssembly.Memory | null {
  if (!choice.wasm) return null;
  const wasm = (globalThis as { WebAssembly?: typeof WebAssembly }).WebAssembly;
  if (wasm === undefined || typeof wasm.Memory !== 'function') return null;
  void kernelsReady();
  if (missing) return null;
  try {
    return shared ? new wasm.Memory({ initial: 1, maximum: SHARED_MAX_PAGES, shared: true }) : new wasm.Memory({ initial: 1 });
  } catch {
    return null; // no shared memories (no cross-origin isolation): plain arrays
  }
}

/**
 * The kernels instantiated on `memory`, or null while they are not compiled (or missing). `shared`:
 * the memory is a shared one (the shared-memory variants of the modules).
 */
export function attachKernels(memory: WebAssembly.Memory, shared: boolean, choice: KernelChoice): HeightKernel | null {
  if (compiled === null) return null;
  let m: WebAssembly.Module | null, fm: WebAssembly.Module | null;
  if (shared) {
    const both = sharedModules();
    if (both === null) return null;
    [m, fm] = both;
  } else {
    m = compiled;
    fm = compiledFused;
  }
  const env = { env: { memory } };
  let k: HeightKernel;
  try {
    const e = new WebAssembly.Instance(m, env).exports as unknown as { heightPerspective: HeightKernel['heightPerspective'] };
    k = { memory, heightPerspective: e.heightPerspective, fused: null };
    if (choice.fused && fm !== null) {
      const x = new WebAssembly.Instance(fm, env).exports as unknown as FusedKernel;
      k.fused = {
        setup: x.setup, bind: x.bind, bindIds: x.bindIds, bindNext: x.bindNext, bindSizes: x.bindSizes, bindOwed: x.bindOwed, profile: x.profile, run: x.run, budget: x.budget, budgetHybrid: x.budgetHybrid,
        f64: new Float64Array(0), i32: new Int32Array(0),
      };
      remapFused(k);
    }
  } catch {
    return null;
  }
  return k;
}
