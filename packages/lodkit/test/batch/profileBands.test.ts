/**
 * A profile's own hysteresis bands (`LodProfileOptions.hysteresis`, one per boundary): the
 * per-object path against the readable rule written here (heuristics/lodIndex.ts plus the hold of
 * `ScreenSizeLOD`'s per-level bands), and every other path (clusters with and without
 * WebAssembly, hybrid's first pass, worker threads) against the per-object path.
 */
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { LodSet, type LodFrameStats, type LodUpdateOptions, type LodView } from '../../src/batch/lodSet.js';
import { validateLodProfile } from '../../src/batch/core/profiles.js';
import { GpuLodSelector } from '../../src/adapters/webgpu/gpuLodSelector.js';
import { computeLodDescending } from '../../src/heuristics/lodIndex.js';
import { newLodSet, threadModeLoaded } from '../../src/batch/engineSeam.js';
import { Frustum } from '../../src/metrics/frustum.js';
import { sphereScreenHeight } from '../../src/metrics/sphereMetrics.js';
import { assertFreshDist } from '../helpers/dist.js';
import { camera, lcg } from './helpers.js';

const THRESHOLDS = [0.3, 0.1, 0.03];

/** The fractional level of `v`, clamped to the profile's levels (lodIndex.ts, the readable rule). */
function lodOf(t: Float32Array, b: Float32Array, v: number): number {
  return computeLodDescending(t, b, v);
}

/**
 * One frame of one object under the rule with per-boundary bands, written from the definition:
 * the free level of `v`; when it differs from the shown level `old`, the band of the boundary `old`
 * would leave across decides whether `old` stays (both `v·(1 ± band)` map on either side of it), and
 * a held object keeps its previous size (its blend from that size when it still maps to `old`).
 */
function referenceStep(t: Float32Array, b: Float32Array, bands: readonly number[], old: number, prev: number, v: number): { level: number; blend: number; size: number } {
  const f = lodOf(t, b, v);
  const level = Math.floor(f + 0.5);
  if (level !== old && old <= t.length && prev === prev) {
    const band = bands[level > old ? old : old - 1];
    if (band > 0) {
      const la = Math.floor(lodOf(t, b, v * (1 + band)) + 0.5), lb = Math.floor(lodOf(t, b, v * (1 - band)) + 0.5);
      if (Math.min(la, lb) <= old && old <= Math.max(la, lb)) {
        const fp = lodOf(t, b, prev);
        return { level: old, blend: Math.floor(fp + 0.5) === old ? Math.fround(fp - Math.floor(fp)) : 0, size: prev };
      }
    }
  }
  return { level, blend: Math.fround(f - Math.floor(f)), size: Math.fround(v) };
}

