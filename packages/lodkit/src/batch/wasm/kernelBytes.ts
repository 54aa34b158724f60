/**
 * The bytes of both WebAssembly modules, in one module that wasmKernels.ts imports dynamically: a
 * bundler puts them (≈ 16 kB of base64) in a chunk of their own that the page fetches after the
 * entry, while the JavaScript kernels serve the first frames.
 *
 * @module
 */
export { HEIGHT_KERNEL_WASM } from './heightKernel.generated.js';
export { FUSED_KERNEL_WASM } from './fusedKernel.generated.js';
