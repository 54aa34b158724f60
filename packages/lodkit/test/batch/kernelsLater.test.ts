/**
 * The WebAssembly kernels arrive after the set is built (wasmKernels.ts `kernelsReady`: the bytes
 * come by a dynamic import and compile asynchronously). Until then the set's frames run the
 * JavaScript kernels on arrays that already live in the kernel memory; the first frame after they
 * are compiled attaches them there. Frames before, at and after the switch equal those of a set
 * that had the kernels from its first frame and of one that never has them — for every policy,
 * and in worker-thread mode — and nothing moves when the kernels attach.
 */
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { LodSet, type LodUpdateOptions, type LodView } from '../../src/batch/lodSet.js';
import { engineOf, kernelsOf, newLodSet, releaseKernels, setThreadSchedule, threadModeLoaded } from '../../src/batch/engineSeam.js';
import { assertFreshDist } from '../helpers/dist.js';
import { camera, randomSpheres } from './helpers.js';

const N = 12_000;
const PROFILE = { metric: 'pixels', thresholds: [220, 70, 20], blendThresholds: [180, 55, 15], costs: [900, 300, 80, 10] } as const;
const fill = (set: LodSet) => { set.addMany(randomSpheres(N, 11, 300, 0.3, 6), set.addProfile(PROFILE)); return set; };
const view = (f: number): LodView => ({ frustum: camera([f * 3 - 20, 7, f], [40, 0, 160], 60), viewportHeight: 1080 });

/** Per policy, the frame's options (budgets that bind on this scene). */
const POLICIES: Record<string, (f: number) => LodUpdateOptions> = {
  thresholds: (f) => ({ policy: 'thresholds', hysteresis: f < 8 ? 0.1 : 0 }),
  rankQuota: () => ({ policy: 'rankQuota', quotas: [300, 900, 2500] }),
  budget: (f) => ({ policy: 'budget', budget: 1_200_000 + f * 20_000 }),
  hybrid: (f) => ({ policy: 'hybrid', budget: 1_000_000 + f * 30_000, hysteresis: 0.1 }),
};

/** Everything a frame reports: stats, the changed ids as a set, levels, blends and sizes. */
function frameOf(set: LodSet, options: LodUpdateOptions, f: number) {
  const s = set.update(view(f), options);
  return {
    stats: { ...s, levelCounts: Array.from(s.levelCounts) },
    changed: Array.from(set.changed.subarray(0, set.changedCount)).sort((a, b) => a - b),
    levels: Array.from(set.levels.subarray(0, N)),
    blend: Array.from(set.blend.subarray(0, N)),
    sizes: Array.from(set.sizes.subarray(0, N)),
  };
}

describe('WebAssembly kernels that arrive after the set is built', () => {
  for (const [name, options] of Object.entries(POLICIES)) {
    it(`${name}: frames before, at and after the kernels attach equal those with them from the start and without them`, () => {
      const later = fill(newLodSet(16, { held: true })), from = fill(newLodSet(16, {})), never = fill(newLodSet(16, { wasm: false }));
      const spheres = engineOf(later).ci.sp, sizes = later.sizes;
      expect(spheres.buffer).not.toBeInstanceOf(SharedArrayBuffer);
      for (let f = 0; f < 14; f++) {
        if (f === 5) releaseKernels(later);
        const expected = frameOf(from, options(f), f);
        expect(frameOf(later, options(f), f), `frame ${f}`).toEqual(expected);
        expect(frameOf(never, options(f), f), `frame ${f} (JavaScript kernels)`).toEqual(expected);
        expect(kernelsOf(later)).toEqual(f < 5 ? { wasm: false, fused: false } : { wasm: true, fused: true });
      }
      // The arrays were in the kernel memory from the start: attaching moved none of them.
      expect(engineOf(later).ci.sp).toBe(spheres);
      expect(later.sizes).toBe(sizes);
    });
  }

  describe('worker-thread mode', () => {
    beforeAll(() => assertFreshDist()); // the workers run dist's worker module (threads.ts threadWorkerUrl)
    const sets: LodSet[] = [];
    afterEach(() => { for (const s of sets.splice(0)) s.dispose(); });

    it('a set that goes threaded before its kernels attach gets them on its shared memory; frames as a single-thread set', async () => {
      const later = fill(newLodSet(16, { held: true })), from = fill(newLodSet(16, {}));
      sets.push(later);
      later.setThreads(2);
      await threadModeLoaded(later);
      setThreadSchedule(later, 'threaded', 'first');
      for (let f = 0; f < 8; f++) {
        if (f === 3) releaseKernels(later);
        const options = POLICIES.thresholds(f);
        expect(frameOf(later, options, f), `frame ${f}`).toEqual(frameOf(from, options, f));
        expect(later.threadStats.threaded).toBe(true);
        expect(kernelsOf(later).wasm).toBe(f >= 3);
      }
      expect(engineOf(later).ci.sp.buffer).toBeInstanceOf(SharedArrayBuffer);
    });
  });

  it('in a fresh module graph the kernels load asynchronously: a set runs the JavaScript kernels until kernelsReady() resolves, then attaches them', async () => {
    vi.resetModules(); // the modules as a page first loads them: nothing compiled yet
    const lod = await import('../../src/batch/lodSet.js');
    const seam = await import('../../src/batch/engineSeam.js');
    const wasm = await import('../../src/batch/wasm/wasmKernels.js');
    expect(wasm.kernelsCompiled()).toBe(false);
    const set = new lod.LodSet(16);
    set.addMany(randomSpheres(N, 11, 300, 0.3, 6), set.addProfile(PROFILE));
    const reference = fill(newLodSet(16, {}));
    const options: LodUpdateOptions = { policy: 'thresholds', hysteresis: 0.1 };
    expect(frameOf(set, options, 0)).toEqual(frameOf(reference, options, 0)); // (the first frame, synchronous: JavaScript kernels)
    expect(seam.kernelsOf(set).wasm).toBe(false);
    expect(await wasm.kernelsReady()).toBe(true);
    for (let f = 1; f < 4; f++) {
      expect(frameOf(set, options, f), `frame ${f}`).toEqual(frameOf(reference, options, f));
      expect(seam.kernelsOf(set)).toEqual({ wasm: true, fused: true });
    }
  });
});
