/**
 * The order of one hybrid frame on the budget policy's classification (passes/hybridBinding.ts),
 * tried by clusterDrivers.ts `clusteredHybrid` after a frame it solved over budget. It applies to
 * one view, no `minFramesBetweenChanges`, the WebAssembly kernels with sizes in slot order, and
 * profiles of one screen metric (pixels or screen height: their value is a diameter up to a
 * factor); other frames take clusteredHybrid's passes.
 *
 * @module
 */
import type { FrameState } from '../core/frameState.js';
import type { ProfileTable } from '../core/profiles.js';
import type { ClusterIndex } from '../spatial/clusters.js';
import type { ClusterViews } from '../spatial/clusterViews.js';
import type { EngineView } from '../core/updateOptions.js';
import { prepareClusterFrame } from '../passes/clusterPass.js';
import { cullBlocks } from '../spatial/blockCulling.js';
import { hideCulled } from '../passes/clusterPolicyPasses.js';
import { computeHybridStableRanges } from '../passes/budgetStable.js';
import { computeHybridLevelRows } from '../passes/hybridLevelRows.js';
import { hybridCollectChunk, hybridStateOf } from '../passes/hybridIncremental.js';
import { hybridFinalize, hybridFinalizeAtFloor, preferredFinalize } from '../passes/hybridFinalize.js';
import { bindingCollect, bindingFeedChunk, bindingFinalize, bindingMinimum, bindingUndo, type HybridBinding } from '../passes/hybridBinding.js';
import { reducedSolve } from '../passes/budgetIncremental.js';
import type { ScreenSpaceScratch } from '../passes/screenSpacePasses.js';
import { VB_PIXEL_SCALE } from '../core/layout.js';
import { itemShift } from './policyDrivers.js';

/** The frame's one screen metric code (1 pixels, 2 screen height) when this path applies to it, else 0. */
export function bindingApplies(st: FrameState, ci: ClusterIndex, table: ProfileTable, hb: HybridBinding, viewCount: number): number {
  if (!hb.binding || !hb.enabled || viewCount !== 1 || st.minFrames > 0 || ci.wasm === null || !ci.sizesInSlots) return 0;
  const mask = table.metricMask;
  return mask === 2 ? 1 : mask === 4 ? 2 : 0;
}

/**
 * One hybrid frame over budget on the kernel's classification: the feed, then — as
 * clusteredHybrid — within budget the preferred levels, below the minimum every adjustable object
 * at its floor, else the solve (collected again with every chain when the stable steps may not all
 * be bought). `code`: from {@link bindingApplies}.
 */
export function hybridBindingFrame(st: FrameState, ci: ClusterIndex, cv: ClusterViews, table: ProfileTable, sse: ScreenSpaceScratch, used: number,
  views: EngineView | readonly EngineView[], single: boolean, viewCount: number, cull: boolean, budget: number, exactSizes: boolean,
  hb: HybridBinding, code: number): void {
  prepareClusterFrame(st, ci, cv, views, single, viewCount, cull, exactSizes, used, table.metricMask);
  const hy = hybridStateOf(ci);
  hy.ensure(ci.slotId.length, ci.start.length, st.stride);
  hb.ensure(ci.slotId.length, st.stride);
  hy.keptCounts.fill(0); hy.free.reset();
  hy.flooredCount = 0; hy.flooredLeast = 0; hy.hybridPass = true; hy.kernel.on = false; hy.wasBelow = false;
  ci.visibleCount = 0; ci.culledCount = 0; ci.visibleClusterCount = 0;
  hy.raiseFloor(st.frame, sse);
  computeHybridStableRanges(st, sse, hy.ranges, table.count);
  computeHybridLevelRows(st, table, hy.ranges, hb.rows, cv.block[VB_PIXEL_SCALE], sse.viewportMax, hb.pieces);
  hb.kernelProfile = -1; hb.listCount = 0; hb.stable = 0; hb.sums.fill(0); hb.stableCounts.fill(0);
  const runs = cullBlocks(ci, cv), r = ci.supers.runs;
  for (let k = 0; k < runs; k++) {
    for (let c = r[2 * k], to = r[2 * k + 1]; c < to; c += 256) bindingFeedChunk(st, ci, cv, hy, hb, code, sse.viewportMax, c, c + 256 < to ? c + 256 : to);
  }
  st.clustersCulled = ci.culledCount;
  hy.frames++; hb.frames++;
  const preferredCost = st.totalCost + hb.sums[0];
  st.levelCounts.fill(0);
  if (preferredCost <= budget) { // within budget: the preferred levels
    sse.noPrice(); hb.binding = false;
    preferredFinalize(st, ci, hy);
    hideCulled(st, ci);
    return;
  }
  if (bindingMinimum(st, ci, hb) > budget) { // below the minimum: every adjustable object at its floor
    sse.noPrice(); hy.wasBelow = true; hb.binding = false;
    hybridFinalizeAtFloor(st, ci, hy);
    st.minimumCost = st.totalCost;
    hideCulled(st, ci);
    return;
  }
  const shift = itemShift(table), acc = hy.acc;
  bindingCollect(st, ci, cv, sse, hy, hb, code, shift);
  st.minimumCost = acc[0];
  acc[4] = budget;
  let solved = reducedSolve(st, sse, acc, hy.items, hy.stableObjects, shift, ci.idSlot);
  if (solved === 2) { hy.cuts++; hy.noteCut(st.frame, sse); }
  if (solved !== 0) {
    hy.stableTotal += hy.stableObjects; hb.stableTotal += hb.stable;
    bindingFinalize(st, ci, hy, hb);
    hideCulled(st, ci);
    return;
  }
  // The stable steps may not all be bought: every object's chain, as clusteredHybrid's second collection.
  hy.fallbacks++; hb.fallbacks++;
  bindingUndo(st, ci, hy, hb);
  hy.items = 0; hy.stableObjects = 0; acc.fill(0);
  hy.listing.reset();
  const visible = ci.visibleClusterCount;
  for (let k = 0; k < visible; k += 256) hybridCollectChunk(st, ci, cv, sse, hy, shift, false, false, k, k + 256 < visible ? k + 256 : visible);
  st.minimumCost = acc[0];
  acc[4] = budget;
  solved = reducedSolve(st, sse, acc, hy.items, hy.stableObjects, shift, ci.idSlot);
  hy.noteRedoneCut(st.frame, sse);
  hybridFinalize(st, ci, hy);
  hideCulled(st, ci);
}
