/**
 * The policy drivers of `LodSet.update` over the spatial clusters: the thresholds policy in chunks
 * of 256 clusters (clusterPass.ts), and rankQuota, budget and hybrid with culled clusters hidden
 * whole and their passes over the visible slots only (clusterPolicyPasses.ts, the list variants
 * of screenSpacePasses.ts). Each gives the same levels, blend, stats and price as its per-object
 * counterpart in policyDrivers.ts (test/batch/clusters.test.ts, clusterPolicies.test.ts).
 *
 * Contributor notes:
 * - Module functions over an explicit context (the set's {@link FrameState}, {@link ClusterIndex},
 *   {@link ClusterViews}, {@link ProfileTable}, {@link ScreenSpaceScratch} and its object count
 *   `used`), run once a frame; the per-object and per-cluster loops stay in the chunk functions.
 *   The only double argument is the frame's budget, passed once a frame.
 *
 * @module
 */
import {
  buyUpgrades, collectScreenSpaceItemsList, drawCoarsest, noteBelowMinimum, type ScreenSpaceScratch,
} from '../passes/screenSpacePasses.js';
import { noteKnapsack, noteThresholdsTry } from '../passes/budgetRegime.js';
import {
  coarsestFeedChunk, coarsestFinalizePerObject, coarsestFinalizeWhole, coarsestStateOf,
} from '../passes/budgetCoarsest.js';
import { restartStats } from './frameSetup.js';
import type { FrameState } from '../core/frameState.js';
import { MetricCode, type ProfileTable } from '../core/profiles.js';
import type { ClusterIndex } from '../spatial/clusters.js';
import { clusterChunk, prepareClusterFrame } from '../passes/clusterPass.js';
import type { ClusterViews } from '../spatial/clusterViews.js';
import { cullBlocks } from '../spatial/blockCulling.js';
import { classifyList, feedChunk, finalizeList, hideCulled } from '../passes/clusterPolicyPasses.js';
import { budgetFeedChunk, budgetFinalize, budgetSolve, budgetStateOf, reducedSolve, type BudgetIncremental } from '../passes/budgetIncremental.js';
import { computeHybridStableRanges, computeStableRanges } from '../passes/budgetStable.js';
import { type HybridIncremental, hybridCollectChunk, hybridPrefChunk, hybridStateOf } from '../passes/hybridIncremental.js';
import {
  addKernelSettled, hybridFinalize, hybridFinalizeAtFloor, minimumLowerBound, minimumUpperBound, preferredFinalize, preferredHistogramBound,
  preferredMinimumWithin, writeFlooredSizes,
} from '../passes/hybridFinalize.js';
import { rankCutsOf, rankFeedChunk, rankFinalize, resolveRanks } from '../passes/rankCuts.js';
import { itemShift } from './policyDrivers.js';
import { bindingApplies, hybridBindingFrame } from './hybridBindingFrame.js';
import { hybridBindingOf } from '../passes/hybridBinding.js';
import { sizesToIds } from '../outputs/slotSizes.js';
import { beginOwing, dropOwed } from '../outputs/owedSizes.js';
import { settleBlends } from '../outputs/owedBlends.js';
import { OWED_DISTANCE, OWED_PIXELS } from '../spatial/owedSizesTable.js';
import type { EngineView } from '../core/updateOptions.js';

/**
 * The thresholds policy over the spatial clusters (clusterPass.ts) on the calling thread, in chunks
 * of 256 clusters; with culling clusterChunk culls blocks of 16 clusters with one test
 * (spatial/blockCulling.ts; the threaded chunks test cluster by cluster, threadedDrivers.ts). The driver
 * stays a small loop over chunks: a loop here over the blocks (cullBlocks, then hideCulled) was
 * compiled by V8 only in frames 2–3 of a fresh process, on the other core.
 */
export function clusteredThresholds(st: FrameState, ci: ClusterIndex, cv: ClusterViews, table: ProfileTable, used: number,
  views: EngineView | readonly EngineView[], single: boolean, viewCount: number, cull: boolean, exactSizes: boolean): void {
  prepareClusterFrame(st, ci, cv, views, single, viewCount, cull, exactSizes, used, table.metricMask);
  const count = ci.count;
  for (let c = 0; c < count; c += 256) clusterChunk(st, ci, cv, c, c + 256 < count ? c + 256 : count, cull);
}

