/**
 * A set's life across thread counts, view counts and growth, through the public API only: every
 * frame's `levels`, `blend` and `sizes` equal a one-thread set on the per-object path
 * (`clusters: false`, which keeps nothing in slot order and owes nothing). Three regressions of
 * 592cc1d, each found by reading the engine:
 * - `setThreads(n > 1)` after clustered frames lost the blends those frames owed (the kernel moves
 *   to a shared memory and the owed list was dropped unsettled): stale cross-fades for thousands of ids.
 * - Growth after a frame with more than 64 views (the WebAssembly kernel's view limit: the set goes
 *   on with the JavaScript kernels) dropped the sizes kept in slot order: hysteresis then read NaN.
 * - One frame with more than 16 views (the worker-thread view limit) replaced the shared view block
 *   for good: no threaded frame ever again.
 * Then a fast-check property mixes `setThreads`, view counts (1–70) and growth into camera paths.
 */
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { LodSet, type LodUpdateOptions, type LodView } from '../../src/batch/lodSet.js';
import { threadModeLoaded } from '../../src/batch/engineSeam.js';
import { assertFreshDist } from '../helpers/dist.js';
import { expectNonVacuous } from '../setup/fastCheckSeed.js';
import { sizeMapsLike, treeGrid, yawView } from './helpers.js';

const PROFILE = { metric: 'screenHeight', thresholds: [0.3, 0.1, 0.03], blendThresholds: [0.25, 0.08, 0.02], costs: [900, 300, 60, 8] } as const;
const OPTIONS: LodUpdateOptions = { policy: 'thresholds', hysteresis: 0.1 };

/**
 * Ids whose level, blend or size differ between `a` and the reference `b` (the first few, and how
 * many). A clustered frame may keep an object's size from the last frame that evaluated its
 * cluster (LodSet's notes): such a size must map to the same level outside every blend window.
 */
function differences(a: LodSet, b: LodSet): { count: number; first: string[] } {
  const la = a.levels, lb = b.levels, ba = a.blend, bb = b.blend, sa = a.sizes, sb = b.sizes;
  const keptOk = (i: number) => ba[i] === 0 && sizeMapsLike(sa[i], sb[i], PROFILE.thresholds, PROFILE.blendThresholds, 3);
  let count = 0;
  const first: string[] = [];
  for (let i = 0; i < a.count; i++) {
    if (la[i] !== lb[i] || !Object.is(ba[i], bb[i]) || !(Object.is(sa[i], sb[i]) || keptOk(i))) {
      if (count++ < 3) first.push(`id ${i}: level ${la[i]}/${lb[i]} blend ${ba[i]}/${bb[i]} size ${sa[i]}/${sb[i]}`);
    }
  }
  return { count, first };
}

function expectSame(a: LodSet, b: LodSet, label: string): void {
  expect(a.count, label).toBe(b.count);
  const d = differences(a, b);
  expect(d.count, `${label}: ${d.first.join('; ')}`).toBe(0);
}

/** `count` views around `eye` (a rig of cameras yawed apart: the multi-view path). */
function rig(eye: number[], yaw: number, count: number): LodView[] {
  return Array.from({ length: count }, (_, k) => yawView([eye[0] + 0.01 * k, eye[1], eye[2]], yaw + 0.002 * k, false));
}

function pair(capacity: number, data: Float32Array): [LodSet, LodSet] {
  const a = new LodSet(capacity), b = new LodSet(capacity);
  for (const s of [a, b]) { s.addProfile({ ...PROFILE, thresholds: [...PROFILE.thresholds], blendThresholds: [...PROFILE.blendThresholds], costs: [...PROFILE.costs] }); s.addMany(data, 0); }
  return [a, b];
}

