/**
 * The stable floor of the incremental budget and hybrid paths (src/batch/passes/budgetStable.ts
 * `setStableFloor`, IncrementalState `noteCut` / `raiseFloor`): hand-worked floors after cuts, the
 * cut key the reduced solve leaves, and a walk back through trees where the band's price alternates
 * and frames after a cut stand with the floor at the cut's key — frame by frame the same as the
 * per-object path (`clusters: false`).
 */
import { describe, expect, it } from 'vitest';
import { LodSet, type LodUpdateOptions } from '../../src/batch/lodSet.js';
import { FrameState } from '../../src/batch/core/frameState.js';
import { ScreenSpaceScratch } from '../../src/batch/passes/screenSpacePasses.js';
import { IncrementalState, setStableFloor } from '../../src/batch/passes/budgetStable.js';
import { reducedSolve } from '../../src/batch/passes/budgetIncremental.js';
import { newLodSet } from '../../src/batch/engineSeam.js';
import { expectSameBudgetFrame, FloorTracker, treeGrid, yawView } from './helpers.js';

describe('the stable floor after cuts (budgetStable.ts setStableFloor, IncrementalState.noteCut / raiseFloor)', () => {
  // Hand-worked, band 0.4, λ 2: the tier starts at 0.6 λ = 1.2; after a cut at key κ the floor is
  // κ + 0.05 λ for 32 frames, within [1.2, 0.9 λ = 1.8]; the largest cut of those frames counts.
  const floorAt = (state: IncrementalState, frame: number, lambda = 2) => {
    const sc = new ScreenSpaceScratch();
    sc.band = 0.4; sc.lambda = lambda;
    state.raiseFloor(frame, sc);
    setStableFloor(sc, state.ranges);
    return sc.stableFloor;
  };
  const cut = (state: IncrementalState, frame: number, key: number) => {
    const sc = new ScreenSpaceScratch();
    sc.cutAt = key; // (what reducedSolve leaves)
    state.noteCut(frame, sc);
  };
  it('rises just above the cuts of the last 32 frames, to 0.9 λ at a key as high as λ, and falls back after them', () => {
    const state = new IncrementalState();
    expect(floorAt(state, 5)).toBeCloseTo(1.2, 12); // no cut yet
    cut(state, 10, 1.3);
    expect(floorAt(state, 11)).toBeCloseTo(1.4, 12); // 1.3 + 0.05 × 2
    cut(state, 12, 1.4); cut(state, 12, 1.24);
    expect(floorAt(state, 13)).toBeCloseTo(1.5, 12); // the larger of frame 12's cuts
    expect(floorAt(state, 44)).toBeCloseTo(1.5, 12); // 32 frames after frame 12
    expect(floorAt(state, 45)).toBeCloseTo(1.2, 12); // none left
    cut(state, 50, 2); // (a key as high as the frame's λ)
    expect(floorAt(state, 51)).toBeCloseTo(1.8, 12);
    cut(state, 83, 1.22); // (frame 50's slot, 83 = 50 + 33: a slot is reused only past the window)
    expect(floorAt(state, 84)).toBeCloseTo(1.32, 12); // 1.22 + 0.05 × 2: frame 50 is 34 frames back
  });
  it('a redone frame is noted at the key where its full solve cut the tier, or at its λ where that cut none', () => {
    const state = new IncrementalState(), sc = new ScreenSpaceScratch();
    sc.cutAt = 2; sc.cutKey = 1.3; // (a failed reduced solve leaves the frame's λ; the full solve's cut)
    state.noteRedoneCut(10, sc);
    expect(floorAt(state, 11)).toBeCloseTo(1.4, 12); // 1.3 + 0.05 × 2, not 0.9 λ
    sc.cutAt = 2; sc.cutKey = -1;
    state.noteRedoneCut(50, sc);
    expect(floorAt(state, 51)).toBeCloseTo(1.8, 12); // λ + 0.05 λ, clamped to 0.9 λ
  });
  it('the floor is the cuts\' key in a frame of another λ, not their ratio to their frame\'s λ', () => {
    const state = new IncrementalState();
    cut(state, 10, 1.3); // 0.65 × λ 2
    expect(floorAt(state, 11, 2.1)).toBeCloseTo(1.405, 12); // 1.3 + 0.05 × 2.1 (not (0.65 + 0.05) × 2.1 = 1.47)
    expect(floorAt(state, 11, 4)).toBeCloseTo(2.4, 12); // 1.3 + 0.2 = 1.5 is below the tier's start 0.6 × 4
    expect(floorAt(state, 11, 1.5)).toBeCloseTo(1.35, 12); // 1.3 + 0.075 is above 0.9 × 1.5
  });
  it('a cut the reduced solve finds is noted as its key; a capacity below the stable cost as the frame\'s λ', () => {
    const st = new FrameState(), sc = new ScreenSpaceScratch();
    st.stride = 3; st.levelCount = new Uint8Array([3]); st.costs = new Float64Array([300, 200, 100]); st.errors = new Float64Array([0, 0.001, 0.01]);
    sc.band = 0.4; sc.lambda = 2; sc.tolerance = 1; sc.viewportMax = 1080; sc.stableFloor = 1.8; sc.ensure(2, 4);
    const run = (budget: number) => {
      st.keys = new Float64Array([-10, -1.5]); st.items = new Uint32Array([0 << 3, 1 << 3]);
      st.chainOf = new Uint32Array([0, 4]); st.next = new Uint8Array([2, 2]); sc.lambda = 2;
      for (const [c, key] of [[0, 10], [4, 1.5]]) { sc.chains.slope[c] = key; sc.chains.deltaCost[c] = 100; sc.chains.level[c] = 1; }
      return reducedSolve(st, sc, new Float64Array([0, 100, 0, 0, budget]), 2, 1, 3); // (both keys negative: protected)
    };
    expect(run(250)).toBe(2); // the item of key 1.5 is cut
    expect(sc.cutAt).toBe(1.5);
    expect(run(50)).toBe(0); // capacity −50: no key
    expect(sc.cutAt).toBe(2);
  });
});