/** Metric `code` of the objects of every cluster not culled as a whole into `work`; returns the visible slot count. */
export function clusteredFeed(st: FrameState, ci: ClusterIndex, cv: ClusterViews, table: ProfileTable, used: number, code: number,
  views: EngineView | readonly EngineView[], single: boolean, viewCount: number, cull: boolean): number {
  prepareClusterFrame(st, ci, cv, views, single, viewCount, cull, false, used, table.metricMask);
  ci.visibleCount = 0; ci.culledCount = 0;
  const runs = cullBlocks(ci, cv), r = ci.supers.runs; // (spatial/blockCulling.ts: blocks culled whole)
  for (let k = 0; k < runs; k++) {
    for (let c = r[2 * k], to = r[2 * k + 1]; c < to; c += 256) feedChunk(st, ci, cv, code, c, c + 256 < to ? c + 256 : to);
  }
  st.clustersCulled = ci.culledCount; st.objectsEvaluated = ci.visibleCount;
  return ci.visibleCount;
}

/**
 * rankQuota over the clusters, incremental across frames (rankCuts.ts): culled clusters hidden
 * whole; one pass over the visible objects (distances, classification, bands around last frame's
 * cut distances), the quota selections over the objects near the cuts only (or every adjustable
 * object when a cut left its window), finalize per cluster.
 */
export function clusteredRankQuota(st: FrameState, ci: ClusterIndex, cv: ClusterViews, table: ProfileTable, used: number,
  views: EngineView | readonly EngineView[], single: boolean, viewCount: number, cull: boolean, quotas: ArrayLike<number>): void {
  prepareClusterFrame(st, ci, cv, views, single, viewCount, cull, false, used, table.metricMask);
  beginOwing(ci, OWED_DISTANCE, cv.block[24], cv.block[25], cv.block[26]); // (the single view's eye: its inline path)
  const rc = rankCutsOf(ci);
  rc.ensure(ci.slotId.length, ci.start.length);
  rc.counts.fill(0, 0, 2 * rc.active + 1);
  rc.winCount = 0;
  ci.culledCount = 0; ci.visibleClusterCount = 0;
  const runs = cullBlocks(ci, cv), r = ci.supers.runs; // (spatial/blockCulling.ts: blocks culled whole)
  for (let k = 0; k < runs; k++) {
    for (let c = r[2 * k], to = r[2 * k + 1]; c < to; c += 256) rankFeedChunk(st, ci, cv, rc, c, c + 256 < to ? c + 256 : to);
  }
  st.clustersCulled = ci.culledCount;
  resolveRanks(st, ci, rc, quotas);
  rankFinalize(st, ci, rc, quotas.length);
  hideCulled(st, ci);
}

/**
 * budget over the clusters. With `thresholdsFirst` (budgetRegime.ts) the thresholds' selection
 * first (hybrid's pass A, {@link preferredPass}): drawn when it fits. Else — or when it does not fit
 * — the incremental pass (budgetIncremental.ts: chains only for objects outside a stable range of
 * their (profile, previous level), budgetStable.ts; the reduced solve), redone without stable
 * ranges when its proof fails; when it does not apply, or below the minimum, the full clustered path below — culled clusters hidden whole, every visible
 * object classified, below the minimum cost every object at its coarsest allowed level, else every
 * visible object's chain — with the same chains, solver and price as the per-object `budgetPolicy`.
 */
