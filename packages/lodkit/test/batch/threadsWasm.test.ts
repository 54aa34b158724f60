/**
 * Worker-thread mode keeps the WebAssembly kernels on the calling thread: the kernel instance's
 * memory is a shared one (sharedWasm.ts rewrites the embedded modules' memory limits), so its slot
 * arrays are the workers' too. Checks the rewrite itself and that a threaded frame runs the fused
 * kernel on the calling thread (with identical results: threads.test.ts, threadsStall.test.ts).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { LodSet } from '../../src/batch/lodSet.js';
import { engineOf, threadModeLoaded } from '../../src/batch/engineSeam.js';
import { fusedCounters } from '../../src/batch/passes/fusedPass.js';
import { SHARED_MAX_PAGES, sharedMemoryVariant } from '../../src/batch/wasm/sharedWasm.js';
import { HEIGHT_KERNEL_WASM } from '../../src/batch/wasm/heightKernel.generated.js';
import { FUSED_KERNEL_WASM } from '../../src/batch/wasm/fusedKernel.generated.js';
import { assertFreshDist } from '../helpers/dist.js';
import { camera, randomSpheres } from './helpers.js';

describe('shared-memory WebAssembly kernels (worker-thread mode)', () => {
  beforeAll(() => assertFreshDist()); // the workers run dist's worker module (threads.ts threadWorkerUrl)
  it('the rewritten modules import a shared memory and export the same functions', () => {
    const h = sharedMemoryVariant(HEIGHT_KERNEL_WASM);
    const f = sharedMemoryVariant(FUSED_KERNEL_WASM);
    expect(h).not.toBeNull();
    expect(f).not.toBeNull();
    const hm = new WebAssembly.Module(h as Uint8Array<ArrayBuffer>), fm = new WebAssembly.Module(f as Uint8Array<ArrayBuffer>);
    const names = (m: WebAssembly.Module) => WebAssembly.Module.exports(m).map((e) => `${e.name}:${e.kind}`).sort();
    expect(names(hm)).toEqual(names(new WebAssembly.Module(HEIGHT_KERNEL_WASM)));
    expect(names(fm)).toEqual(names(new WebAssembly.Module(FUSED_KERNEL_WASM)));
    // Both import their memory (the set's, made before they compile): the variants take a shared one only.
    const memory = new WebAssembly.Memory({ initial: 1, maximum: SHARED_MAX_PAGES, shared: true });
    expect(memory.buffer).toBeInstanceOf(SharedArrayBuffer);
    for (const m of [hm, fm]) {
      expect(() => new WebAssembly.Instance(m, { env: { memory } })).not.toThrow();
      expect(() => new WebAssembly.Instance(m, { env: { memory: new WebAssembly.Memory({ initial: 1 }) } })).toThrow();
    }
    // The original modules take the unshared one.
    expect(() => new WebAssembly.Instance(new WebAssembly.Module(HEIGHT_KERNEL_WASM), { env: { memory: new WebAssembly.Memory({ initial: 1 }) } })).not.toThrow();
    // Growing within the declared maximum keeps it shared (no detach).
    memory.grow(2);
    expect(memory.buffer.byteLength).toBeGreaterThanOrEqual(3 * 65536);
    expect(SHARED_MAX_PAGES).toBe(65536);
  });

  it('bytes that are not a WebAssembly module give null', () => {
    expect(sharedMemoryVariant(new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8]))).toBeNull();
    expect(sharedMemoryVariant(HEIGHT_KERNEL_WASM.subarray(0, 20))).toBeNull(); // truncated
  });

  it('a threaded frame runs the fused kernel on the calling thread over the shared slot arrays', async () => {
    const set = new LodSet(64);
    set.setThreads(2);
    try {
      const p = set.addProfile({ metric: 'screenHeight', thresholds: [0.3, 0.1, 0.03], blendThresholds: [0.25, 0.08, 0.02] });
      set.addMany(randomSpheres(40_000, 3, 250, 0.3, 6), p);
      await threadModeLoaded(set); // (the worker-thread code arrives by a dynamic import)
      const inner = engineOf(set);
      expect(inner.ci.wasm).not.toBeNull();
      expect(inner.ci.sp.buffer).toBeInstanceOf(SharedArrayBuffer);
      expect(inner.ci.levelsS.buffer).toBe(inner.ci.wasm?.memory.buffer);
      const before = fusedCounters(inner.ci).lanes;
      set.setThreadSchedule('threaded', 'holdFirst'); // the worker does one chunk, the calling thread the rest
      for (let frame = 0; frame < 3; frame++) {
        set.update({ frustum: camera([frame, 6, 0], [60, 0, 150], 60) }, { policy: 'thresholds' });
        expect(set.threadStats.threaded).toBe(true);
        expect(set.threadStats.chunks).toBeGreaterThan(1);
        expect(set.threadStats.callingThreadChunks).toBe(set.threadStats.chunks - 1);
      }
      expect(fusedCounters(inner.ci).lanes).toBeGreaterThan(before);
    } finally {
      set.dispose();
    }
  });
});
