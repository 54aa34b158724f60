/**
 * Hybrid's binding frames on the budget kernel's classification (src/batch/passes/hybridBinding.ts,
 * drivers/hybridBindingFrame.ts) = the per-object path (`clusters: false`), frame by frame: levels,
 * blend, sizes, changed set, stats and price, on walks through sets whose profiles share one screen
 * metric (the path's condition) — blend windows, the frame's band or a profile's own bands, a
 * profile of six levels (beyond the kernel: its clusters decided in JavaScript), quality floors,
 * edits (hidden, forced, moved, invalid, removed), tight and loose budgets, still frames.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { expectNonVacuous } from '../setup/fastCheckSeed.js';
import { type LodUpdateOptions, type LodView } from '../../src/batch/lodSet.js';
import { Frustum } from '../../src/metrics/frustum.js';
import { lookAtRotation } from '../../src/metrics/vector.js';
import { hybridBindingOf } from '../../src/batch/passes/hybridBinding.js';
import { engineOf, newLodSet } from '../../src/batch/engineSeam.js';
import { applyEdit, expectSameBudgetFrame, lcg, randomSpheres, sizeMapsLike, treeGrid } from './helpers.js';

function view(eye: number[], yaw: number, viewportHeight: number): LodView {
  const rotation = lookAtRotation(eye, [eye[0] + Math.cos(yaw) * 50, eye[1] - 2, eye[2] + Math.sin(yaw) * 50]);
  return { frustum: Frustum.perspective({ fovY: 60, aspect: 16 / 9, near: 0.1, far: 900, position: eye, rotation }), viewportHeight };
}

/** The non-vacuity counts of the walks below with the suite's fixed seed (screen height, pixels). */
const FIXED_COUNTS = [
  { frames: 183, stable: 47099, fallbacks: 10, fits: 56, below: 31, decided: 92055, held: 2588, whole: 12, windowed: 1581 },
  { frames: 183, stable: 52341, fallbacks: 9, fits: 58, below: 31, decided: 88265, held: 1157, whole: 29, windowed: 800 },
];