export function clusteredBudget(st: FrameState, ci: ClusterIndex, cv: ClusterViews, table: ProfileTable, sse: ScreenSpaceScratch,
  used: number, views: EngineView | readonly EngineView[], single: boolean, viewCount: number, cull: boolean, budget: number,
  exactSizes: boolean, thresholdsFirst: boolean): void {
  const lastRegime = sse.regime.drawn;
  if (thresholdsFirst) {
    const hy = preferredPass(st, ci, cv, table, sse, used, views, single, viewCount, cull, exactSizes, false);
    const fits = st.totalCost <= budget;
    noteThresholdsTry(sse.regime, st.totalCost, fits);
    if (fits) {
      drawPreferred(st, ci, hy, sse);
      return;
    }
    restartStats(st);
    // The thresholds' pass wrote this frame's blends (some owed: settled here, as the knapsack
    // writes blend by id); the incremental pass must not trust that a cluster whole-stable last
    // frame kept blend 0 (it checks every object then).
    settleBlends(ci, st.blend);
    budgetStateOf(ci).completedFrame = -1;
  }
  sse.regime.drawn = 1; // (noteBelowMinimum: 2)
  // Below the minimum last frame: most likely again, decided mostly per cluster (budgetCoarsest.ts)
  // — also in a frame whose thresholds' try did not fit (every 16th of the regime): the full path
  // reads by id in random spatial order, ≈ 150 ms a frame at 1M random objects (bench/regimes.ts).
  if (lastRegime === 2 && st.minFrames === 0) {
    if (clusteredCoarsest(st, ci, cv, table, sse, used, views, single, viewCount, cull, budget) === 1) { noteKnapsack(sse.regime, budget); return; }
  }
  // With minFramesBetweenChanges the classification reads last frame's sizes, which the incremental
  // pass overwrites (a frame redone below would read this frame's); without a price or a band there
  // is no protected tier, so no object can be stable. Both take the full path at once.
  if (st.minFrames === 0 && sse.band > 0 && sse.lambda > 0) {
    if (clusteredBudgetIncremental(st, ci, cv, table, sse, used, views, single, viewCount, cull, budget) === 1) { noteKnapsack(sse.regime, budget); return; }
  }
  sizesToIds(ci, st.sizes, used); // the full path's passes write sizes by id
  const m = clusteredFeed(st, ci, cv, table, used, MetricCode.pixels, views, single, viewCount, cull);
  for (let k = 0; k < m; k += 8192) classifyList(st, ci, k, k + 8192 < m ? k + 8192 : m, false);
  if (!(st.minimumCost <= budget)) {
    drawCoarsest(st, sse, st.work, ci.visible, ci.slotId, ci.blendS, m);
  } else {
    const shift = itemShift(table);
    const items = collectScreenSpaceItemsList(st, sse, st.work, ci, m, shift, false);
    buyUpgrades(st, sse, items, budget, st.baseCost, shift);
  }
  noteKnapsack(sse.regime, budget);
  finalizeList(st, ci, m);
  hideCulled(st, ci);
}

/**
 * A budget frame below the minimum cost over the clusters (budgetCoarsest.ts): whole clusters at
 * their coarsest level with their sizes owed, the others per object over the slot arrays. Returns 0
 * (no output written; stats reset) when the minimum cost fits: the full path runs then.
 */
function clusteredCoarsest(st: FrameState, ci: ClusterIndex, cv: ClusterViews, table: ProfileTable, sse: ScreenSpaceScratch,
  used: number, views: EngineView | readonly EngineView[], single: boolean, viewCount: number, cull: boolean, budget: number): number {
  prepareClusterFrame(st, ci, cv, views, single, viewCount, cull, false, used, table.metricMask);
  sizesToIds(ci, st.sizes, used); // (this pass writes sizes by id)
  const block = cv.block;
  beginOwing(ci, OWED_PIXELS, block[24], block[25], block[26]); // (the single view's inline path)
  const op = ci.owed.params;
  op[3] = block[27]; op[4] = block[29]; op[5] = st.bias; op[6] = sse.viewportMax;
  const co = coarsestStateOf(ci);
  co.ensure(ci.start.length);
  const acc = co.acc;
  acc[0] = 0; acc[1] = 0; acc[2] = 0;
  ci.culledCount = 0;
  const runs = cullBlocks(ci, cv), r = ci.supers.runs; // (spatial/blockCulling.ts: blocks culled whole)
  for (let k = 0; k < runs; k++) {
    for (let c = r[2 * k], to = r[2 * k + 1]; c < to; c += 256) coarsestFeedChunk(st, ci, cv, co, c, c + 256 < to ? c + 256 : to);
  }
  if (acc[0] <= budget) {
    dropOwed(ci);
    restartStats(st);
    return 0;
  }
  st.minimumCost = acc[0];
  noteBelowMinimum(st, sse);
  st.clustersCulled = ci.culledCount; st.clustersSkipped = acc[1];
  coarsestFinalizeWhole(st, ci, co.whole, acc[1]);
  coarsestFinalizePerObject(st, ci, co, sse);
  hideCulled(st, ci);
  return 1;
}

