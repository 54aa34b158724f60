/**
 * The budget policy over the clusters without building stable objects' chains
 * (src/batch/budgetStable.ts, budgetIncremental.ts):
 * - the stable ranges are sound: for diameters sampled inside them, the real chain builder
 *   (`buildObjectChain`) gives the predicted start level, protected steps up to the previous
 *   level and no offered step past it — checked here from the builder's own output;
 * - frame by frame the same levels, blend, sizes, changed set, stats and price as the per-object
 *   path (`clusters: false`) on long camera walks (stable objects dominate), with fast moves,
 *   teleports, two views, edits, tight budgets (the protected tier overflows: the full path
 *   redoes the frame) and loose ones (the price decays).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { expectNonVacuous } from '../setup/fastCheckSeed.js';
import { LodSet, type LodUpdateOptions, type LodView } from '../../src/batch/lodSet.js';
import { Frustum } from '../../src/metrics/frustum.js';
import { lookAtRotation } from '../../src/metrics/vector.js';
import { FrameState } from '../../src/batch/core/frameState.js';
import { ScreenSpaceScratch, updatePrice } from '../../src/batch/passes/screenSpacePasses.js';
import {
  computeHybridStableRanges, computeStableRanges, evalIn, evalOut, STABLE_MAX_RANGES, StableRanges, stableEval,
} from '../../src/batch/passes/budgetStable.js';
import { buildObjectChain } from '../../src/policies/screenSpaceError.js';
import { budgetStateOf, reducedSolve } from '../../src/batch/passes/budgetIncremental.js';
import { hybridStateOf } from '../../src/batch/passes/hybridIncremental.js';
import { budgetRegimeOf, engineOf, newLodSet } from '../../src/batch/engineSeam.js';
import { applyEdit, expectSameBudgetFrame, FloorTracker, lcg, randomSpheres, sizeMapsLike } from './helpers.js';

/**
 * One profile of `levels` levels from `seed` (finer levels cost more and err less; with
 * `equalCosts` some neighbours cost the same), a quality floor, and the frame's tolerance, band and
 * price over a 1080 px viewport.
 */
function randomChainFrame(levels: number, seed: number, equalCosts: boolean, band: number, tolerance: number, lambda: number) {
  const rand = lcg(seed);
  const st = new FrameState(), sc = new ScreenSpaceScratch();
  st.stride = levels;
  st.costs = new Float64Array(levels); st.errors = new Float64Array(levels);
  st.costs[0] = 1000 + Math.floor(rand() * 50000); st.errors[0] = 1e-4 + rand() * 0.01;
  for (let l = 1; l < levels; l++) {
    st.costs[l] = equalCosts && rand() < 0.3 ? st.costs[l - 1] : Math.max(1, Math.round(st.costs[l - 1] / (1.5 + rand() * 4)));
    st.errors[l] = st.errors[l - 1] * (1 + rand() * 6);
  }
  st.lo = new Uint8Array([0]); st.hi = new Uint8Array([levels - 1]); st.levelCount = new Uint8Array([levels]);
  sc.tolerance = tolerance; sc.band = band; sc.lambda = lambda; sc.viewportMax = 1080;
  sc.ensure(1, levels);
  st.floor = new Uint8Array([1 + Math.floor(rand() * (levels - 1))]);
  return { st, sc, rand };
}

/** Whether stableEval's margin refuses grid point g (of 2,048 over [0, 1080]) or a neighbour of it. */
function refusedNear(g: number, refused: (w: number) => boolean): boolean {
  for (let h = g - 1; h <= g + 1; h++) if (refused((1080 * h) / 2048)) return true;
  return false;
}