describe('hybrid binding frames = per-object path', () => {
  for (const pixels of [false, true]) it(`walks, edits, floors, bands, tight and loose budgets, ${pixels ? 'pixels' : 'screen height'} (fast-check)`, () => {
    let frames = 0, stable = 0, fallbacks = 0, fits = 0, below = 0, decided = 0, held = 0, whole = 0, windowed = 0;
    fc.assert(fc.property(
      fc.integer({ min: 1, max: 1e6 }), fc.constantFrom(0, 0.4, 0.4, 0.8), fc.constantFrom(0, 1, 1, 3),
      fc.constantFrom(-0.2, 0.05, 0.3, 0.3, 0.6, 0.95, 1.5), fc.constantFrom(true, true, false), fc.constantFrom(255, 2),
      fc.constantFrom(0, 0.1, 0.1, 0.3), fc.constantFrom(undefined, 1, 2), fc.boolean(), fc.boolean(),
      fc.array(fc.record({
        kind: fc.constantFrom(0, 0, 0, 0, 0, 0, 1, 2, 3), dx: fc.double({ min: -1, max: 1, noNaN: true }),
        dyaw: fc.double({ min: -0.02, max: 0.02, noNaN: true }), edit: fc.integer({ min: 0, max: 14 }), target: fc.nat(), share: fc.integer({ min: 0, max: 6 }),
      }), { minLength: 4, maxLength: 20 }),
      (seed, band, tolerance, share, cull, maxLevel, hysteresis, floor, exactSizes, ownBands, steps) => {
        const m = pixels ? 'pixels' as const : 'screenHeight' as const, k = pixels ? 1080 : 1;
        const a = newLodSet(64, { wasm: true }), b = newLodSet(64, { wasm: true }), c = newLodSet(64, { wasm: true }); // c: a cost oracle
        for (const s of [a, b, c]) {
          s.addProfile({ metric: m, thresholds: [0.3 * k, 0.1 * k, 0.03 * k], blendThresholds: [0.25 * k, 0.08 * k], costs: [900, 300, 60, 8], qualityFloor: floor, ...(ownBands ? { hysteresis: [0.05, 0.2, 0.1] } : {}) });
          s.addProfile({ metric: m, thresholds: [0.12 * k, 0.03 * k], costs: [600, 150, 20], errors: [0.001, 0.01, 0.05] });
          s.addProfile({ metric: m, thresholds: [0.5 * k, 0.2 * k, 0.1 * k, 0.05 * k, 0.02 * k], costs: [3000, 1200, 500, 200, 80, 30] });
          s.addMany(treeGrid(40, seed), 0);
          s.addMany(randomSpheres(500, seed + 1, 250, 0.3, 5), 1);
          s.addMany(randomSpheres(200, seed + 2, 250, 0.3, 5), 2);
        }
        const rand = lcg(seed + 3), removed = new Set<number>();
        let eye = [0, 5, 0], yaw = 0.2;
        for (let f = 0; f < steps.length; f++) {
          const st = steps[f];
          if (st.kind === 1) eye = [eye[0] + st.dx * 40, 5, eye[2] + st.dx * 20];
          else if (st.kind === 2) eye = [(rand() * 2 - 1) * 150, 5, (rand() * 2 - 1) * 150];
          else if (st.kind === 0) eye = [eye[0] + st.dx, 5, eye[2] + st.dx * 0.5];
          yaw += st.kind === 3 ? 0 : st.dyaw; // (kind 3: a still frame)
          const v = view(eye, yaw, pixels ? 720 : 1080); // (pixels: thresholds for 1080 px on a 720 px viewport)
          const base = { cull, maxLevel, clusters: false };
          const preferred = c.update(v, { ...base, policy: 'thresholds' }).totalCost;
          const cheapest = c.update(v, { ...base, policy: 'hybrid', budget: 0 }).minimumCost;
          // Mostly the walk's share of the way from the minimum to the preferred cost; now and then
          // another one (within budget, below the minimum, binding more or less).
          const s = st.share === 0 ? 1.2 : st.share === 1 ? -0.3 : st.share === 2 ? 0.5 : share;
          const budget = Math.max(0, Math.round(cheapest + s * (preferred - cheapest)));
          const options: LodUpdateOptions = { policy: 'hybrid', budget, stabilityBand: band, tolerance, cull, maxLevel, hysteresis, exactSizes };
          const framesBefore = hybridBindingOf(engineOf(a).ci).frames;
          const ra = a.update(v, options);
          const sa = { ...ra, levelCounts: Array.from(ra.levelCounts) };
          const sb = b.update(v, { ...options, clusters: false });
          if (hybridBindingOf(engineOf(a).ci).frames > framesBefore) {
            if (ra.totalCost <= budget && a.budgetPrice === 0) fits++;
            if (ra.minimumCost > budget) below++;
          }
          // (a cluster skipped whole keeps sizes that map to the same level: LodSet's `sizes`; ids [0, 1600)
          // profile 0, then 500 of profile 1, 200 of profile 2)
          expectSameBudgetFrame(a, b, sa, sb, `seed ${seed} frame ${f} kind ${st.kind}`, exactSizes ? undefined : (id, size, ref) =>
            id < 1600 ? sizeMapsLike(size, ref, [0.3 * k, 0.1 * k, 0.03 * k], [0.25 * k, 0.08 * k], maxLevel)
              : id < 2100 ? sizeMapsLike(size, ref, [0.12 * k, 0.03 * k], [], maxLevel)
                : sizeMapsLike(size, ref, [0.5 * k, 0.2 * k, 0.1 * k, 0.05 * k, 0.02 * k], [], maxLevel));
          const id = st.target % a.count;
          if (removed.has(id) || st.edit > 6) continue;
          if (st.edit === 5) removed.add(id);
          for (const s2 of [a, b, c]) applyEdit(s2, st.edit, id);
        }
        const hb = hybridBindingOf(engineOf(a).ci);
        frames += hb.frames; stable += hb.stableTotal; fallbacks += hb.fallbacks; decided += hb.laneDecided; held += hb.laneHeld; whole += hb.skippedTotal;
        windowed += hb.windowedTotal;
      }), { numRuns: 40 });
    // Not vacuous: frames this path ran, objects its kernel found stable, frames whose solve failed
    // (collected again with every chain), frames it found within budget or below the minimum, objects
    // the kernel decided (`$lane`) and held (held ranges and `$lane`), clusters taken whole (the test
    // below takes clusters coarsened whole), stable objects inside a blend window. Clusters taken whole
    // are rare in these walks (12 and 29 with the fixed seed, none with seed -1845437573): another seed
    // may take none; the test below takes 876.
    expectNonVacuous({ frames, stable, fallbacks, fits, below, decided, held, whole, windowed }, FIXED_COUNTS[pixels ? 1 : 0], { whole: 0 });
  });

  it('a field of equal trees walked slowly over a tight budget: clusters coarsened whole are taken whole', () => {
    // Equal radii, so that a far cluster prefers one level throughout and the budget coarsens it whole
    // (the random walks above rarely make one: their sizes spread over several levels per cluster).
    const a = newLodSet(64, { wasm: true }), b = newLodSet(64, { wasm: true }), c = newLodSet(64, { wasm: true }); // c: a cost oracle
    const trees = treeGrid(80, 7);
    for (let i = 3; i < trees.length; i += 4) trees[i] = 2;
    const t = [0.2, 0.06, 0.015], bt = [0.17, 0.05, 0.012];
    for (const s of [a, b, c]) {
      s.addProfile({ metric: 'screenHeight', thresholds: t, blendThresholds: bt, costs: [900, 300, 60, 8] });
      s.addMany(trees, 0);
    }
    const at = (k: number): LodView => {
      const eye = [-158 + k * 0.5, 2, 1];
      return { frustum: Frustum.perspective({ fovY: 75, aspect: 16 / 9, near: 0.1, far: 3000, position: eye, rotation: lookAtRotation(eye, [eye[0] + 100, 2, 31]) }), viewportHeight: 1080 };
    };
    const preferred = c.update(at(0), { policy: 'thresholds', hysteresis: 0.1, clusters: false }).totalCost;
    const cheapest = c.update(at(0), { policy: 'hybrid', budget: 0, hysteresis: 0.1, clusters: false }).minimumCost;
    const options: LodUpdateOptions = { policy: 'hybrid', budget: Math.round(cheapest + 0.3 * (preferred - cheapest)), hysteresis: 0.1 };
    for (let k = 0; k < 40; k++) {
      const ra = a.update(at(k), options), sa = { ...ra, levelCounts: Array.from(ra.levelCounts) };
      const sb = b.update(at(k), { ...options, clusters: false });
      expectSameBudgetFrame(a, b, sa, sb, `frame ${k}`, (_id, size, ref) => sizeMapsLike(size, ref, t, bt, 255));
    }
    const hb = hybridBindingOf(engineOf(a).ci);
    expect({ frames: hb.frames, whole: hb.skippedTotal, coarsened: hb.coarsenedTotal }).toEqual({ frames: 39, whole: 876, coarsened: 20 });
  });
});