describe('the stable floor on a walk', () => {
  for (const policy of ['budget', 'hybrid'] as const) it(`${policy} walking back through trees: after cuts, frames at a higher λ stand with the floor at the cuts' key, below their ratio's = per-object path`, () => {
    // The bench's walk back (bench/regimes.ts) at 60 × 60 trees: the band's price alternates (a cut
    // frame's price is a newcomer's ratio, and λ rises by the band's cap after it), so the frames
    // after a cut have a higher λ than the cut's; their floor stays at the cut's key.
    let checked = 0, lowered = 0, cuts = 0, redone = 0, raised = 0, redoneCuts = 0;
    for (const wasm of [true, false]) {
      const fill = (s: LodSet) => { s.addProfile({ metric: 'screenHeight', thresholds: [0.2, 0.06, 0.015], blendThresholds: [0.17, 0.05, 0.012], costs: [20000, 5000, 1200, 150] }); s.addMany(treeGrid(60, 5), 0); return s; };
      const a = fill(newLodSet(64, { wasm })), b = fill(newLodSet(64, { wasm })), oracle = fill(new LodSet(64));
      const at = (f: number) => yawView([-3, 2, 40 - (f % 40) * 0.5], Math.PI / 2, false); // (two passes of the 40-frame walk)
      const preferred = oracle.update(at(0), { policy: 'thresholds', clusters: false, hysteresis: 0.1 }).totalCost;
      const cheapest = oracle.update(at(0), { policy: 'budget', budget: 0, clusters: false }).minimumCost;
      const options: LodUpdateOptions = { policy, budget: Math.round(cheapest + 0.5 * (preferred - cheapest)), hysteresis: 0.1 };
      const floor = new FloorTracker(a, policy, 0.4, b);
      for (let f = 0; f < 80; f++) {
        floor.frame(f, () => {
          const ra = a.update(at(f), options);
          const sa = { ...ra, levelCounts: Array.from(ra.levelCounts) };
          const sb = b.update(at(f), { ...options, clusters: false });
          expectSameBudgetFrame(a, b, sa, sb, `${wasm ? 'wasm' : 'js'} frame ${f}`);
        });
      }
      const state = floor.state();
      checked += floor.checked; lowered += floor.lowered; redoneCuts += floor.redoneCuts;
      cuts += state.cuts; redone += state.reruns + state.fallbacks; raised += state.raised;
    }
    // (exact: the walk is fixed; with and without WebAssembly. `redoneCuts`: the redone frames whose
    // noted key is the per-object path's cut, every one here. `raised`: budget's frames passed again with
    // the floor at its highest, clusterDrivers.ts.)
    expect({ checked, lowered, cuts, redone, raised, redoneCuts }).toEqual(policy === 'budget'
      ? { checked: 150, lowered: 106, cuts: 10, redone: 2, raised: 8, redoneCuts: 8 }
      : { checked: 150, lowered: 106, cuts: 4, redone: 8, raised: 0, redoneCuts: 8 });
  });
});
