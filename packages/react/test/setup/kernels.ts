// lodkit's WebAssembly kernels compiled before any test builds a set. These tests import lodkit's
// build (`lodkit`), a module instance of its own: the await in lodkit's setup file covers its
// sources only. Without it the kernels settle during some test, and the engine's warm-up then runs
// once more (warmUp.ts) — 16 `LodSet.update` calls of private sets inside whatever frame a test
// is counting.
import { kernelsReady } from 'lodkit';

await kernelsReady();
