/**
 * The per-object policy drivers of `LodSet.update` (`clusters: false`, or ids in random
 * spatial order): the metric kernels per view, the thresholds decision, and the rankQuota, budget
 * and hybrid sequences of passes (policyPasses.ts, screenSpacePasses.ts) and solvers
 * (src/policies) over objects `[0, n)`. This path is the reference the clustered drivers
 * (clusterDrivers.ts) are tested against.
 *
 * Contributor notes:
 * - Module functions over an explicit context (the set's {@link FrameState}, {@link ProfileTable}
 *   and {@link ScreenSpaceScratch}), like the passes they call: they run once a frame and loop
 *   only over views and metric codes; the per-object loops stay in the kernels and passes.
 * - The only double argument is the frame's budget, passed once a frame as before (not per object).
 *
 * @module
 */
import { assignQuotaRanks } from '../../policies/rankQuota.js';
import {
  buyUpgrades, collectScreenSpaceItems, drawCoarsest, SCREEN_SPACE_DEFAULTS, type ScreenSpaceScratch,
} from '../passes/screenSpacePasses.js';
import { noteKnapsack, noteThresholdsTry } from '../passes/budgetRegime.js';
import { restartStats } from './frameSetup.js';
import type { FrameState } from '../core/frameState.js';
import {
  areaOrthographicKernel, areaPerspectiveKernel, distanceKernel, heightOrthographicKernel,
  heightPerspectiveKernel, VIEW_EYE, VIEW_PARAMS, VIEW_SCALE, VIEW_WINDOW_MAX, VIEW_WINDOW_MIN, type CombineMode,
} from '../kernels/metricKernels.js';
import { MetricCode, type ProfileTable } from '../core/profiles.js';
import { decideAscending, decideDescending } from '../kernels/thresholdKernels.js';
import {
  applyRanks, classifyPass, clearCoarsenedBlend, collectRankCandidates, coarsenToFloor, finalizePass, preferredMinimumCost,
} from '../passes/policyPasses.js';
import type { EngineView } from '../core/updateOptions.js';

const viewParams = new Float64Array(VIEW_PARAMS);

/** log2 of the item stride: the smallest `shift` with `2^shift ≥ stride` (at least 1). */
export function itemShift(table: ProfileTable): number {
  let shift = 1;
  while ((1 << shift) < table.stride) shift++;
  return shift;
}

/** The thresholds decision over objects `[start, end)` into `out`, one metric pass per metric code in use. */
export function thresholdPass(st: FrameState, table: ProfileTable, views: EngineView | readonly EngineView[], single: boolean,
  viewCount: number, cull: boolean, start: number, end: number, out: Uint8Array, track: boolean): void {
  const mask = table.metricMask;
  const mixed = (mask & (mask - 1)) !== 0;
  for (let code = 0; code < 4; code++) {
    if (!(mask & (1 << code))) continue;
    metricPass(st, code, views, single, viewCount, cull, st.work, start, end, mixed);
    st.code = code;
    st.filter = mixed;
    if (code === MetricCode.distance) decideAscending(st, start, end, out, track);
    else decideDescending(st, start, end, out, track);
  }
}

/** Runs the kernel of metric `code` for every view into `out` (max/min over views). */
export function metricPass(st: FrameState, code: number, views: EngineView | readonly EngineView[], single: boolean, viewCount: number,
  cull: boolean, out: Float64Array, start: number, end: number, filter: boolean): void {
  for (let v = 0; v < viewCount; v++) {
    const view = single ? (views as EngineView) : (views as readonly EngineView[])[v];
    const f = view.frustum;
    const kv = viewParams, pl = f.planes;
    kv.set(f.position, VIEW_EYE);
    kv.set(f.windowMin, VIEW_WINDOW_MIN);
    kv.set(f.windowMax, VIEW_WINDOW_MAX);
    if (code === MetricCode.pixels) kv[VIEW_SCALE] = view.viewportHeight ?? SCREEN_SPACE_DEFAULTS.viewportHeight;
    else kv[VIEW_SCALE] = 1;
    const mode: CombineMode = v === 0 ? 0 : code === MetricCode.distance ? 2 : 1;
    if (code === MetricCode.distance) {
      distanceKernel(st.spheres, start, end, out, mode, pl, kv, cull, st.profileIds, st.metricCode, code, filter);
    } else if (code === MetricCode.screenArea) {
      if (f.isPerspective) areaPerspectiveKernel(st.spheres, start, end, out, mode, pl, kv, cull, st.profileIds, st.metricCode, code, filter);
      else areaOrthographicKernel(st.spheres, start, end, out, mode, pl, kv, cull, st.profileIds, st.metricCode, code, filter);
    } else if (f.isPerspective) {
      heightPerspectiveKernel(st.spheres, start, end, out, mode, pl, kv, cull, st.profileIds, st.metricCode, code, filter);
    } else {
      heightOrthographicKernel(st.spheres, start, end, out, mode, pl, kv, cull, st.profileIds, st.metricCode, code, filter);
    }
  }
}

