/**
 * The WebAssembly SIMD kernel: bit-identical to the JavaScript kernel it replaces, and
 * whole frames identical with and without it.
 */
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { LodSet, type LodUpdateOptions } from '../../src/batch/lodSet.js';
import { heightPerspectiveKernel } from '../../src/batch/kernels/metricKernels.js';
import { attachKernels, type HeightKernel, setWasmKernels, SP_OFFSET } from '../../src/batch/wasm/wasmKernels.js';
import type { Frustum } from '../../src/metrics/frustum.js';
import { kernelsOf, newLodSet } from '../../src/batch/engineSeam.js';
import { camera, randomSpheres } from './helpers.js';

const VIEWS = [camera([0, 8, 0], [30, 0, 40], 50), camera([2, 9, 1], [-20, 0, 50], 70)];

/**
 * Runs `heightPerspective` (cull argument `wasmCull`) and `heightPerspectiveKernel` (planes
 * `jsPlanes(view)`, culling `jsCull`) on `spheres[start …)` over {@link VIEWS} (the second view
 * combined with the first); throws at the first value that differs.
 */
function compareKernels(k: HeightKernel, spheres: Float32Array, start: number, pixels: boolean, wasmCull: number, jsCull: boolean,
  jsPlanes: (f: Frustum) => Float64Array): void {
  const n = spheres.length >> 2;
  k.memory.grow(Math.max(0, Math.ceil((SP_OFFSET + n * 24) / 65536) - k.memory.buffer.byteLength / 65536));
  const sp = new Float32Array(k.memory.buffer, SP_OFFSET, n * 4);
  sp.set(spheres);
  const workOffset = SP_OFFSET + n * 16;
  const wasmOut = new Float64Array(k.memory.buffer, workOffset, n);
  const params = new Float64Array(k.memory.buffer, 0, 64);
  const jsOut = new Float64Array(n), kv = new Float64Array(8), profileIds = new Uint16Array(n), metric = new Uint8Array(1);
  for (let v = 0; v < 2; v++) {
    const f = VIEWS[v];
    params.set(f.planes, v * 32); params.set(f.position, v * 32 + 24);
    params[v * 32 + 27] = f.windowMax[1] - f.windowMin[1]; params[v * 32 + 28] = 1080;
    kv.set(f.position, 0); kv.set(f.windowMin, 3); kv.set(f.windowMax, 5); kv[7] = pixels ? 1080 : 1;
    heightPerspectiveKernel(sp, start, n, jsOut, v === 0 ? 0 : 1, jsPlanes(f), kv, jsCull, profileIds, metric, 0, false);
    k.heightPerspective(SP_OFFSET, workOffset, start, n, v === 0 ? 0 : 1, v, pixels ? 1 : 0, wasmCull);
    for (let i = start; i < n; i++) {
      if (!Object.is(wasmOut[i], jsOut[i]) && !(Number.isNaN(wasmOut[i]) && Number.isNaN(jsOut[i]))) {
        throw new Error(`view ${v} object ${i}: wasm ${wasmOut[i]}, js ${jsOut[i]}`);
      }
    }
  }
}