describe('stable ranges of the budget chains', () => {
  it('every diameter inside a range gives, with the real chain builder, the predicted stable chain (fast-check)', () => {
    let ranges = 0, samples = 0;
    fc.assert(fc.property(
      fc.integer({ min: 2, max: 6 }), fc.integer({ min: 1, max: 1e6 }),
      fc.constantFrom(0.2, 0.4, 0.8), fc.constantFrom(0, 0.5, 1, 3), fc.oneof(fc.double({ min: 1e-4, max: 20, noNaN: true }), fc.constantFrom(1e-19, 3e-12, 1e-300)),
      fc.boolean(), fc.oneof(fc.constant(-1), fc.double({ min: 0.5, max: 1.05, noNaN: true })),
      (levels, seed, band, tolerance, lambda, equalCosts, raised) => {
        const { st, sc, rand } = randomChainFrame(levels, seed, equalCosts, band, tolerance, lambda);
        // Stable steps reach the protected tier's floor (1 − band) λ, or, raised after a cut at
        // `raised` λ, (raised + band/8) λ within [(1 − band) λ, (1 − band/4) λ] (budgetStable.ts setStableFloor).
        const up = Math.min(1 - band / 4, Math.max(1 - band, raised + band / 8));
        const floorKey = (raised >= 0 ? up : 1 - band) * lambda, ceilKey = (1 + band) * lambda;
        const params = new Float64Array([0, tolerance, band, lambda]);
        // Budget rows (finest 0, coarsest levels − 1, previous L) and hybrid rows (finest pref,
        // coarsest the floor, flat steps kept).
        const cases: { row: number; finest: number; coarsest: number; L: number; flat: boolean; sr: StableRanges }[] = [];
        const sr = new StableRanges(), hr = new StableRanges();
        sr.floorFactor = hr.floorFactor = raised >= 0 ? up : 1 - band;
        computeStableRanges(st, sc, sr, 1);
        computeHybridStableRanges(st, sc, hr, 1);
        for (let L = 0; L < levels; L++) cases.push({ row: L, finest: 0, coarsest: levels - 1, L, flat: false, sr });
        for (let pref = 0; pref < st.floor[0]; pref++) {
          for (let L = pref; L <= st.floor[0]; L++) cases.push({ row: pref * levels + L, finest: pref, coarsest: st.floor[0], L, flat: true, sr: hr });
        }
        for (const { row, finest, coarsest, L, flat, sr: table } of cases) {
          for (let k = 0; k < table.count[row]; k++) {
            ranges++;
            const r = row * STABLE_MAX_RANGES + k, lo = table.lo[r], hi = table.hi[r];
            for (let t = 0; t <= 16; t++) {
              const w = t === 16 ? hi : lo + ((hi - lo) * t) / 16 * (t % 2 === 0 ? 1 : rand());
              params[0] = w;
              const packed = buildObjectChain(st.costs, st.errors, 0, coarsest, finest, L, flat, params, sc.chains.level, sc.chains.deltaCost, sc.chains.slope, 0);
              const start = packed & 255, steps = packed >>> 8;
              samples++;
              expect(start, `L ${L} w ${w}`).toBe(table.start[r]);
              let reached = start === L;
              for (let j = 0; j < steps; j++) {
                const level = sc.chains.level[j], key = sc.chains.slope[j];
                if (level < L) { expect(key < ceilKey, `L ${L} w ${w} step ${j}: offered past L`).toBe(true); break; }
                expect(key >= floorKey, `L ${L} w ${w} step ${j}: below the stable floor`).toBe(true);
                if (level === L) reached = true;
              }
              expect(reached, `L ${L} w ${w}: chain does not reach L`).toBe(true);
            }
          }
        }
      }), { numRuns: 300 });
    expectNonVacuous({ ranges, samples }, { ranges: 10632, samples: 180744 }); // exact for the suite's fixed seed
  });
  it('the ranges hold every diameter whose chain the builder finds stable, but for a grid step around a change (fast-check)', () => {
    // The converse of the test above, from the builder's side: on a grid of 2,048 diameters over
    // [0, 1080], a diameter whose chain (buildObjectChain) is stable, as its two neighbours' with
    // the same steps, lies inside a range of its start level — unless within a grid step of a kink,
    // where a level's loss e·w − τ or the keep bonus ((1 − band) τ against e·w) changes sign: fillRow
    // leaves 1e-7 × w out on each side of one, and where its margin test fails at that end, the
    // bisection's last half there (≤ 1080 / 4096 px). A comparison that changes sign inside a piece
    // between two kinks (a step's slope crossing 0 or a price threshold) used to cost the rest of
    // its eighth of the piece (bisection depth 3: walking forward at 100k, ≈ 1,900 chains a frame
    // built for objects at their floor that offer no step). Also left out by design: a diameter
    // where one of the chain's comparisons is decided by less than fillRow's margin (1e-9 of its
    // terms' magnitudes: stableEval's `ok` is 0 there). With tolerance 0 every error term vanishes
    // at w = 0, where the slopes of the steps toward levels on one side of the previous level all
    // equal the price; they part in proportion to w, and below ≈ 1.1 px in random seeds
    // −877702106 and 1099011892 by less than the margin. Such a refused stretch ends a piece like a
    // kink does, so the bisection's last half beside it (≤ 1080 / 4096 px, under a grid step) is left
    // out too: a grid point next to a refused one is excused (seed −1576910755: two steps of equal
    // slope merge at w ≈ 423.8, refused over [423.11, 424.47], the range resumes at 424.58).
    // fillRow's own misses stay failures.
    let covered = 0;
    fc.assert(fc.property(
      fc.integer({ min: 2, max: 5 }), fc.integer({ min: 1, max: 1e6 }), fc.constantFrom(0.2, 0.4, 0.8), fc.constantFrom(0, 0.5, 3),
      fc.oneof(fc.double({ min: 1e-4, max: 20, noNaN: true }), fc.constantFrom(1e-19, 1e-300)),
      (levels, seed, band, tolerance, lambda) => {
        const { st, sc } = randomChainFrame(levels, seed, false, band, tolerance, lambda);
        const floorKey = (1 - band) * lambda, ceilKey = (1 + band) * lambda;
        const params = new Float64Array([0, tolerance, band, lambda]);
        const sr = new StableRanges(), hr = new StableRanges();
        sr.floorFactor = hr.floorFactor = 1 - band; // (no cut: the tier's floor)
        computeStableRanges(st, sc, sr, 1);
        computeHybridStableRanges(st, sc, hr, 1);
        const cases: [StableRanges, number, number, number, number, boolean][] = [];
        for (let L = 0; L < levels; L++) cases.push([sr, L, 0, levels - 1, L, false]);
        for (let pref = 0; pref < st.floor[0]; pref++) for (let L = pref; L <= st.floor[0]; L++) cases.push([hr, pref * levels + L, pref, st.floor[0], L, true]);
        const N = 2048, start = new Int16Array(N + 1), shape = new Float64Array(N + 1);
        for (const [table, row, finest, coarsest, L, flat] of cases) {
          // The start level of a stable chain at grid point g (as the test above checks one), else −1.
          for (let g = 0; g <= N; g++) {
            params[0] = (1080 * g) / N;
            const packed = buildObjectChain(st.costs, st.errors, 0, coarsest, finest, L, flat, params, sc.chains.level, sc.chains.deltaCost, sc.chains.slope, 0);
            const s0 = packed & 255, steps = packed >>> 8;
            let ok = true, reached = s0 === L, steps0 = s0;
            for (let j = 0; j < steps && ok; j++) {
              const level = sc.chains.level[j], key = sc.chains.slope[j];
              steps0 = steps0 * 16 + level + 1; // (the steps up to the first one past L)
              if (level < L) { ok = key < ceilKey; break; }
              ok = key >= floorKey;
              if (level === L) reached = true;
            }
            start[g] = ok && reached ? s0 : -1; shape[g] = steps0;
          }
          const kinks: number[] = [];
          for (let l = finest; l <= coarsest; l++) if (st.errors[l] > 0) kinks.push(tolerance / st.errors[l], ((1 - band) * tolerance) / st.errors[l]);
          for (let g = 1; g < N; g++) {
            if (start[g] < 0 || start[g - 1] !== start[g] || start[g + 1] !== start[g] || shape[g - 1] !== shape[g] || shape[g + 1] !== shape[g]) continue;
            const w = (1080 * g) / N;
            if (kinks.some((x) => Math.abs(w - x) <= 1080 / N)) continue;
            let inside = false;
            for (let k = 0; k < table.count[row]; k++) {
              const r = row * STABLE_MAX_RANGES + k;
              if (w >= table.lo[r] && w <= table.hi[r] && table.start[r] === start[g]) { inside = true; break; }
            }
            if (!inside && refusedNear(g, (x) => { evalIn[0] = x; stableEval(st, sc, 0, finest, coarsest, L, flat); return evalOut[2] === 0; })) continue; // (the margin)
            expect(inside, `row ${row} (L ${L}, finest ${finest}, coarsest ${coarsest}) w ${w}: stable, start ${start[g]}, in no range`).toBe(true);
            covered++;
          }
        }
      }), { numRuns: 60 });
    expectNonVacuous({ covered }, { covered: 496661 }); // exact for the suite's fixed seed
  });
  it('a profile whose slope past the previous level is zero up to rounding (errors 0.01 = 0.2 × 0.05, band 0.8, tolerance 0, tiny price) gets no range there', () => {
    // Found by the hybrid identity test: the step 2 → 1 has slope −price in exact arithmetic, but
    // its benefits (≈ 0.01·w each) cancel and leave rounding noise ≫ the price.
    const st = new FrameState(), sc = new ScreenSpaceScratch();
    st.stride = 3; st.costs = new Float64Array([600, 150, 20]); st.errors = new Float64Array([0.001, 0.01, 0.05]);
    st.lo = new Uint8Array([0]); st.hi = new Uint8Array([2]); st.levelCount = new Uint8Array([3]); st.floor = new Uint8Array([2]);
    sc.tolerance = 0; sc.band = 0.8; sc.viewportMax = 1080; sc.ensure(1, 3);
    const params = new Float64Array([0, 0, 0.8, 0]);
    let checked = 0;
    for (const lambda of [1.9e-19, 1e-15, 3e-10]) {
      sc.lambda = lambda; params[3] = lambda;
      const sr = new StableRanges(), hr = new StableRanges();
      sr.floorFactor = hr.floorFactor = 1 - 0.8; // (no cut: the tier's floor)
      computeStableRanges(st, sc, sr, 1);
      computeHybridStableRanges(st, sc, hr, 1);
      const ceilKey = 1.8 * lambda;
      for (const [table, row, finest, flat] of [[sr, 2, 0, false], [hr, 2, 0, true], [hr, 5, 1, true]] as const) {
        for (let k = 0; k < table.count[row]; k++) {
          const r = row * STABLE_MAX_RANGES + k;
          for (let t = 0; t <= 64; t++) {
            params[0] = table.lo[r] + ((table.hi[r] - table.lo[r]) * t) / 64;
            const packed = buildObjectChain(st.costs, st.errors, 0, 2, finest, 2, flat, params, sc.chains.level, sc.chains.deltaCost, sc.chains.slope, 0);
            const steps = packed >>> 8;
            for (let j = 0; j < steps; j++) if (sc.chains.level[j] < 2) { expect(sc.chains.slope[j] < ceilKey, `λ ${lambda} w ${params[0]}`).toBe(true); break; }
            checked++;
          }
        }
      }
    }
    expect(checked).toBe(845); // (13 ranges of these rows × 65 points: not vacuous)
  });
  it('a stable window inside a piece whose ends fail different tests gets a range (random seed −20136854)', () => {
    // Previous level 1, tolerance 0.5, band 0.2, λ 1e-4: past the last kink (w = τ / e_0 ≈ 340.8 px)
    // the step 2 → 1 is below the stable floor up to ≈ 401 px and the step 1 → 0 reaches
    // (1 + band) λ past ≈ 700 px, both ends of [340.8, 1080] unstable for different reasons. fillRow
    // dropped such a piece as unstable throughout; the chain builder (the reference) finds every
    // diameter in [410, 600] stable from level 2.
    const st = new FrameState(), sc = new ScreenSpaceScratch();
    st.stride = 3; st.costs = new Float64Array([40230, 16227, 3000]);
    st.errors = new Float64Array([0.0014669245503842832, 0.007307747411610061, 0.007824488832078204]);
    st.lo = new Uint8Array([0]); st.hi = new Uint8Array([2]); st.levelCount = new Uint8Array([3]); st.floor = new Uint8Array([2]);
    sc.tolerance = 0.5; sc.band = 0.2; sc.lambda = 1e-4; sc.viewportMax = 1080; sc.ensure(1, 3);
    const params = new Float64Array([0, 0.5, 0.2, 1e-4]), floorKey = 0.8e-4, ceilKey = 1.2e-4;
    for (const w of [410, 500, 600]) {
      params[0] = w;
      const packed = buildObjectChain(st.costs, st.errors, 0, 2, 0, 1, false, params, sc.chains.level, sc.chains.deltaCost, sc.chains.slope, 0);
      expect([packed & 255, packed >>> 8, sc.chains.level[0], sc.chains.level[1]], `w ${w}`).toEqual([2, 2, 1, 0]);
      expect(sc.chains.slope[0] >= floorKey && sc.chains.slope[1] < ceilKey, `w ${w}: stable`).toBe(true);
    }
    const sr = new StableRanges();
    sr.floorFactor = 0.8; // (no cut: the tier's floor)
    computeStableRanges(st, sc, sr, 1);
    let holds = false;
    for (let k = 0; k < sr.count[1]; k++) {
      const r = STABLE_MAX_RANGES + k;
      if (sr.lo[r] <= 410 && sr.hi[r] >= 600 && sr.start[r] === 2) holds = true;
    }
    expect(holds).toBe(true);
  });
});

