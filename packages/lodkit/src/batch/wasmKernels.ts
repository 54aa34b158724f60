/**
 * Loader of the WebAssembly SIMD kernel (wasm/heightKernel.wat, embedded as bytes by
 * scripts/build-wasm.mjs): one instance, with its own memory, per {@link ClusterIndex}, which keeps
 * its slot-ordered spheres and metric scratch inside that memory so the kernel reads and writes
 * them in place. Where WebAssembly or its SIMD proposal is missing, or after
 * `setWasmKernels(false)`, the JavaScript kernels run instead (identical results).
 *
 * Contributor notes:
 * - Synchronous compile (`new WebAssembly.Module`): the module is < 2 kB, far below the size
 *   browsers allow on the main thread, and `LodSet` must work from its constructor on.
 * - Memory layout: view parameters at [0, VIEWS_BYTES) (32 doubles per view), spheres from
 *   {@link SP_OFFSET}, metric values after the spheres (8-byte aligned).
 *
 * @module
 */
import { HEIGHT_KERNEL_WASM } from './wasm/heightKernel.generated.js';

/** Views the kernel can take (per-view parameter blocks of 256 bytes). */
export const WASM_MAX_VIEWS = 64;
/** Byte offset of the spheres in a kernel instance's memory. */
export const SP_OFFSET = WASM_MAX_VIEWS * 256;

/** The exports of one kernel instance. */
export interface HeightKernel {
  memory: WebAssembly.Memory;
  heightPerspective(sp: number, work: number, start: number, end: number, mode: number, view: number, px: number, cull: number): void;
}

let compiled: WebAssembly.Module | null | undefined;
let enabled = true;

/**
 * Turns the WebAssembly kernel on or off for sets created (or grown) afterwards; for tests and
 * for comparing the two paths. Returns whether the kernel is available at all.
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

/** A new kernel instance, or null when WebAssembly SIMD is unavailable or turned off. */
export function newHeightKernel(): HeightKernel | null {
  if (!enabled) return null;
  const m = module();
  if (m === null) return null;
  return new WebAssembly.Instance(m, {}).exports as unknown as HeightKernel;
}