/** One incremental budget pass over the visible clusters (budgetIncremental.ts), accumulators reset first. */
function budgetFeed(st: FrameState, ci: ClusterIndex, cv: ClusterViews, sse: ScreenSpaceScratch, bi: BudgetIncremental, shift: number, budget: number): void {
  ci.culledCount = 0; ci.visibleClusterCount = 0;
  bi.items = 0; bi.stableObjects = 0; bi.listCount = 0; bi.stableCost = 0; bi.stableCounts.fill(0);
  bi.kernelProfile = -1; bi.kernelObjects = 0; // (this frame's ranges: loaded again)
  bi.acc[0] = 0; bi.acc[1] = 0; bi.acc[2] = 0; bi.acc[3] = st.minimumCost; bi.acc[4] = budget;
  const runs = cullBlocks(ci, cv), r = ci.supers.runs; // (spatial/blockCulling.ts: blocks culled whole)
  for (let k = 0; k < runs; k++) {
    for (let c = r[2 * k], to = r[2 * k + 1]; c < to; c += 256) budgetFeedChunk(st, ci, cv, sse, bi, shift, c, c + 256 < to ? c + 256 : to);
  }
  st.clustersCulled = ci.culledCount;
}

/** Undoes a pass's stats and debts before another pass (or the full path) redoes the frame. */
function restartIncremental(st: FrameState, ci: ClusterIndex, hidden: number, invalid: number, minimumCost: number): void {
  dropOwed(ci); // the next pass writes every visible object's size
  st.clustersSkipped = 0;
  st.hidden = hidden; st.invalid = invalid; st.minimumCost = minimumCost; st.objectsEvaluated = 0;
}

/** The incremental budget frame; returns 0 (stats restored) when the full path must redo it. */
function clusteredBudgetIncremental(st: FrameState, ci: ClusterIndex, cv: ClusterViews, table: ProfileTable, sse: ScreenSpaceScratch,
  used: number, views: EngineView | readonly EngineView[], single: boolean, viewCount: number, cull: boolean, budget: number): number {
  prepareClusterFrame(st, ci, cv, views, single, viewCount, cull, false, used, table.metricMask);
  const block = cv.block;
  beginOwing(ci, OWED_PIXELS, block[24], block[25], block[26]); // (the single view's inline path)
  const op = ci.owed.params;
  op[3] = block[27]; op[4] = block[29]; op[5] = st.bias; op[6] = sse.viewportMax;
  const bi = budgetStateOf(ci);
  bi.ensure(ci.slotId.length, ci.start.length, st.stride);
  bi.raiseFloor(st.frame, sse);
  computeStableRanges(st, sse, bi.ranges, table.count);
  const hidden = st.hidden, invalid = st.invalid, minimumCost = st.minimumCost, shift = itemShift(table);
  budgetFeed(st, ci, cv, sse, bi, shift, budget);
  bi.frames++;
  // Below the minimum cost the full path draws every object at its coarsest (drawCoarsest).
  if (!(bi.acc[0] <= budget)) { restartIncremental(st, ci, hidden, invalid, minimumCost); bi.fallbacks++; return 0; }
  let solved = budgetSolve(st, sse, bi, shift);
  if (solved === 0 && bi.stableObjects > 0 && bi.raiseFloorToTop(sse)) {
    // Again with the floor at its highest: most cuts the first pass did not foresee lie below it, and
    // this pass builds only the chains of objects with steps below it. The pass without stable ranges
    // below builds every visible object's chain: ≈ 8 × a frame at 1M trees walking back, where in the
    // first 40 frames of bench/regimes.ts this pass ran 7 times and stood 5 (frames 3–39; such a frame
    // costs 2–3 ×).
    // (hybrid: tried, no gain in the mean — its frames redone without ranges cost ≈ 2 × a frame.)
    restartIncremental(st, ci, hidden, invalid, minimumCost);
    computeStableRanges(st, sse, bi.ranges, table.count);
    budgetFeed(st, ci, cv, sse, bi, shift, budget);
    solved = budgetSolve(st, sse, bi, shift);
    if (solved === 1) bi.noteRedoneCut(st.frame, sse); // (2: noted below, at its cut)
  }
  if (solved === 2) { bi.cuts++; bi.noteCut(st.frame, sse); }
  if (solved === 0) {
    const noted = bi.stableObjects > 0;
    // The stable objects' kept levels may not all be bought (a budget that tightens, cutting the
    // protected tier at or above the stable steps' floor). The pass again with no stable range gives every adjustable object its chain:
    // the full path's item list, over the clusters (module comment of budgetIncremental.ts), at a
    // fraction of the full path's cost (by id: 45 ms a frame at 1M trees walking back).
    restartIncremental(st, ci, hidden, invalid, minimumCost);
    bi.reruns++;
    const any = bi.ranges.any;
    bi.ranges.any = false;
    budgetFeed(st, ci, cv, sse, bi, shift, budget);
    bi.ranges.any = any;
    budgetSolve(st, sse, bi, shift); // (no stable object: it cannot fail with the base cost within the budget)
    if (noted) bi.noteRedoneCut(st.frame, sse);
  }
  bi.stableTotal += bi.stableObjects; bi.kernelStable += bi.kernelObjects;
  budgetFinalize(st, ci, bi);
  hideCulled(st, ci);
  bi.completedFrame = st.frame;
  return 1;
}