describe('the budget\'s price and the band\'s (screenSpacePasses.ts updatePrice)', () => {
  // Hand-worked, no protected tier: the items left out have keys `left`; the last price (the band's)
  // is `last`. The price is the largest key left out; the band's price the same, at most
  // last × (1 + band) / (1 − band) — 1 × 1.4 / 0.6 = 2.333… for band 0.4. All bought: both decay by
  // (1 − band) / (1 + band).
  const price = (left: number[], last: number, band: number) => {
    const st = new FrameState(), sc = new ScreenSpaceScratch();
    sc.band = band; sc.lambda = last; sc.price = last; sc.offset = Number.POSITIVE_INFINITY; sc.ensure(4, 4);
    st.keys = new Float64Array([9, ...left]); st.items = new Uint32Array(left.length + 1); st.chainOf = new Uint32Array(4);
    updatePrice(st, sc, 1, left.length + 1, 3);
    return { price: sc.price, band: sc.lambda };
  };
  it('rises by at most (1 + band) / (1 − band) a frame; the reported price is the best ratio left out', () => {
    expect(price([3, 0.5], 1, 0.4)).toEqual({ price: 3, band: 1 * (1.4 / 0.6) });
    expect(price([2, 0.5], 1, 0.4)).toEqual({ price: 2, band: 2 }); // (below the cap)
    expect(price([3], 1, 0)).toEqual({ price: 3, band: 3 }); // no band: no cap
    expect(price([3], 0, 0.4)).toEqual({ price: 3, band: 3 }); // no last price: the first binding frame
    expect(price([], 1, 0.4)).toEqual({ price: 0.6 / 1.4, band: 0.6 / 1.4 }); // everything bought
  });
});

