import { beforeAll, describe, expect, it } from 'vitest';
import { LodSet, type LodUpdateOptions, type LodView } from '../../src/batch/lodSet.js';
import { threadModeLoaded } from '../../src/batch/engineSeam.js';
import { assertFreshDist } from '../helpers/dist.js';
import { camera, randomSpheres } from './helpers.js';

function build(threads: number): LodSet {
  const set = new LodSet(1000); // grows while adding: exercises shared re-allocation
  if (threads > 1) set.setThreads(threads);
  const a = set.addProfile({ metric: 'pixels', thresholds: [80, 20, 6], blendThresholds: [70, 15, 5], costs: [900, 300, 60, 8] });
  const b = set.addProfile({ metric: 'distance', thresholds: [40, 90, 160], blendThresholds: [45, 100], costs: [800, 200, 50, 6] });
  const c = set.addProfile({ metric: 'screenArea', thresholds: [0.01, 0.001], costs: [100, 20, 3] });
  set.addMany(randomSpheres(60_000, 21, 250, 0.3, 6), a);
  set.addMany(randomSpheres(60_000, 22, 250, 0.3, 6), b);
  set.addMany(randomSpheres(30_000, 23, 250, 0.3, 6), c);
  for (let i = 0; i < 300; i++) set.setForcedLevel(i * 97, 1);
  for (let i = 0; i < 300; i++) set.setHidden(i * 89 + 5, true);
  set.setSphere(7, Number.NaN, 0, 0, 1);
  set.setSphere(70_001, 0, 0, 0, -1);
  set.remove(1234);
  return set;
}

function bytes(a: ArrayBufferView): Uint8Array {
  return new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
}

/** Index of the first differing byte, or -1 (a plain loop: deep equality on 600 kB is slow). */
function firstDifference(a: ArrayBufferView, b: ArrayBufferView): number {
  const x = bytes(a), y = bytes(b);
  if (x.length !== y.length) return Math.min(x.length, y.length);
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return i;
  return -1;
}

