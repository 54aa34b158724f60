/**
 * The hybrid policy over the clusters with its cluster-level shortcuts (src/batch/hybridIncremental.ts:
 * one preferred level per cluster, stable coarsening chains skipped) against the per-object path
 * (`clusters: false`) frame by frame — levels, blend, sizes, changed set, stats and price — on
 * long camera walks with fast moves, teleports, two views, edits, hysteresis, quality floors,
 * tight budgets (protected items do not all fit: re-collected) and loose ones (within budget).
 * Sizes are byte-identical with `exactSizes`; without it an object of a cluster skipped whole may
 * keep an earlier size, which must map to its level outside every blend window (LodSet's `sizes`).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { expectNonVacuous } from '../setup/fastCheckSeed.js';
import { LodSet, type LodUpdateOptions, type LodView } from '../../src/batch/lodSet.js';
import { Frustum } from '../../src/metrics/frustum.js';
import { lookAtRotation } from '../../src/metrics/vector.js';
import { hybridStateOf } from '../../src/batch/passes/hybridIncremental.js';
import { engineOf, newLodSet, setHybridBindingPass } from '../../src/batch/engineSeam.js';
import { applyEdit, expectSameBudgetFrame, lcg, randomSpheres, sizeMapsLike } from './helpers.js';

/** A jittered grid (ids row by row, radii 1–2 m): clusters narrow enough to share one preferred level. */
function grid(side: number, seed: number): Float32Array {
  const rand = lcg(seed), out = new Float32Array(side * side * 4);
  for (let i = 0; i < side * side; i++) {
    out[i * 4] = ((i % side) - side / 2) * 5 + rand() * 2;
    out[i * 4 + 1] = 1.5;
    out[i * 4 + 2] = (Math.floor(i / side) - side / 2) * 5 + rand() * 2;
    out[i * 4 + 3] = 1 + rand();
  }
  return out;
}

function view(eye: number[], yaw: number): LodView {
  const rotation = lookAtRotation(eye, [eye[0] + Math.cos(yaw) * 50, eye[1] - 2, eye[2] + Math.sin(yaw) * 50]);
  return { frustum: Frustum.perspective({ fovY: 60, aspect: 16 / 9, near: 0.1, far: 900, position: eye, rotation }), viewportHeight: 1080 };
}

/** The non-vacuity counts of the fast-check walks below with the suite's fixed seed. */
const FIXED_COUNTS_WASM = { frames: 551, uniform: 32131, stable: 9327, fallbacks: 5, staleSizes: 3755, settled: 561 }; // (still frames narrow the band: stillFrames.ts)
const FIXED_COUNTS_JS = { frames: 551, uniform: 31555, stable: 9327, fallbacks: 5, staleSizes: 729 }; // (below the minimum no collection runs: clusterDrivers.ts)

