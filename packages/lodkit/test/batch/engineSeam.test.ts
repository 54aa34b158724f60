/**
 * The engine seam (src/batch/engineSeam.ts), the one door of tests and the bench into a set's
 * internals: the engine object it hands out is the set's own, a WebAssembly choice given to one
 * set is that set's alone (for its whole life, worker-thread mode included) while the module
 * defaults keep their meaning for every other set, and a pinned thread schedule decides every
 * clustered frame's split.
 */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { LodSet, type LodUpdateOptions, type LodView } from '../../src/batch/lodSet.js';
import { engineOf, kernelsOf, newLodSet, setThreadSchedule, threadModeLoaded } from '../../src/batch/engineSeam.js';
import { setFusedKernel, setWasmKernels } from '../../src/batch/wasm/wasmKernels.js';
import { assertFreshDist } from '../helpers/dist.js';
import { camera, randomSpheres } from './helpers.js';

const PROFILE = { metric: 'screenHeight', thresholds: [0.3, 0.1, 0.03], blendThresholds: [0.25, 0.08, 0.02], costs: [50, 20, 5, 1] } as const;
const fill = (set: LodSet, n = 6000, seed = 3) => { set.addMany(randomSpheres(n, seed, 250, 0.3, 6), set.addProfile(PROFILE)); return set; };
const view = (f: number): LodView => ({ frustum: camera([f * 2, 6, 0], [60, 0, 150], 60), viewportHeight: 1080 });

describe('engine seam', () => {
  afterEach(() => { setWasmKernels(true); setFusedKernel(true); });

  it('engineOf hands out the set\'s own state: the arrays the set reports, the same object every call', () => {
    const set = fill(new LodSet(16));
    const e = engineOf(set);
    expect(engineOf(set)).toBe(e);
    set.update(view(0), { policy: 'thresholds' });
    expect(e.st.levels).toBe(set.levels);
    expect(e.st.spheres).toBe(set.spheres);
    expect(e.used).toBe(6000);
    // 6,000 objects of one batch in clusters of at most 64: at least 94 clusters.
    expect(e.ci.count).toBe(set.clusterStats.clusters);
    expect(e.ci.count).toBeGreaterThanOrEqual(94);
    expect(engineOf(new LodSet(1))).not.toBe(e);
    expect(() => engineOf({} as LodSet)).toThrow(/not a LodSet/);
  });

  it('newLodSet: WebAssembly on/off and the fused kernel for one set, the module defaults untouched', () => {
    expect(setWasmKernels(true)).toBe(true); // (this Node has WebAssembly SIMD)
    expect(kernelsOf(newLodSet(16, { wasm: false }))).toEqual({ wasm: false, fused: false });
    expect(kernelsOf(newLodSet(16, { fused: false }))).toEqual({ wasm: true, fused: false });
    expect(kernelsOf(newLodSet(16, {}))).toEqual({ wasm: true, fused: true });
    expect(kernelsOf(new LodSet(16))).toEqual({ wasm: true, fused: true }); // the defaults are still on
    // The module defaults keep their meaning for plain sets; a set's own choice overrides them.
    setWasmKernels(false);
    expect(kernelsOf(new LodSet(16))).toEqual({ wasm: false, fused: false });
    expect(kernelsOf(newLodSet(16, { wasm: true }))).toEqual({ wasm: true, fused: true });
    setWasmKernels(true);
    setFusedKernel(false);
    expect(kernelsOf(new LodSet(16))).toEqual({ wasm: true, fused: false });
    expect(kernelsOf(newLodSet(16, {}))).toEqual({ wasm: true, fused: true });
  });

  it('frames are identical whichever kernels a set was given (levels, blend, sizes, changed set, stats)', () => {
    const sets = [newLodSet(16, {}), newLodSet(16, { fused: false }), newLodSet(16, { wasm: false })].map((s) => fill(s, 20_000, 5));
    for (let f = 0; f < 12; f++) {
      const options: LodUpdateOptions = { policy: 'thresholds', hysteresis: f < 6 ? 0.1 : 0, minFramesBetweenChanges: f & 1 };
      const stats = sets.map((s) => { const r = s.update(view(f), options); return { ...r, levelCounts: Array.from(r.levelCounts) }; });
      const changed = sets.map((s) => Array.from(s.changed.subarray(0, s.changedCount)).sort((x, y) => x - y));
      for (let k = 1; k < sets.length; k++) {
        expect(stats[k], `frame ${f} set ${k}`).toEqual(stats[0]);
        expect(changed[k]).toEqual(changed[0]);
        expect(Array.from(sets[k].levels.subarray(0, 20_000))).toEqual(Array.from(sets[0].levels.subarray(0, 20_000)));
        expect(Array.from(sets[k].blend.subarray(0, 20_000))).toEqual(Array.from(sets[0].blend.subarray(0, 20_000)));
        expect(Array.from(sets[k].sizes.subarray(0, 20_000))).toEqual(Array.from(sets[0].sizes.subarray(0, 20_000)));
      }
    }
  });

  describe('worker-thread mode', () => {
    beforeAll(() => assertFreshDist()); // the workers run dist's worker module (threads.ts threadWorkerUrl)

    it('a set keeps its own choice in worker-thread mode; a plain set reads the defaults there as before', () => {
      const sets: LodSet[] = [];
      try {
        const off = fill(newLodSet(16, { wasm: false })), unfused = fill(newLodSet(16, { fused: false })), plain = fill(new LodSet(16));
        sets.push(off, unfused, plain);
        setWasmKernels(true); setFusedKernel(true);
        off.setThreads(2); unfused.setThreads(2);
        expect(kernelsOf(off)).toEqual({ wasm: false, fused: false });
        expect(kernelsOf(unfused)).toEqual({ wasm: true, fused: false });
        expect(engineOf(unfused).ci.sp.buffer).toBeInstanceOf(SharedArrayBuffer);
        setWasmKernels(false); // a set without a choice of its own takes the defaults of the moment it goes shared
        plain.setThreads(2);
        expect(kernelsOf(plain)).toEqual({ wasm: false, fused: false });
      } finally {
        for (const s of sets) s.dispose();
      }
    });

    it('setThreadSchedule pins every clustered thresholds frame threaded, or on the calling thread alone', async () => {
      const set = fill(new LodSet(16), 30_000, 7);
      set.setThreads(2);
      await threadModeLoaded(set); // the worker-thread code has arrived, the worker runs
      try {
        setThreadSchedule(set, 'threaded', 'first'); // the worker takes the first chunk of each threaded frame
        for (let f = 0; f < 4; f++) {
          set.update(view(f), { policy: 'thresholds' });
          expect(set.threadStats.threaded).toBe(true);
          expect(set.threadStats.callingThreadChunks).toBeLessThan(set.threadStats.chunks);
        }
        setThreadSchedule(set, 'single');
        for (let f = 4; f < 8; f++) {
          set.update(view(f), { policy: 'thresholds' });
          expect(set.threadStats.threaded).toBe(false);
        }
        expect(engineOf(set).threadMode?.forced).toBe(1);
      } finally {
        set.dispose();
      }
    });
  });
});
