// Per test file: fast-check's seed (fastCheckSeed.ts), and the WebAssembly kernels compiled before
// any set is built, so every test's sets run them from their first frame as they did when the
// kernels compiled synchronously (the frames before they arrive: test/batch/kernelsLater.test.ts).
import { configureFastCheck } from './fastCheckSeed.js';
import { kernelsReady } from '../../src/batch/wasm/wasmKernels.js';

configureFastCheck();
await kernelsReady();