describe('incremental hybrid over clusters = per-object path', () => {
  for (const wasm of [true, false]) it(`long walks, fast moves, teleports, two views, edits, quality floors, tight and loose budgets, ${wasm ? 'with' : 'without'} WebAssembly (fast-check)`, () => {
    let stable = 0, uniform = 0, fallbacks = 0, frames = 0, staleSizes = 0, settled = 0;
    const runAll = () => { fc.assert(fc.property(
      fc.integer({ min: 1, max: 1e6 }), fc.constantFrom(0, 0.4, 0.4, 0.8), fc.constantFrom(0, 1, 1, 3),
      fc.constantFrom(0.05, 0.3, 0.6, 0.95, 1.5), fc.constantFrom(0, 0, 2), fc.constantFrom(true, true, false), fc.constantFrom(255, 2),
      fc.constantFrom(0, 0.1, 0.1, 0.3), fc.constantFrom(undefined, 1, 2), fc.boolean(),
      fc.array(fc.record({
        kind: fc.constantFrom(0, 0, 0, 0, 0, 1, 2, 3), dx: fc.double({ min: -1, max: 1, noNaN: true }),
        dyaw: fc.double({ min: -0.02, max: 0.02, noNaN: true }), edit: fc.integer({ min: 0, max: 12 }), target: fc.nat(),
      }), { minLength: 4, maxLength: 16 }),
      (seed, band, tolerance, share, minFrames, cull, maxLevel, hysteresis, floor, exactSizes, steps) => {
        const a = newLodSet(64, { wasm }), b = newLodSet(64, { wasm }), c = newLodSet(64, { wasm }); // c: a cost oracle for the budgets
        for (const s of [a, b, c]) {
          s.addProfile({ metric: 'screenHeight', thresholds: [0.3, 0.1, 0.03], blendThresholds: [0.25, 0.08], costs: [900, 300, 60, 8], qualityFloor: floor });
          s.addProfile({ metric: 'pixels', thresholds: [120, 30], costs: [600, 150, 20], errors: [0.001, 0.01, 0.05] });
          s.addProfile({ metric: 'distance', thresholds: [30, 80], costs: [500, 100, 10] });
          s.addMany(grid(42, seed), 0);
          s.addMany(randomSpheres(600, seed + 1, 300, 0.3, 5), 1);
          s.addMany(randomSpheres(300, seed + 2, 300, 0.3, 5), 2);
        }
        const rand = lcg(seed + 3), removed = new Set<number>();
        let eye = [0, 5, 0], yaw = 0.2;
        for (let f = 0; f < steps.length; f++) {
          const st = steps[f];
          const move = st.kind === 1 ? 40 : 1;
          if (st.kind === 2) eye = [(rand() * 2 - 1) * 200, 5, (rand() * 2 - 1) * 200];
          else eye = [eye[0] + st.dx * move, 5, eye[2] + st.dx * move * 0.5];
          yaw += st.dyaw;
          const v: LodView | LodView[] = st.kind === 3 ? [view(eye, yaw), view([eye[0] + 30, 5, eye[2]], yaw + 0.5)] : view(eye, yaw);
          const base = { cull, maxLevel, clusters: false };
          const preferred = c.update(v, { ...base, policy: 'thresholds' }).totalCost;
          const cheapest = c.update(v, { ...base, policy: 'hybrid', budget: 0 }).minimumCost;
          const budget = Math.round(cheapest + share * (preferred - cheapest));
          const options: LodUpdateOptions = { policy: 'hybrid', budget, stabilityBand: band, tolerance, minFramesBetweenChanges: minFrames, cull, maxLevel, hysteresis, exactSizes };
          const ra = a.update(v, options);
          const sa = { ...ra, levelCounts: Array.from(ra.levelCounts) };
          const sb = b.update(v, { ...options, clusters: false });
          const label = `seed ${seed} frame ${f} kind ${st.kind}`;
          // ids [0, 1764): profile 0 (screenHeight), then 600 of profile 1 (pixels), 300 of profile 2 (distance).
          staleSizes += expectSameBudgetFrame(a, b, sa, sb, label, exactSizes ? undefined : (id, size, ref) =>
            id < 1764 ? sizeMapsLike(size, ref, [0.3, 0.1, 0.03], [0.25, 0.08], maxLevel)
              : id < 2364 && sizeMapsLike(size, ref, [120, 30], [], maxLevel));
          const id = st.target % a.count;
          if (removed.has(id)) continue;
          if (st.edit === 5) removed.add(id);
          for (const s of [a, b, c]) applyEdit(s, st.edit, id);
        }
        const hy = hybridStateOf(engineOf(a).ci);
        stable += hy.stableTotal; uniform += hy.uniformTotal; fallbacks += hy.fallbacks; frames += hy.frames; settled += hy.settledTotal;
      }), { numRuns: 60 }); };
    runAll();
    // Not vacuous: clusters decided as a whole, coarsening chains skipped, frames that needed the
    // full path, kept sizes that differ from this frame's (clusters skipped whole) and, with the
    // kernel, clusters its first pass settled for the collection (fusedCollect.ts). Exact for the
    // suite's fixed seed (test/setup/fastCheckSeed.ts).
    if (wasm) expectNonVacuous({ frames, uniform, stable, fallbacks, staleSizes, settled }, FIXED_COUNTS_WASM);
    else {
      expect(settled).toBe(0);
      // (without the kernel few clusters are skipped whole: seed 1329447198 skipped 33 in the 273 frames
      // with exactSizes off, each keeping unchanged sizes — stale 0, the kernel's 153; so a random seed
      // may have none here)
      expectNonVacuous({ frames, uniform, stable, fallbacks, staleSizes }, FIXED_COUNTS_JS, { staleSizes: 0 });
    }
  });

  for (const bindingPass of [false, true]) it(`clusters at one preferred level, coarsened by a tight budget, then thresholds frames: no stale cluster state${bindingPass ? ' (binding pass on)' : ''}`, () => {
    // A 40 × 40 grid of equal spheres at 60–100 m: whole clusters prefer one level (1) and a budget
    // between the floor's and the preferred cost coarsens some of them; thresholds frames between
    // the hybrid frames must not skip a cluster whose objects were coarsened. (The binding pass,
    // passes/hybridBinding.ts, leaves every cluster mixed: switched off, the hybrid frames take the
    // passes whose cluster states this test is about.)
    const make = () => {
      const s = new LodSet(64);
      setHybridBindingPass(s, bindingPass);
      s.addProfile({ metric: 'screenHeight', thresholds: [0.3, 0.02, 0.005], costs: [900, 300, 60, 8], qualityFloor: 3 });
      const sp = new Float32Array(1600 * 4);
      for (let i = 0; i < 1600; i++) { sp[i * 4] = (i % 40) * 1.0 - 20; sp[i * 4 + 1] = 1; sp[i * 4 + 2] = 60 + Math.floor(i / 40) * 1.0; sp[i * 4 + 3] = 0.5; }
      s.addMany(sp, 0);
      return s;
    };
    const a = make(), b = make(), oracle = make();
    let coarsened = 0, skipped = 0;
    for (let f = 0; f < 24; f++) {
      const v = view([0, 1, -f * 0.05], Math.PI / 2);
      const thresholdsFrame = f % 3 === 2;
      const preferred = oracle.update(v, { policy: 'thresholds', clusters: false }).totalCost;
      const cheapest = oracle.update(v, { policy: 'hybrid', budget: 0, clusters: false }).minimumCost;
      const options: LodUpdateOptions = thresholdsFrame ? { policy: 'thresholds', hysteresis: 0.1 }
        : { policy: 'hybrid', budget: Math.round(cheapest + (0.3 + 0.4 * ((f * 7) % 5) / 4) * (preferred - cheapest)), hysteresis: 0.1 };
      const ra = a.update(v, options);
      const sa = { ...ra, levelCounts: Array.from(ra.levelCounts) };
      const sb = b.update(v, { ...options, clusters: false });
      expectSameBudgetFrame(a, b, sa, sb, `frame ${f}`, (id, size, ref) => sizeMapsLike(size, ref, [0.3, 0.02, 0.005], [], 255));
      if (!thresholdsFrame) for (let i = 0; i < a.count; i++) if (a.levels[i] > 1) coarsened++;
      skipped += a.clusterStats.skipped;
    }
    expect(coarsened).toBeGreaterThan(100); // the budget coarsened objects of one-level clusters
    if (!bindingPass) expect(skipped).toBeGreaterThan(0); // and clusters were skipped whole
  });
});