describe('the reduced solve with the protected tier cut (budgetIncremental.ts reducedSolve)', () => {
  // Hand-worked: band 0.4, λ 1, so the tier starts at 0.6; stable steps reach 0.9 (the raised floor, 1 − band/4).
  // One stable object (protected cost 100) and two computed objects with one protected step each:
  // A (key 5, cost 100) and B (key x, cost 100). Budget 250, nothing before upgrades: 150 left after
  // the stable object, 50 after A — B does not fit and is the cut. The frame stands (2) only when
  // x is below 0.9: then every stable step (≥ 0.9) comes before B in the full list.
  // The profile (costs 300 / 200 / 100, largest error `e`, 1080 px) puts the tier's offset at twice
  // (0.4 · max(1080 e, 1) + 1080 e + 0.4 · 1 · 200) / 100: 1.90 for e = 0.01; 3.02e14 for e = 1e13,
  // where tiered keys are rounded to 1/16.
  const solve = (x: number, e = 0.01) => {
    const st = new FrameState(), sc = new ScreenSpaceScratch();
    st.stride = 3; st.levelCount = new Uint8Array([3]); st.costs = new Float64Array([300, 200, 100]); st.errors = new Float64Array([0, e / 10, e]);
    sc.band = 0.4; sc.lambda = 1; sc.tolerance = 1; sc.viewportMax = 1080; sc.stableFloor = 0.9; sc.ensure(2, 4);
    st.keys = new Float64Array([-5, -x]); st.items = new Uint32Array([0 << 3, 1 << 3]);
    st.chainOf = new Uint32Array([0, 4]); st.next = new Uint8Array([2, 2]);
    for (const [c, key] of [[0, 5], [4, x]]) { sc.chains.slope[c] = key; sc.chains.deltaCost[c] = 100; sc.chains.level[c] = 1; }
    const acc = new Float64Array([0, 100, 0, 0, 250]);
    const solved = reducedSolve(st, sc, acc, 2, 1, 3); // (both keys negative: 2 protected items)
    return { solved, next: Array.from(st.next), price: sc.lambda };
  };
  it('a cut below the stable floor stands, with the price its exact key; at or above the floor the frame is redone', () => {
    expect(solve(0.75)).toEqual({ solved: 2, next: [1, 2], price: 0.75 });
    expect(solve(0.9 * (1 - 1e-9))).toEqual({ solved: 2, next: [1, 2], price: 0.9 * (1 - 1e-9) });
    expect(solve(0.9).solved).toBe(0);
    expect(solve(0.95).solved).toBe(0);
    expect(solve(3).solved).toBe(0);
  });
  it('a cut whose tiered key rounds to the floor\'s is redone (a stable step could tie with it); one a rounding step below stands', () => {
    expect(solve(0.899, 1e13).solved).toBe(0); // 3.02e14 + 0.899 and + 0.9 both round to + 0.875
    expect(solve(0.8, 1e13)).toEqual({ solved: 2, next: [1, 2], price: 0.8 }); // + 0.8125 < + 0.875
  });
});