describe('LodProfileOptions.hysteresis', () => {
  it('is validated at the boundary: which field, what was wrong', () => {
    expect(validateLodProfile({ metric: 'pixels', thresholds: [80, 20] }).bands).toBeNull();
    expect(Array.from(validateLodProfile({ metric: 'pixels', thresholds: [80, 20], hysteresis: 0.2 }).bands!)).toEqual([0.2, 0.2]);
    expect(Array.from(validateLodProfile({ metric: 'pixels', thresholds: [80, 20], hysteresis: [0.1, 0.3] }).bands!)).toEqual([0.1, 0.3]);
    expect(() => validateLodProfile({ metric: 'pixels', thresholds: [80, 20], hysteresis: [0.1] })).toThrow(/hysteresis must have 2 values/);
    expect(() => validateLodProfile({ metric: 'pixels', thresholds: [80, 20], hysteresis: [0.1, 1] })).toThrow(/hysteresis\[1\] must be a number in \[0, 1\)/);
    expect(() => validateLodProfile({ metric: 'pixels', thresholds: [80, 20], hysteresis: -0.1 })).toThrow(/hysteresis must be a number in \[0, 1\)/);
    expect(() => validateLodProfile({ metric: 'pixels', thresholds: [80, 20], hysteresis: 'x' as unknown as number })).toThrow(TypeError);
  });

  it('the GPU selector (one band per frame) rejects them, naming the profile', () => {
    const device = { createBuffer: () => ({}) } as unknown as GPUDevice; // (the check runs before any GPU call)
    const levels = [{ indexCount: 3 }, { indexCount: 3 }];
    expect(() => new GpuLodSelector(device, { capacity: 4, profiles: [{ metric: 'pixels', thresholds: [50] }, { metric: 'pixels', thresholds: [50], hysteresis: 0.1 }], levels }))
      .toThrow(/profiles\[1\]\.hysteresis is not supported on the GPU/);
  });

  it('per object: each boundary holds by its own band, as the readable rule (fast-check, random size paths)', () => {
    const fr = Frustum.perspective({ fovY: 60, aspect: 1, near: 0.01, far: 1e6 });
    const wh = fr.windowHeight;
    const t = Float32Array.from(THRESHOLDS);
    let holds = 0;
    fc.assert(fc.property(
      fc.array(fc.integer({ min: 0, max: 45 }).map((x) => x / 100), { minLength: 3, maxLength: 3 }), // bands per boundary
      fc.boolean(),                                                                            // with blend windows
      fc.integer({ min: 0, max: 30 }).map((x) => x / 100),                                     // the frame's band (not applied)
      fc.integer({ min: 10, max: 500 }),                                                       // first size, ‰ of the screen
      fc.array(fc.integer({ min: -35, max: 35 }), { minLength: 4, maxLength: 30 }),            // relative steps, %
      (bands, blends, frameBand, first, steps) => {
        // a random walk (integers: fast-check's doubles crowd at tiny steps that cross no threshold)
        let size = first / 1000;
        const path = steps.map((d) => (size = Math.min(Math.max(size * (1 + d / 100), 0.003), 0.8)));
        const b = blends ? Float32Array.from([0.25, 0.08, 0.02]) : new Float32Array(0);
        const set = new LodSet(4);
        const p = set.addProfile({ metric: 'screenHeight', thresholds: THRESHOLDS, blendThresholds: Array.from(b), hysteresis: bands });
        const id = set.add({ center: [0, 0, -10], radius: 1, profile: p });
        let old = 255, prev = Number.NaN;
        for (const s of path) {
          set.setSphere(id, 0, 0, -(2 / (s * wh)), 1);
          set.update({ frustum: fr }, { policy: 'thresholds', clusters: false, hysteresis: frameBand });
          const v = sphereScreenHeight(fr, 0, 0, -(2 / (s * wh)), 1);
          const want = referenceStep(t, b, bands, old, prev, v);
          // (levels exactly; blend and size to float32 precision: sphereScreenHeight is the readable
          // metric, the kernel's value may differ in the last bits — generatedKernels.test.ts checks
          // the bands bit for bit on given values)
          expect(set.levels[id]).toBe(want.level);
          expect(set.blend[id]).toBeCloseTo(want.blend, 5);
          expect(Math.abs(set.sizes[id] - want.size)).toBeLessThanOrEqual(1e-6 * want.size);
          if (want.size === prev && want.level === old && Math.floor(lodOf(t, b, v) + 0.5) !== old) holds++;
          old = want.level; prev = want.size;
        }
      },
    ), { numRuns: 150 });
    expect(holds).toBeGreaterThan(50); // the property exercised the hold, not only free decisions
  });

  it('a profile without bands keeps the frame band beside one with its own', () => {
    const fr = Frustum.perspective({ fovY: 60, aspect: 1, near: 0.01, far: 1e6 });
    const set = new LodSet(4);
    const own = set.addProfile({ metric: 'screenHeight', thresholds: [0.1], hysteresis: [0] });
    const frame = set.addProfile({ metric: 'screenHeight', thresholds: [0.1] });
    const a = set.add({ center: [0, 0, -10], radius: 1, profile: own }), c = set.add({ center: [5, 0, -10], radius: 1, profile: frame });
    const place = (s: number) => {
      set.setSphere(a, 0, 0, -(2 / (s * fr.windowHeight)), 1);
      set.setSphere(c, 0.001, 0, -(2 / (s * fr.windowHeight)), 1);
    };
    place(0.105);
    set.update({ frustum: fr }, { policy: 'thresholds', hysteresis: 0.1 });
    expect([set.levels[a], set.levels[c]]).toEqual([0, 0]);
    place(0.095); // inside the frame's band, outside the own (zero) band
    set.update({ frustum: fr }, { policy: 'thresholds', hysteresis: 0.1 });
    expect([set.levels[a], set.levels[c]]).toEqual([1, 0]);
  });
});

/** Random scene: objects of a banded and an unbanded profile, in front of a moving camera. */
function scene(make: () => LodSet, seed: number, n: number, withBands = true): LodSet {
  const set = make();
  const banded = set.addProfile({ metric: 'pixels', thresholds: [80, 20, 6], blendThresholds: [70, 15, 5], costs: [900, 300, 60, 8], hysteresis: withBands ? [0.3, 0.05, 0.2] : undefined });
  const plain = set.addProfile({ metric: 'pixels', thresholds: [60, 12], costs: [400, 40, 4] });
  const uniform = set.addProfile({ metric: 'distance', thresholds: [40, 90, 160], costs: [800, 200, 50, 6], hysteresis: withBands ? 0.15 : undefined });
  const r = lcg(seed);
  for (let i = 0; i < n; i++) {
    const k = r();
    set.add({ center: [r() * 300 - 150, r() * 10, r() * 300], radius: 0.3 + r() * 5, profile: k < 0.5 ? banded : k < 0.8 ? plain : uniform });
  }
  return set;
}

function path(frame: number): LodView {
  // Back and forth along z: sizes cross every threshold both ways, inside and outside the bands.
  const z = 60 * Math.sin(frame * 0.45);
  return { frustum: camera([0, 6, z], [10, 0, z + 150], 60), viewportHeight: 720 };
}