describe('thread count, view count and growth at any point of a set\'s life = the per-object path', () => {
  beforeAll(() => assertFreshDist()); // the workers run dist's worker module (threads.ts threadWorkerUrl)
  it('setThreads(2) after 30 one-thread clustered frames keeps the blends those frames owed', async () => {
    const [a, b] = pair(1 << 16, treeGrid(245, 3)); // 60,025 objects
    try {
      let eye = [0, 2, -200], yaw = Math.PI / 2;
      const frame = () => {
        eye = [eye[0], 2, eye[2] + 0.5]; yaw += 0.0009;
        const v = yawView(eye, yaw, false);
        a.update(v, OPTIONS);
        b.update(v, { ...OPTIONS, clusters: false });
      };
      for (let f = 0; f < 30; f++) frame(); // no read of blend: the clustered frames owe
      a.setThreads(2);
      expectSame(a, b, 'after setThreads(2)'); // 592cc1d: blends of thousands of ids stale
      await threadModeLoaded(a); // (the worker-thread code arrives by a dynamic import)
      a.setThreadSchedule('threaded', 'first');
      for (let f = 0; f < 10; f++) {
        frame();
        expect(a.threadStats.threaded).toBe(true);
        expectSame(a, b, `threaded frame ${f}`);
      }
      a.setThreads(1);
      frame();
      expectSame(a, b, 'after setThreads(1)');
    } finally { a.dispose(); }
  });

  it('growth after a frame with 65 views (beyond the WebAssembly kernel) keeps every size', () => {
    for (const views of [64, 65]) {
      const [a, b] = pair(10_000, treeGrid(98, 4)); // 9,604 objects, capacity 10,000
      const eye = [0, 2, -150], yaw = Math.PI / 2;
      a.update(rig(eye, yaw, views), OPTIONS);
      b.update(rig(eye, yaw, views), { ...OPTIONS, clusters: false });
      for (const s of [a, b]) s.addMany(treeGrid(30, 5, 500), 0); // 900 more: beyond the capacity
      const v = yawView([0, 2, -149], yaw + 0.001, false);
      a.update(v, OPTIONS);
      b.update(v, { ...OPTIONS, clusters: false });
      expectSame(a, b, `${views} views, grown, one hysteresis frame`); // 592cc1d: levels differ at 65 views
    }
  });

  it('worker-thread mode comes back after a frame with 17 views', async () => {
    const [a, b] = pair(1 << 15, treeGrid(150, 6));
    a.setThreads(2);
    await threadModeLoaded(a);
    try {
      a.setThreadSchedule('threaded', 'first');
      let eye = [0, 2, -200];
      const yaw = Math.PI / 2;
      const frame = (count: number) => {
        eye = [eye[0] + 0.3, 2, eye[2] + 0.5];
        a.update(rig(eye, yaw, count), OPTIONS);
        b.update(rig(eye, yaw, count), { ...OPTIONS, clusters: false });
        expectSame(a, b, `${count} views`);
        return a.threadStats.threaded;
      };
      expect(frame(2)).toBe(true);
      expect(frame(17)).toBe(false); // beyond the threaded view limit: the calling thread alone
      expect(frame(2)).toBe(true); // 592cc1d: false from here on
      expect(frame(16)).toBe(true);
      expect(frame(70)).toBe(false); // beyond the kernel's limit too
      expect(frame(1)).toBe(true);
    } finally { a.dispose(); }
  });

  it('a camera path with setThreads, 1–70 views and growth mixed in = per-object path (fast-check)', async () => {
    // The worker-thread code loaded first, so that every setThreads below starts its workers at once.
    const warm = new LodSet(1);
    warm.setThreads(2);
    await threadModeLoaded(warm);
    warm.dispose();
    let threadedFrames = 0, wideFrames = 0, threadChanges = 0, growths = 0;
    fc.assert(fc.property(
      fc.integer({ min: 1, max: 1e6 }),
      fc.array(fc.record({
        views: fc.constantFrom(1, 1, 2, 2, 16, 17, 64, 65, 70),
        threads: fc.constantFrom(0, 0, 0, 0, 1, 2, 3), // 0: no change, else setThreads(n)
        grow: fc.constantFrom(false, false, false, true),
        read: fc.boolean(),
        dz: fc.double({ min: -1, max: 2, noNaN: true }),
      }), { minLength: 3, maxLength: 12 }),
      (seed, steps) => {
        const [a, b] = pair(2048, treeGrid(40, seed)); // 1,600 objects
        let eye = [0, 2, -90], yaw = Math.PI / 2, added = 0;
        try {
          for (let f = 0; f < steps.length; f++) {
            const st = steps[f];
            if (st.threads !== 0) { a.setThreads(st.threads); threadChanges++; a.setThreadSchedule('threaded', 'first'); }
            if (st.grow) {
              for (const s of [a, b]) s.addMany(treeGrid(12, seed + 1 + added, 200 + 60 * added), 0);
              added++; growths++;
            }
            eye = [eye[0] + 0.4, 2, eye[2] + st.dz]; yaw += 0.001;
            const views = rig(eye, yaw, st.views);
            a.update(views, OPTIONS);
            b.update(views, { ...OPTIONS, clusters: false });
            if (a.threadStats.threaded) threadedFrames++;
            if (st.views > 16) wideFrames++;
            const label = `seed ${seed} frame ${f} (${st.views} views)`;
            for (let i = 0; i < a.count; i++) if (a.levels[i] !== b.levels[i]) throw new Error(`${label}: id ${i} level ${a.levels[i]} / ${b.levels[i]}`);
            if (st.read) expectSame(a, b, label);
          }
          expectSame(a, b, `seed ${seed} end`);
        } finally { a.dispose(); }
      }), { numRuns: 40 });
    expectNonVacuous({ threadedFrames, wideFrames, threadChanges, growths }, { threadedFrames: 103, wideFrames: 124, threadChanges: 134, growths: 77 });
  }, 120_000);
});