/**
 * Pass A of hybrid, and of the budget frames that start with the thresholds' selection: culled
 * clusters to the culled list; clusters with one preferred level for every object decided as a
 * whole, the others per object (hybridIncremental.ts); the preferred cost in `st.totalCost`.
 * `collect`: hybrid's stable ranges first (they depend on last frame's price only), so the kernel
 * settles clusters there as the first collection would (fusedCollect.ts).
 */
function preferredPass(st: FrameState, ci: ClusterIndex, cv: ClusterViews, table: ProfileTable, sse: ScreenSpaceScratch, used: number,
  views: EngineView | readonly EngineView[], single: boolean, viewCount: number, cull: boolean, exactSizes: boolean, collect: boolean): HybridIncremental {
  prepareClusterFrame(st, ci, cv, views, single, viewCount, cull, exactSizes, used, table.metricMask);
  const hy = hybridStateOf(ci);
  hy.ensure(ci.slotId.length, ci.start.length, st.stride);
  hy.keptCounts.fill(0);
  ci.visibleCount = 0; ci.culledCount = 0; ci.visibleClusterCount = 0;
  if (collect) { hy.raiseFloor(st.frame, sse); computeHybridStableRanges(st, sse, hy.ranges, table.count); }
  const kern = hy.kernel;
  kern.on = collect && hy.ranges.any; kern.vmax = sse.viewportMax; kern.acc.fill(0);
  hy.flooredCount = 0; hy.flooredLeast = 0; hy.hybridPass = collect; hy.free.reset();
  const runs = cullBlocks(ci, cv), r = ci.supers.runs; // (spatial/blockCulling.ts: blocks culled whole)
  for (let k = 0; k < runs; k++) {
    for (let c = r[2 * k], to = r[2 * k + 1]; c < to; c += 256) hybridPrefChunk(st, ci, cv, hy, c, c + 256 < to ? c + 256 : to, null);
  }
  st.clustersCulled = ci.culledCount;
  return hy;
}

/**
 * Hybrid below its minimum cost after pass A: every adjustable object at its quality floor is over
 * the budget. Bounds first (pass A's histogram, per cluster); the per-object sum only when they do
 * not decide it (it leaves the minimum in `st.minimumCost`).
 */
function hybridBelowMinimum(st: FrameState, ci: ClusterIndex, hy: HybridIncremental, profiles: number, budget: number): boolean {
  if (minimumUpperBound(st, ci) <= budget) return false;
  if ((st.minFrames === 0 && preferredHistogramBound(st, profiles) > budget) || minimumLowerBound(st, ci, hy) > budget) return true;
  preferredMinimumWithin(st, ci, hy, st.floor);
  return !(st.minimumCost <= budget);
}

/** Pass A per object over this frame's floored clusters (hybridIncremental.ts `PREF_FINER`), their stand-in counts taken back first. */
function redoFloored(st: FrameState, ci: ClusterIndex, cv: ClusterViews, hy: HybridIncremental): void {
  const list = hy.floored, n = hy.flooredCount, live = ci.live, profile = ci.profile, floorA = st.floor, levelCounts = st.levelCounts;
  for (let k = 0; k < n; k++) { const c = list[k]; levelCounts[floorA[profile[c]] - 1] -= live[c]; st.objectsEvaluated -= live[c]; }
  hy.flooredCount = 0; hy.flooredRedone += n;
  for (let k = 0; k < n; k += 256) hybridPrefChunk(st, ci, cv, hy, k, k + 256 < n ? k + 256 : n, list);
}