/** `s` with a 48 × 48 grid (4 m apart, jittered by `seed`, radii 0.8 + up to `spread`) of one 3-level pixel profile. */
function jitteredGrid(s: LodSet, seed: number, spread: number): LodSet {
  s.addProfile({ metric: 'pixels', thresholds: [120, 30], costs: [600, 150, 20], errors: [0.001, 0.01, 0.05] });
  const rand = lcg(seed), side = 48, sp = new Float32Array(side * side * 4);
  for (let i = 0; i < side * side; i++) {
    sp[i * 4] = ((i % side) - side / 2) * 4 + rand(); sp[i * 4 + 1] = 1; sp[i * 4 + 2] = 20 + Math.floor(i / side) * 4 + rand(); sp[i * 4 + 3] = 0.8 + rand() * spread;
  }
  s.addMany(sp, 0);
  return s;
}

function view(eye: number[], yaw: number): LodView {
  const rotation = lookAtRotation(eye, [eye[0] + Math.cos(yaw) * 50, eye[1] - 2, eye[2] + Math.sin(yaw) * 50]);
  return { frustum: Frustum.perspective({ fovY: 60, aspect: 16 / 9, near: 0.1, far: 900, position: eye, rotation }), viewportHeight: 1080 };
}

describe('incremental budget over clusters = per-object path', () => {
  for (const wasm of [true, false]) it(`long walks, fast moves, teleports, two views, edits, tight and loose budgets, ${wasm ? 'with' : 'without'} WebAssembly (fast-check)`, () => {
    let stable = 0, fallbacks = 0, reruns = 0, frames = 0, kernel = 0;
    fc.assert(fc.property(
      fc.integer({ min: 1, max: 1e6 }), fc.constantFrom(0, 0.4, 0.4, 0.8), fc.constantFrom(0, 1, 1, 3),
      fc.constantFrom(0.05, 0.3, 0.6, 0.95, 1.5), fc.constantFrom(0, 0, 2), fc.constantFrom(true, true, false), fc.constantFrom(255, 2),
      fc.array(fc.record({
        kind: fc.constantFrom(0, 0, 0, 0, 0, 1, 2, 3), dx: fc.double({ min: -1, max: 1, noNaN: true }),
        dyaw: fc.double({ min: -0.02, max: 0.02, noNaN: true }), edit: fc.integer({ min: 0, max: 12 }), target: fc.nat(),
      }), { minLength: 4, maxLength: 16 }),
      (seed, band, tolerance, share, minFrames, cull, maxLevel, steps) => {
        const a = newLodSet(64, { wasm }), b = newLodSet(64, { wasm }), c = newLodSet(64, { wasm }); // c: a cost oracle for the budgets
        for (const s of [a, b, c]) {
          s.addProfile({ metric: 'screenHeight', thresholds: [0.3, 0.1, 0.03], blendThresholds: [0.25, 0.08], costs: [900, 300, 60, 8] });
          s.addProfile({ metric: 'pixels', thresholds: [120, 30], costs: [600, 150, 20], errors: [0.001, 0.01, 0.05] });
          s.addMany(randomSpheres(1800, seed, 300, 0.3, 5), 0);
          s.addMany(randomSpheres(600, seed + 1, 300, 0.3, 5), 1);
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
          const cheapest = c.update(v, { ...base, policy: 'budget', budget: 0 }).minimumCost;
          const budget = Math.round(cheapest + share * (preferred - cheapest));
          const options: LodUpdateOptions = { policy: 'budget', budget, stabilityBand: band, tolerance, minFramesBetweenChanges: minFrames, cull, maxLevel };
          const ra = a.update(v, options);
          const sa = { ...ra, levelCounts: Array.from(ra.levelCounts) };
          const sb = b.update(v, { ...options, clusters: false });
          const label = `seed ${seed} frame ${f} kind ${st.kind}`;
          // A frame that drew the thresholds' selection (budgetRegime.ts) keeps sizes of clusters skipped whole.
          expect(budgetRegimeOf(a), label).toBe(budgetRegimeOf(b));
          expectSameBudgetFrame(a, b, sa, sb, label, budgetRegimeOf(a) !== 'thresholds' ? undefined : (i, size, ref) =>
            i < 1800 ? sizeMapsLike(size, ref, [0.3, 0.1, 0.03], [0.25, 0.08], maxLevel) : sizeMapsLike(size, ref, [120, 30], [], maxLevel));
          const id = st.target % a.count;
          if (removed.has(id)) continue;
          if (st.edit === 5) removed.add(id);
          for (const s of [a, b, c]) applyEdit(s, st.edit, id);
        }
        const bi = budgetStateOf(engineOf(a).ci);
        stable += bi.stableTotal; fallbacks += bi.fallbacks; reruns += bi.reruns; frames += bi.frames; kernel += bi.kernelStable;
      }), { numRuns: 60 });
    // With the kernel, it classified many of the stable objects (budgetKernel.ts); without, none.
    if (wasm) expectNonVacuous({ kernel }, { kernel: 121888 });
    else expect(kernel).toBe(0);
    // Not vacuous: chains were skipped for many objects, and some frames needed the full path
    // (exact for the suite's fixed seed, the same with and without the kernel).
    // (the redone frames: by the full path below the minimum, else over the clusters without stable ranges;
    // rare here — 7 of 92 frames with the fixed seed, 0 to 26 with random ones — so a random seed may
    // have none: 'a budget that drops for one frame' below redoes frames on every run)
    expectNonVacuous({ frames, stable, redone: fallbacks + reruns }, { frames: 92, stable: 124597, redone: 7 }, { redone: 0 }); // (frames where the thresholds' selection fits skip the knapsack: budgetRegime.ts)
  });
  for (const policy of ['budget', 'hybrid'] as const) it(`${policy}: a budget that tightens frame after frame (the protected tier cut below the stable steps: not redone) = per-object path`, () => {
    // A jittered grid, the camera inside it walking back, the budget of the first pose: objects
    // enter close to the camera, the kept levels no longer all fit, and the solve cuts the
    // protected tier (budgetIncremental.ts reducedSolve). Where the cut item's key is below every
    // stable step's (budgetStable.ts setStableFloor) the frame stands without the stable objects'
    // chains; where not, it is redone.
    const fill = (s: LodSet) => jitteredGrid(s, 11, 1.2);
    let cuts = 0, redone = 0, raised = 0, stable = 0, capped = 0;
    for (const wasm of [true, false]) {
      const a = fill(newLodSet(64, { wasm })), b = fill(newLodSet(64, { wasm })), oracle = fill(new LodSet(64));
      const at = (f: number) => view([0, 3, 120 - f * 0.3], Math.PI / 2); // (inside the grid, walking back: objects enter close by)
      const preferred = oracle.update(at(0), { policy: 'thresholds', clusters: false }).totalCost;
      const cheapest = oracle.update(at(0), { policy: 'budget', budget: 0, clusters: false }).minimumCost;
      const options: LodUpdateOptions = { policy, budget: Math.round(cheapest + 0.3 * (preferred - cheapest)), stabilityBand: 0.4, tolerance: 1 };
      for (let f = 0; f < 40; f++) {
        const v = at(f);
        const last = engineOf(a).sse.lambda;
        const ra = a.update(v, options);
        const sa = { ...ra, levelCounts: Array.from(ra.levelCounts) };
        const sb = b.update(v, { ...options, clusters: false });
        expectSameBudgetFrame(a, b, sa, sb, `${wasm ? 'wasm' : 'js'} frame ${f}`);
        // The band's price rose by at most 1.4 / 0.6 (updatePrice); budgetPrice is the best ratio left out.
        const bandPrice = engineOf(a).sse.lambda;
        if (last > 0) expect(bandPrice).toBeLessThanOrEqual(last * (1.4 / 0.6));
        if (bandPrice < a.budgetPrice) capped++;
      }
      const state = policy === 'budget' ? budgetStateOf(engineOf(a).ci) : hybridStateOf(engineOf(a).ci);
      cuts += state.cuts; redone += state.reruns + state.fallbacks; raised += state.raised; stable += state.stableTotal;
    }
    // Both ways ran: frames that stood with the tier cut, frames redone without stable ranges, budget's
    // frames passed again with the floor at its highest (clusterDrivers.ts), and objects without chains
    // (exact: the walk is fixed).
    expect({ cuts, redone, raised }).toEqual(policy === 'budget' ? { cuts: 12, redone: 10, raised: 8 } : { cuts: 8, redone: 14, raised: 0 });
    expect(stable).toBeGreaterThan(10_000);
    expect(capped).toBeGreaterThan(0); // (frames whose best ratio left out rose past the cap)
  });
  it('budget and hybrid walking back through random grids, speeds, budgets and bands = per-object path (fast-check)', () => {
    // The tier cut of the test above over many scenes: each frame stands or is redone, and either
    // way equals the per-object path (levels, blend, changed set, sizes, stats and price).
    // (FloorTracker: `checked` frames whose floor it computed, `redoneCuts` redone frames whose noted key
    // was the per-object path's cut. `raised`: budget's second passes with the floor at its highest,
    // most of which fail here — these budgets tighten fast — and the pass without ranges follows.)
    let cuts = 0, redone = 0, raised = 0, checked = 0, redoneCuts = 0;
    fc.assert(fc.property(
      fc.integer({ min: 1, max: 1e6 }), fc.constantFrom('budget', 'hybrid'), fc.constantFrom(0.2, 0.3, 0.6, 1),
      fc.constantFrom(0.2, 0.3, 0.5), fc.constantFrom(0.2, 0.4, 0.8), fc.double({ min: -0.3, max: 0.3, noNaN: true }), fc.boolean(),
      (seed, policy, speed, share, band, yaw, wasm) => {
        const fill = (s: LodSet) => jitteredGrid(s, seed, 1.2);
        const a = fill(newLodSet(64, { wasm })), b = fill(newLodSet(64, { wasm })), oracle = fill(new LodSet(64));
        const at = (f: number) => view([0, 3, 120 - f * speed], Math.PI / 2 + yaw);
        const preferred = oracle.update(at(0), { policy: 'thresholds', clusters: false }).totalCost;
        const cheapest = oracle.update(at(0), { policy: 'budget', budget: 0, clusters: false }).minimumCost;
        const options: LodUpdateOptions = { policy, budget: Math.round(cheapest + share * (preferred - cheapest)), stabilityBand: band, tolerance: 1 };
        const floor = new FloorTracker(a, policy, band, b);
        for (let f = 0; f < 30; f++) {
          floor.frame(f, () => {
            const ra = a.update(at(f), options);
            const sa = { ...ra, levelCounts: Array.from(ra.levelCounts) };
            const sb = b.update(at(f), { ...options, clusters: false });
            expectSameBudgetFrame(a, b, sa, sb, `seed ${seed} ${policy} frame ${f}`);
          });
        }
        checked += floor.checked; redoneCuts += floor.redoneCuts;
        const state = floor.state();
        cuts += state.cuts; redone += state.reruns + state.fallbacks; raised += state.raised;
      }), { numRuns: 24 });
    expectNonVacuous({ cuts, redone, raised, checked, redoneCuts }, { cuts: 107, redone: 237, raised: 25, checked: 453, redoneCuts: 243 }); // exact for the suite's fixed seed
  });
  it('a budget that drops for one frame (redone without stable ranges) and comes back = per-object path', () => {
    // A jittered grid seen from a slow walk: most clusters are whole-stable frame after frame (the
    // budget path then skips their objects' checks, budgetIncremental.ts `stableFrame`). Frames 6
    // and 13 get the minimum cost as budget: the kept levels do not fit and the pass runs again
    // without stable ranges, which rewrites levels without marking clusters edited. (Trusting the marks after such a frame — dropping `completedFrame`
    // — still passes here: the frame after the drop finds no whole-stable cluster to trust.)
    const make = () => jitteredGrid(new LodSet(64), 7, 0.4);
    const a = make(), b = make(), oracle = make();
    for (let f = 0; f < 20; f++) {
      const v = view([0, 3, -f * 0.02], Math.PI / 2);
      const preferred = oracle.update(v, { policy: 'thresholds', clusters: false }).totalCost;
      const cheapest = oracle.update(v, { policy: 'budget', budget: 0, clusters: false }).minimumCost;
      const share = f === 6 || f === 13 ? 0 : 0.6;
      const options: LodUpdateOptions = { policy: 'budget', budget: Math.round(cheapest + share * (preferred - cheapest)), stabilityBand: 0.4, tolerance: 1 };
      const ra = a.update(v, options);
      const sa = { ...ra, levelCounts: Array.from(ra.levelCounts) };
      const sb = b.update(v, { ...options, clusters: false });
      expectSameBudgetFrame(a, b, sa, sb, `frame ${f}`);
    }
    const bi = budgetStateOf(engineOf(a).ci);
    expect(bi.reruns).toBeGreaterThan(0); // the drops were redone (clusterDrivers.ts clusteredBudgetIncremental)
    expect(bi.stableTotal).toBeGreaterThan(20 * 500); // and clusters were whole-stable around them
  });
});
