/**
 * Zero allocation per frame. After warm-up, 1,000 updates of 100k objects must leave the heap where
 * it was.
 *
 * Method: `gc` is exposed at run time (`v8.setFlagsFromString('--expose-gc')` + a fresh context),
 * the heap is collected, then 1,000 updates run WITHOUT any forced collection and `heapUsed` is
 * read again. Garbage is not collected between the two reads unless a scavenge happens, so any
 * per-frame allocation shows as growth: one 16-byte object per frame is 16 kB. Tolerance: 64 kB
 * total (< 64 bytes per frame), which leaves room for V8's own bookkeeping (inline caches,
 * optimised code metadata) but not for an array, a closure or a stats object per frame. A
 * `PerformanceObserver` also counts GC runs during the loop: a scavenge would hide allocation,
 * so the test requires none.
 */
import { PerformanceObserver } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { LodSet, type LodUpdateOptions, type LodView } from '../../src/batch/lodSet.js';
import { camera, randomSpheres } from './helpers.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const N = 100_000;
const FRAMES = 1000;
const TOLERANCE_BYTES = 64 * 1024;
let sink: number[] = [];

function makeSet(): LodSet {
  const set = new LodSet(1024);
  const a = set.addProfile({ metric: 'screenHeight', thresholds: [0.3, 0.1, 0.03], blendThresholds: [0.25, 0.08, 0.02], costs: [5000, 1200, 300, 40] });
  const b = set.addProfile({ metric: 'distance', thresholds: [40, 90, 160], blendThresholds: [45, 100], costs: [8000, 2000, 500, 60], qualityFloor: 2 });
  set.addMany(randomSpheres(N / 2, 11, 250, 0.3, 6), a);
  set.addMany(randomSpheres(N / 2, 12, 250, 0.3, 6), b);
  for (let i = 0; i < 200; i++) set.setForcedLevel(i * 37, 1);
  for (let i = 0; i < 200; i++) set.setHidden(i * 41 + 3, true);
  set.setSphere(5, NaN, 0, 0, 1);
  return set;
}

/** Eight precomputed stereo view pairs along a path: moving camera, no allocation in the loop. */
const VIEW_PAIRS: LodView[][] = Array.from({ length: 8 }, (_, k) => [
  { frustum: camera([k * 3 - 0.1, 5, k], [40, 0, 120], 60), viewportHeight: 1080 },
  { frustum: camera([k * 3 + 0.1, 5, k], [40, 0, 120], 60), viewportHeight: 1080 },
]);

function measure(set: LodSet, options: LodUpdateOptions): { growth: number; gcs: number } {
  for (let f = 0; f < 50; f++) set.update(VIEW_PAIRS[f & 7], options); // warm-up: JIT + scratch sizing
  let gcs = 0;
  const observer = new PerformanceObserver((list) => { gcs += list.getEntries().length; });
  gc();
  gc();
  observer.observe({ entryTypes: ['gc'] });
  const before = process.memoryUsage().heapUsed;
  for (let f = 0; f < FRAMES; f++) set.update(VIEW_PAIRS[f & 7], options);
  const after = process.memoryUsage().heapUsed;
  observer.disconnect();
  return { growth: after - before, gcs };
}

describe('zero allocation per frame (100k objects, 1,000 updates, 2 views)', () => {
  const cases: [string, LodUpdateOptions][] = [
    ['thresholds + hysteresis + blend + minFrames', { policy: 'thresholds', hysteresis: 0.1, minFramesBetweenChanges: 2, bias: 1.2 }],
    ['rankQuota', { policy: 'rankQuota', quotas: [100, 1000, 10000] }],
    ['budget', { policy: 'budget', budget: 3_000_000 }],
    ['hybrid', { policy: 'hybrid', budget: 3_000_000, hysteresis: 0.05 }],
  ];
  for (const [name, options] of cases) {
    it(`${name}: heap growth < ${TOLERANCE_BYTES / 1024} kB and no GC during the loop`, () => {
      const set = makeSet();
      const first = set.update(VIEW_PAIRS[0], options);
      expect(first.invalid).toBe(1);
      const { growth, gcs } = measure(set, options);
      expect(growth).toBeLessThan(TOLERANCE_BYTES);
      expect(gcs).toBe(0);
    });
  }

  it('the check can fail: ~150 bytes of short-lived garbage per frame is caught', () => {
    const set = makeSet();
    const options: LodUpdateOptions = { policy: 'thresholds' };
    for (let f = 0; f < 50; f++) set.update(VIEW_PAIRS[f & 7], options);
    gc();
    gc();
    const before = process.memoryUsage().heapUsed;
    for (let f = 0; f < FRAMES; f++) {
      set.update(VIEW_PAIRS[f & 7], options);
      sink = new Array<number>(16).fill(f); // garbage, not retained
    }
    const after = process.memoryUsage().heapUsed;
    expect(after - before).toBeGreaterThan(TOLERANCE_BYTES);
    expect(sink.length).toBe(16);
  });
});
