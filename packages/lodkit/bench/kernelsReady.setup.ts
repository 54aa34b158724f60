// The vitest benches time frames from their first one: the WebAssembly kernels, which compile
// asynchronously (src/batch/wasm/wasmKernels.ts), are ready before any set is built. (`../src/` is
// the built package here, as for the benches themselves: vitest.config.ts.)
import { kernelsReady } from '../src/batch/wasm/wasmKernels.js';

await kernelsReady();