function expectSameFrame(a: LodSet, b: LodSet, sa: LodFrameStats, sb: LodFrameStats, label: string): void {
  const n = a.count;
  for (let i = 0; i < n; i++) {
    if (a.levels[i] !== b.levels[i] || !Object.is(a.blend[i], b.blend[i])) {
      throw new Error(`${label}: id ${i} level ${a.levels[i]} / ${b.levels[i]}, blend ${a.blend[i]} / ${b.blend[i]}`);
    }
  }
  const ids = (s: LodSet) => Array.from(s.changed.subarray(0, s.changedCount)).sort((x, y) => x - y);
  expect(ids(a), label).toEqual(ids(b));
  expect(sa.totalCost, label).toBe(sb.totalCost);
  expect(Array.from(sa.levelCounts), label).toEqual(Array.from(sb.levelCounts));
  expect(sa.changes, label).toBe(sb.changes);
}

/** Copies a frame's stats (`levelCounts` is reused by the next update). */
function keep(s: LodFrameStats): LodFrameStats {
  return { ...s, levelCounts: Uint32Array.from(s.levelCounts) };
}

/** Runs `frames` frames of the camera path on both sets and compares every frame. */
function compareRuns(a: LodSet, b: LodSet, optionsA: LodUpdateOptions, optionsB: LodUpdateOptions, frames: number, label: string): void {
  for (let f = 0; f < frames; f++) {
    const sa = keep(a.update(path(f), optionsA));
    const sb = keep(b.update(path(f), optionsB));
    expectSameFrame(a, b, sa, sb, `${label} frame ${f}`);
  }
}

describe('profile bands on every path', () => {
  it('the bands change the picture of this scene (the comparisons below can fail)', () => {
    const a = scene(() => new LodSet(64), 5, 6000, true), c = scene(() => new LodSet(64), 5, 6000, false);
    let differ = 0;
    for (let f = 0; f < 24; f++) {
      a.update(path(f), { policy: 'thresholds', clusters: false });
      c.update(path(f), { policy: 'thresholds', clusters: false });
      for (let i = 0; i < a.count; i++) if (a.levels[i] !== c.levels[i]) differ++;
    }
    expect(differ).toBeGreaterThan(500);
  });

  for (const wasm of [true, false]) {
    it(`clustered thresholds (WebAssembly ${wasm ? 'on' : 'off'}) = the per-object path, frame band 0 and 0.1`, () => {
      for (const h of [0, 0.1]) {
        const a = scene(() => newLodSet(64, { wasm }), 5, 6000), b = scene(() => newLodSet(64, { wasm }), 5, 6000);
        compareRuns(a, b, { policy: 'thresholds', hysteresis: h }, { policy: 'thresholds', hysteresis: h, clusters: false }, 24, `h ${h}`);
        a.dispose(); b.dispose();
      }
    });

    it(`hybrid and budget whose budget fits = the thresholds path (WebAssembly ${wasm ? 'on' : 'off'})`, () => {
      for (const policy of ['hybrid', 'budget'] as const) {
        const a = scene(() => newLodSet(64, { wasm }), 9, 6000), b = scene(() => newLodSet(64, { wasm }), 9, 6000);
        compareRuns(a, b, { policy, budget: 1e12, hysteresis: 0.05 }, { policy: 'thresholds', hysteresis: 0.05, clusters: false }, 24, policy);
        a.dispose(); b.dispose();
      }
    });
  }

  it('hybrid over budget, clustered = per object (its preferred levels hold by the bands)', () => {
    const a = scene(() => new LodSet(64), 11, 6000), b = scene(() => new LodSet(64), 11, 6000);
    const probe = scene(() => new LodSet(64), 11, 6000);
    expect(probe.update(path(0), { policy: 'thresholds' }).totalCost).toBeGreaterThan(3 * 150_000); // the budget binds
    probe.dispose();
    compareRuns(a, b, { policy: 'hybrid', budget: 150_000 }, { policy: 'hybrid', budget: 150_000, clusters: false }, 24, 'hybrid');
    a.dispose(); b.dispose();
  });
});

describe('profile bands in worker threads', () => {
  beforeAll(() => assertFreshDist()); // the workers run dist's worker module
  it('two threads = one thread, byte for byte (levels, blend, sizes, changed, stats)', async () => {
    const one = scene(() => new LodSet(1000), 13, 60_000), two = scene(() => new LodSet(1000), 13, 60_000);
    two.setThreads(2);
    await threadModeLoaded(two);
    try {
      for (let f = 0; f < 12; f++) {
        const options: LodUpdateOptions = { policy: 'thresholds', hysteresis: 0.08, clusters: false };
        const s1 = keep(one.update(path(f), options));
        const s2 = keep(two.update(path(f), options));
        expect(two.threadStats.threaded).toBe(true);
        expectSameFrame(two, one, s2, s1, `frame ${f}`);
        const n = one.count;
        for (let i = 0; i < n; i++) if (!Object.is(one.sizes[i], two.sizes[i])) throw new Error(`frame ${f} id ${i} size ${two.sizes[i]} / ${one.sizes[i]}`);
      }
    } finally {
      one.dispose(); two.dispose();
    }
  });
});
