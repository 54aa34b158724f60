/**
 * The one-time JIT warm-up (src/batch/warmUp.ts): it runs when the first LodSet is constructed, its
 * cost is measured, and running it between two frames of a set changes nothing in that set — its
 * twin, fed the same objects, edits and cameras without the warm-up in between, stays byte-equal
 * (levels, blend, sizes, changed ids, stats, cluster stats), with and without WebAssembly. When the
 * first set is built before the WebAssembly kernels compiled, it runs once more, on them, when they
 * arrive — before a later `await kernelsReady()` resumes — and never a third time.
 */
import { describe, expect, it, vi } from 'vitest';
import { LodSet, type LodUpdateOptions } from '../../src/batch/lodSet.js';
import { setWasmKernels } from '../../src/batch/wasm/wasmKernels.js';
import { runWarmUp, warmUpMs } from '../../src/batch/warmUp.js';
import { camera, lcg, randomSpheres } from './helpers.js';

const PROFILE = { metric: 'screenHeight' as const, thresholds: [0.3, 0.1, 0.03], blendThresholds: [0.25, 0.08, 0.02], costs: [50, 12, 3, 1] };

function bytes(a: ArrayBufferView, n: number, per: number): number[] {
  return Array.from(new Uint8Array(a.buffer, a.byteOffset, n * per));
}

describe('warm-up', () => {
  it('has run once the first set exists, and reports its cost', () => {
    new LodSet(1);
    expect(warmUpMs()).toBeGreaterThan(0);
  });

  it('built before the kernels arrive: runs again, once, when they arrive (before the caller\'s await resumes)', async () => {
    vi.resetModules(); // the modules as a page first loads them: nothing compiled, no warm-up run
    const lod = await import('../../src/batch/lodSet.js');
    const wasm = await import('../../src/batch/wasm/wasmKernels.js');
    const warm = await import('../../src/batch/warmUp.js');
    expect(wasm.kernelsCompiled()).toBe(false);
    expect(warm.warmUpRuns()).toBe(0);
    new lod.LodSet(1);
    expect(warm.warmUpRuns()).toBe(1); // the JavaScript kernels' path, at once
    new lod.LodSet(1);
    expect(warm.warmUpRuns()).toBe(1);
    expect(await wasm.kernelsReady()).toBe(true);
    expect(warm.warmUpRuns()).toBe(2); // the kernels' path, when they arrived, before this await resumed
    new lod.LodSet(1);
    await wasm.kernelsReady();
    expect(warm.warmUpRuns()).toBe(2);
  });

  for (const wasm of [true, false]) {
    it(`leaves no trace in another set (WebAssembly ${wasm ? 'on' : 'off'})`, () => {
      setWasmKernels(wasm);
      try {
        const n = 3000;
        const data = randomSpheres(n, 7, 120);
        const [a, b] = [new LodSet(64), new LodSet(64)];
        for (const s of [a, b]) s.addMany(data, s.addProfile(PROFILE));
        const rand = lcg(11);
        for (let f = 0; f < 12; f++) {
          // The same edits on both sets: moves, hides, forced levels.
          for (let e = 0; e < 5; e++) {
            const id = Math.floor(rand() * n), x = (rand() * 2 - 1) * 120, z = (rand() * 2 - 1) * 120, kind = f % 3;
            for (const s of [a, b]) {
              if (kind === 0) s.setSphere(id, x, 1, z, 2);
              else if (kind === 1) s.setHidden(id, f % 2 === 0);
              else s.setForcedLevel(id, f % 2 === 0 ? 2 : null);
            }
          }
          if (f === 2 || f === 7) runWarmUp(LodSet); // between frames of `a` only
          const eye = [f * 3 - 20, 6, f * 2 - 10];
          const view = { frustum: camera(eye, [eye[0] + 40, 0, eye[2] + 25 - f * 6], 60), viewportHeight: 1080 };
          const options: LodUpdateOptions = { policy: 'thresholds', hysteresis: 0.1, minFramesBetweenChanges: f < 6 ? 0 : 2 };
          const sa = { ...a.update(view, options) }, sb = { ...b.update(view, options) };
          const label = `frame ${f}`;
          expect(bytes(a.levels, n, 1), label).toEqual(bytes(b.levels, n, 1));
          expect(bytes(a.blend, n, 4), label).toEqual(bytes(b.blend, n, 4));
          expect(bytes(a.sizes, n, 4), label).toEqual(bytes(b.sizes, n, 4));
          expect(Array.from(a.changed.subarray(0, a.changedCount)).sort((x, y) => x - y), label)
            .toEqual(Array.from(b.changed.subarray(0, b.changedCount)).sort((x, y) => x - y));
          expect({ ...sa, levelCounts: Array.from(sa.levelCounts) }, label).toEqual({ ...sb, levelCounts: Array.from(sb.levelCounts) });
          expect({ ...a.clusterStats }, label).toEqual({ ...b.clusterStats });
          expect(a.changedCount + sa.hidden, label).toBeGreaterThan(0); // the frames do something
        }
      } finally {
        setWasmKernels(true);
      }
    });
  }
});