/** rankQuota over objects `[0, n)`: distances, classification, quota ranks, finalize. */
export function rankQuotaPolicy(st: FrameState, views: EngineView | readonly EngineView[], single: boolean, viewCount: number, cull: boolean,
  quotas: ArrayLike<number>, n: number): void {
  metricPass(st, MetricCode.distance, views, single, viewCount, cull, st.work, 0, n, false);
  classifyPass(st, n, true);
  const m = collectRankCandidates(st, n);
  assignQuotaRanks(st.work, st.candidates, 0, m, quotas, st.ranks);
  applyRanks(st, m, quotas.length);
  finalizePass(st, n);
}

/**
 * budget over objects `[0, n)`. With `thresholdsFirst` (budgetRegime.ts) the thresholds' selection
 * first: drawn when it fits. Else — or when it does not fit — projected diameters, classification,
 * and below the minimum cost every object at its coarsest allowed level; otherwise the
 * screen-space chains (issue 14), the affordable prefix; finalize.
 */
export function budgetPolicy(st: FrameState, table: ProfileTable, sse: ScreenSpaceScratch, views: EngineView | readonly EngineView[],
  single: boolean, viewCount: number, cull: boolean, budget: number, n: number, thresholdsFirst: boolean): void {
  if (thresholdsFirst) {
    thresholdPass(st, table, views, single, viewCount, cull, 0, n, st.next, false);
    const fits = st.totalCost <= budget;
    noteThresholdsTry(sse.regime, st.totalCost, fits);
    if (fits) {
      sse.noPrice();
      st.levelCounts.fill(0);
      preferredMinimumCost(st, n, st.hi);
      finalizePass(st, n);
      return;
    }
    restartStats(st);
  }
  sse.regime.drawn = 1; // (drawCoarsest → noteBelowMinimum: 2)
  metricPass(st, MetricCode.pixels, views, single, viewCount, cull, st.work, 0, n, false);
  classifyPass(st, n, false);
  if (!(st.minimumCost <= budget)) {
    drawCoarsest(st, sse, st.work, null, null, null, n);
  } else {
    const shift = itemShift(table);
    const m = collectScreenSpaceItems(st, sse, st.work, n, shift, false);
    buyUpgrades(st, sse, m, budget, st.baseCost, shift);
  }
  noteKnapsack(sse.regime, budget);
  finalizePass(st, n);
}

/** hybrid over objects `[0, n)`: thresholds first, coarsened toward the quality floor to fit the budget. */
export function hybridPolicy(st: FrameState, table: ProfileTable, sse: ScreenSpaceScratch, views: EngineView | readonly EngineView[],
  single: boolean, viewCount: number, cull: boolean, budget: number, n: number): void {
  // Preferred levels by thresholds into `next` (fills `fixed`, blend, sizes, and the preferred cost).
  thresholdPass(st, table, views, single, viewCount, cull, 0, n, st.next, false);
  const preferredCost = st.totalCost;
  st.levelCounts.fill(0);
  preferredMinimumCost(st, n, st.floor);
  if (preferredCost <= budget) {
    sse.noPrice(); // issue 14: the budget did not bind
    finalizePass(st, n);
    return;
  }
  if (!(st.minimumCost <= budget)) { // below the minimum: every adjustable object at its quality floor, no chain
    sse.noPrice();
    coarsenToFloor(st, n);
    clearCoarsenedBlend(st, n);
    finalizePass(st, n);
    return;
  }
  // --- issue 14: screen-space error objective between the quality floor and the preferred level ---
  metricPass(st, MetricCode.pixels, views, single, viewCount, cull, st.weights, 0, n, false);
  const shift = itemShift(table);
  const m = collectScreenSpaceItems(st, sse, st.weights, n, shift, true);
  buyUpgrades(st, sse, m, budget, st.minimumCost, shift);
  // --- end issue 14 ---
  clearCoarsenedBlend(st, n);
  finalizePass(st, n);
}