/** The preferred levels fit the budget: price 0, finalize (hybrid: the minimum cost with its quality floors; budget: pass A's). */
function drawPreferred(st: FrameState, ci: ClusterIndex, hy: HybridIncremental, sse: ScreenSpaceScratch): void {
  st.levelCounts.fill(0);
  sse.noPrice(); // issue 14: the budget did not bind
  preferredFinalize(st, ci, hy);
  hideCulled(st, ci);
}

/**
 * hybrid over the clusters (hybridIncremental.ts): pass A ({@link preferredPass}); within budget
 * the preferred levels; below the minimum cost every adjustable object at its quality floor (the
 * floored clusters pass A took whole kept as they are, else redone per object first);
 * otherwise the coarsening items without the chains of stable objects (whole clusters where
 * possible), solved with their protected cost taken off the capacity — collected again with every
 * chain when the stable steps may not all be bought (reducedSolve). Same chains, solver and price as the per-object `hybridPolicy`.
 */
export function clusteredHybrid(st: FrameState, ci: ClusterIndex, cv: ClusterViews, table: ProfileTable, sse: ScreenSpaceScratch,
  used: number, views: EngineView | readonly EngineView[], single: boolean, viewCount: number, cull: boolean, budget: number, exactSizes: boolean): void {
  const hb = hybridBindingOf(ci), code = bindingApplies(st, ci, table, hb, viewCount);
  if (code !== 0) { hybridBindingFrame(st, ci, cv, table, sse, used, views, single, viewCount, cull, budget, exactSizes, hb, code); return; }
  hb.binding = false;
  const hy = preferredPass(st, ci, cv, table, sse, used, views, single, viewCount, cull, exactSizes, true);
  hy.frames++; hy.wasBelow = false;
  // Floored clusters stand only below the minimum again (their preferred cost is then over the
  // budget too: at least `flooredLeast`); otherwise pass A runs over them per object.
  let below = false;
  if (hy.flooredCount > 0) {
    below = st.totalCost + hy.flooredLeast > budget && hybridBelowMinimum(st, ci, hy, table.count, budget);
    if (below) writeFlooredSizes(st, ci, hy); else redoFloored(st, ci, cv, hy);
  }
  if (!below) {
    if (st.totalCost <= budget) {
      drawPreferred(st, ci, hy, sse);
      return;
    }
    below = hybridBelowMinimum(st, ci, hy, table.count, budget);
  }
  st.levelCounts.fill(0);
  // Below the minimum (every adjustable object at its floor over budget): no collection.
  if (below) {
    sse.noPrice(); hy.wasBelow = true;
    hybridFinalizeAtFloor(st, ci, hy);
    st.minimumCost = st.totalCost; // (what it drew is the minimum: every adjustable object at its floor or coarser)
    hideCulled(st, ci);
    return;
  }
  const shift = itemShift(table), visible = ci.visibleClusterCount, acc = hy.acc;
  let redone = false;
  for (let pass = 0; pass < 2; pass++) {
    hy.items = 0; hy.stableObjects = 0; acc[0] = 0; acc[1] = 0; acc[2] = 0; acc[3] = 0;
    hy.listing.reset();
    for (let k = 0; k < visible; k += 256) hybridCollectChunk(st, ci, cv, sse, hy, shift, pass === 0, pass === 1, k, k + 256 < visible ? k + 256 : visible);
    if (pass === 0) addKernelSettled(hy, st.stride);
    st.minimumCost = acc[0];
    acc[4] = budget;
    const solved = reducedSolve(st, sse, acc, hy.items, hy.stableObjects, shift, ci.idSlot); // (next by slot)
    if (solved === 2) { hy.cuts++; hy.noteCut(st.frame, sse); }
    if (solved !== 0) break;
    hy.fallbacks++;
    redone = true;
  }
  if (redone) hy.noteRedoneCut(st.frame, sse);
  hy.stableTotal += hy.stableObjects;
  hybridFinalize(st, ci, hy);
  hideCulled(st, ci);
  hb.binding = true; // (the next frame tries hybridBindingFrame.ts)
}