describe('worker-thread mode (SharedArrayBuffer)', () => {
  beforeAll(() => assertFreshDist()); // the workers run dist's worker module (threads.ts threadWorkerUrl)
  it('per-object frames: each metric gets its own scale in the workers too (screenHeight 1, pixels the viewport height)', async () => {
    // Before: the workers scaled every height metric by the viewport height — a screenHeight-only
    // set's sizes (fractions of the screen) came out × 720 in the workers' id range.
    for (const metric of ['screenHeight', 'pixels'] as const) {
      const make = (threads: number) => {
        const set = new LodSet(1000);
        if (threads > 1) set.setThreads(threads);
        const thresholds = metric === 'pixels' ? [80, 20, 6] : [0.2, 0.05, 0.01];
        set.addMany(randomSpheres(40_000, 31, 250, 0.3, 6), set.addProfile({ metric, thresholds }));
        return set;
      };
      const one = make(1), two = make(2);
      await threadModeLoaded(two); // (the worker-thread code arrives by a dynamic import)
      try {
        const view: LodView = { frustum: camera([0, 6, 0], [60, 0, 150], 60), viewportHeight: 720 };
        one.update(view, { policy: 'thresholds', clusters: false });
        two.update(view, { policy: 'thresholds', clusters: false });
        expect(two.threadStats.threaded, metric).toBe(true);
        const n = one.count;
        expect(firstDifference(two.sizes.subarray(0, n), one.sizes.subarray(0, n)), metric).toBe(-1);
        expect(firstDifference(two.levels.subarray(0, n), one.levels.subarray(0, n)), metric).toBe(-1);
      } finally {
        one.dispose(); two.dispose();
      }
    }
  });

  // Threaded mode runs the per-object path, so the one-thread side runs it too (`clusters: false`):
  // byte-identical sizes and the id-ordered changed list are properties of that path.
  it('two threads give bit-identical levels, blend, sizes, changed lists and stats to one thread', async () => {
    const one = build(1);
    const two = build(2);
    await threadModeLoaded(two);
    try {
      expect(two.spheres.buffer).toBeInstanceOf(SharedArrayBuffer);
      const options: LodUpdateOptions = { policy: 'thresholds', hysteresis: 0.08, minFramesBetweenChanges: 2, bias: 1.3 };
      for (let frame = 0; frame < 12; frame++) {
        const views: LodView[] = [
          { frustum: camera([frame * 4 - 0.2, 6, frame], [60, 0, 150], 60), viewportHeight: 1080 },
          { frustum: camera([frame * 4 + 0.2, 6, frame], [60, 0, 150], 60), viewportHeight: 1080 },
        ];
        const s1 = { ...one.update(views, { ...options, clusters: false }) };
        const l1 = Array.from(s1.levelCounts);
        const s2 = two.update(views, { ...options, clusters: false });
        expect(two.threadStats.threaded).toBe(true);
        const n = one.count;
        expect(firstDifference(two.levels.subarray(0, n), one.levels.subarray(0, n))).toBe(-1);
        expect(firstDifference(two.blend.subarray(0, n), one.blend.subarray(0, n))).toBe(-1);
        expect(firstDifference(two.sizes.subarray(0, n), one.sizes.subarray(0, n))).toBe(-1);
        expect(two.changedCount).toBe(one.changedCount);
        // With several metrics the list is ordered by metric pass, then range, then id, so compare as sets.
        const sorted = (s: LodSet) => Array.from(s.changed.subarray(0, s.changedCount)).sort((x, y) => x - y);
        expect(sorted(two)).toEqual(sorted(one));
        expect(s2.totalCost).toBe(s1.totalCost);
        expect(s2.minimumCost).toBe(s1.minimumCost);
        expect(s2.invalid).toBe(s1.invalid);
        expect(s2.hidden).toBe(s1.hidden);
        expect(Array.from(s2.levelCounts)).toEqual(l1);
        if (frame === 0) expect(s1.changes).toBeGreaterThan(1000);
      }
      // Other policies run on the calling thread over the shared arrays and agree too.
      const view = { frustum: camera([0, 6, 0], [60, 0, 150], 60), viewportHeight: 1080 };
      for (const policy of ['rankQuota', 'budget', 'hybrid'] as const) {
        const o: LodUpdateOptions = { policy, quotas: [100, 1000], budget: 2_000_000 };
        const s1 = { ...one.update(view, o) };
        const s2 = two.update(view, o);
        expect(firstDifference(two.levels.subarray(0, one.count), one.levels.subarray(0, one.count))).toBe(-1);
        expect(s2.totalCost).toBe(s1.totalCost);
      }
    } finally {
      two.dispose();
    }
  });

  it('with one metric the changed list is in the same (ascending id) order', async () => {
    const make = (threads: number) => {
      const set = new LodSet(64);
      if (threads > 1) set.setThreads(threads);
      const p = set.addProfile({ metric: 'screenHeight', thresholds: [0.3, 0.1, 0.03], blendThresholds: [0.25, 0.08, 0.02] });
      set.addMany(randomSpheres(80_000, 5, 250, 0.3, 6), p);
      return set;
    };
    const one = make(1), three = make(3);
    await threadModeLoaded(three);
    try {
      for (let frame = 0; frame < 5; frame++) {
        const view = { frustum: camera([frame * 6, 6, 0], [60, 0, 150], 60) };
        one.update(view, { policy: 'thresholds', hysteresis: 0.05, clusters: false });
        three.update(view, { policy: 'thresholds', hysteresis: 0.05, clusters: false });
        expect(three.threadStats.threaded).toBe(true);
        expect(three.changedCount).toBe(one.changedCount);
        expect(Array.from(three.changed.subarray(0, three.changedCount))).toEqual(Array.from(one.changed.subarray(0, one.changedCount)));
        expect(firstDifference(three.blend.subarray(0, one.count), one.blend.subarray(0, one.count))).toBe(-1);
      }
    } finally {
      three.dispose();
    }
  });

  it('with clusters (the default) cluster ranges over 2 threads give the same frames as one thread', async () => {
    const make = (threads: number) => {
      const set = new LodSet(64);
      if (threads > 1) set.setThreads(threads);
      const p = set.addProfile({ metric: 'screenHeight', thresholds: [0.3, 0.1, 0.03], blendThresholds: [0.25, 0.08, 0.02], costs: [50, 20, 5, 1] });
      const q = set.addProfile({ metric: 'distance', thresholds: [40, 90, 160], blendThresholds: [45, 100], costs: [80, 20, 5, 1] });
      set.addMany(randomSpheres(30_000, 6, 250, 0.3, 6), p);
      set.addMany(randomSpheres(20_000, 7, 250, 0.3, 6), q);
      for (let i = 0; i < 100; i++) set.setForcedLevel(i * 97, 1);
      for (let i = 0; i < 100; i++) set.setHidden(i * 89 + 5, true);
      set.setSphere(7, Number.NaN, 0, 0, 1);
      return set;
    };
    const one = make(1), two = make(2);
    await threadModeLoaded(two);
    // Count the threaded frames (the adaptive choice runs its first 16 frames threaded: the worker's
    // warm-up); the worker seam makes the worker take chunks in each of them.
    two.setThreadSchedule('adaptive', 'first');
    let threaded = 0;
    try {
      for (let frame = 0; frame < 10; frame++) {
        if (frame === 5) { for (const s of [one, two]) { s.add({ center: [3, 0, 40], radius: 2, profile: 0 }); s.remove(11); } }
        const views: LodView[] = [{ frustum: camera([frame * 3, 6, 0], [60, 0, 150], 60), viewportHeight: 1080 }];
        if (frame % 3 === 2) views.push({ frustum: camera([frame * 3 + 2, 6, 1], [-60, 0, 150], 45), viewportHeight: 720 });
        const options: LodUpdateOptions = { policy: 'thresholds', hysteresis: 0.05, minFramesBetweenChanges: frame & 1 };
        const s1 = { ...one.update(views, options) };
        const l1 = Array.from(s1.levelCounts);
        const s2 = two.update(views, options);
        if (two.threadStats.threaded) { threaded++; expect(two.threadStats.callingThreadChunks).toBeLessThan(two.threadStats.chunks); }
        const n = one.count;
        expect(firstDifference(two.levels.subarray(0, n), one.levels.subarray(0, n))).toBe(-1);
        expect(firstDifference(two.blend.subarray(0, n), one.blend.subarray(0, n))).toBe(-1);
        expect(firstDifference(two.sizes.subarray(0, n), one.sizes.subarray(0, n))).toBe(-1);
        const sorted = (s: LodSet) => Array.from(s.changed.subarray(0, s.changedCount)).sort((x, y) => x - y);
        expect(sorted(two)).toEqual(sorted(one));
        expect(s2.totalCost).toBe(s1.totalCost);
        expect(s2.minimumCost).toBe(s1.minimumCost);
        expect(s2.hidden).toBe(s1.hidden);
        expect(s2.invalid).toBe(s1.invalid);
        expect(Array.from(s2.levelCounts)).toEqual(l1);
        expect(two.clusterStats.culled).toBe(one.clusterStats.culled);
        expect(two.clusterStats.skipped).toBe(one.clusterStats.skipped);
      }
      expect(threaded).toBe(10); // the first 16 frames run threaded (threadChooser.ts)
    } finally {
      two.dispose();
    }
  });

  it('setThreads validates its argument', () => {
    const set = new LodSet();
    expect(() => set.setThreads(0)).toThrow(RangeError);
    expect(() => set.setThreads(1.5)).toThrow(/count/);
  });
});