describe('WebAssembly SIMD kernel', () => {
  afterAll(() => { setWasmKernels(true); });

  it('is available in this Node (the embedded bytes are checked against the WAT sources by generated.test.ts)', () => {
    expect(setWasmKernels(true)).toBe(true);
  });

  it('heightPerspective is bit-identical to heightPerspectiveKernel (odd ranges, two views, NaN, ∞, negative radius, eye inside) (fast-check)', () => {
    const k = attachKernels(new WebAssembly.Memory({ initial: 1 }), false, { wasm: true, fused: false })!;
    fc.assert(fc.property(fc.integer({ min: 1, max: 1e6 }), fc.integer({ min: 0, max: 40 }), fc.integer({ min: 1, max: 300 }), fc.boolean(), fc.boolean(),
      (seed, start, count, pixels, cull) => {
        const n = start + count;
        const spheres = randomSpheres(n, seed, 60, 0.1, 9);
        spheres[(seed % n) * 4] = Number.NaN;
        spheres[((seed >> 3) % n) * 4 + 3] = -1;
        spheres[((seed >> 5) % n) * 4 + 1] = Infinity;
        const inside = (seed >> 7) % n; spheres[inside * 4] = 0.5; spheres[inside * 4 + 1] = 8; spheres[inside * 4 + 2] = 0.5; spheres[inside * 4 + 3] = 3;
        compareKernels(k, spheres, start, pixels, cull ? 1 : 0, cull, (f) => f.planes);
      }), { numRuns: 200 });
  });

  it('heightPerspective with cull 2 runs no plane test: bit-identical to heightPerspectiveKernel with planes no sphere fails (fast-check)', () => {
    // (the passes ask for it only for a cluster wholly inside every view, where no object fails a plane)
    const k = attachKernels(new WebAssembly.Memory({ initial: 1 }), false, { wasm: true, fused: false })!;
    const open = new Float64Array(24);
    for (let j = 3; j < 24; j += 4) open[j] = 1e300;
    let outside = 0;
    fc.assert(fc.property(fc.integer({ min: 1, max: 1e6 }), fc.integer({ min: 0, max: 40 }), fc.integer({ min: 1, max: 300 }), fc.boolean(),
      (seed, start, count, pixels) => {
        const n = start + count;
        const spheres = randomSpheres(n, seed, 60, 0.1, 9);
        spheres[(seed % n) * 4] = Number.NaN;
        spheres[((seed >> 5) % n) * 4 + 1] = Infinity;
        compareKernels(k, spheres, start, pixels, 2, true, () => open);
        for (const f of VIEWS) { // (not vacuous: some of these spheres fail a real plane)
          for (let i = start; i < n; i++) {
            const o = i * 4, pl = f.planes;
            for (let j = 0; j < 24; j += 4) if (pl[j] * spheres[o] + pl[j + 1] * spheres[o + 1] + pl[j + 2] * spheres[o + 2] + pl[j + 3] < -spheres[o + 3]) { outside++; break; }
          }
        }
      }), { numRuns: 200 });
    expect(outside).toBeGreaterThan(1000);
  });

  it('frames with and without the kernel are identical (levels, blend, sizes, changed set, stats)', () => {
    const make = (wasm: boolean) => {
      const set = newLodSet(100, { wasm });
      const p = set.addProfile({ metric: 'pixels', thresholds: [80, 20, 6], blendThresholds: [70, 15, 5], costs: [900, 300, 60, 8] });
      const q = set.addProfile({ metric: 'screenHeight', thresholds: [0.3, 0.1, 0.03], blendThresholds: [0.25, 0.08], costs: [50, 20, 5, 1] });
      set.addMany(randomSpheres(40_000, 8, 400, 0.3, 5), p);
      set.addMany(randomSpheres(20_000, 9, 400, 0.3, 5), q);
      set.setSphere(11, Number.NaN, 0, 0, 1);
      return set;
    };
    const a = make(true), b = make(false);
    expect(kernelsOf(a).wasm).toBe(true);
    expect(kernelsOf(b).wasm).toBe(false);
    for (let f = 0; f < 20; f++) {
      const views = [{ frustum: camera([f * 0.7, 6, 0], [60, 0, 150], 60), viewportHeight: 1080 }];
      if (f % 4 === 3) views.push({ frustum: camera([f * 0.7 + 3, 6, 2], [-60, 0, 150], 45), viewportHeight: 720 });
      const options: LodUpdateOptions = { policy: 'thresholds', hysteresis: f < 10 ? 0.1 : 0, minFramesBetweenChanges: f & 1 };
      const ra = a.update(views, options);
      const sa = { ...ra, levelCounts: Array.from(ra.levelCounts) };
      const sb = b.update(views, options);
      expect(Array.from(sb.levelCounts)).toEqual(sa.levelCounts);
      expect(sb.totalCost).toBe(sa.totalCost);
      expect(sb.minimumCost).toBe(sa.minimumCost);
      expect(sb.hidden).toBe(sa.hidden);
      expect(sb.invalid).toBe(sa.invalid);
      const n = a.count;
      expect(Buffer.compare(Buffer.from(a.levels.buffer, a.levels.byteOffset, n), Buffer.from(b.levels.buffer, b.levels.byteOffset, n))).toBe(0);
      expect(Buffer.compare(Buffer.from(a.blend.buffer, a.blend.byteOffset, n * 4), Buffer.from(b.blend.buffer, b.blend.byteOffset, n * 4))).toBe(0);
      expect(Buffer.compare(Buffer.from(a.sizes.buffer, a.sizes.byteOffset, n * 4), Buffer.from(b.sizes.buffer, b.sizes.byteOffset, n * 4))).toBe(0);
      const set = (s: LodSet) => Array.from(s.changed.subarray(0, s.changedCount)).sort((x, y) => x - y);
      expect(set(a)).toEqual(set(b));
    }
  });
});
