/**
 * The budget policy below its minimum cost, over the spatial clusters (issue 28: "every regime costs
 * about a thresholds frame"): when even every drawn object at its coarsest allowed level is over the
 * budget, nothing can be bought, so no chain is built and no price is set — every adjustable object
 * ends at its coarsest allowed level with blend 0 (drawCoarsest on the per-object path). Tried when
 * the last budget frame was below its minimum; the frame goes on with the full path when this one
 * is not (the minimum is known before anything is written).
 *
 * A cluster is decided as a whole when its objects need nothing per object but a flag check: one
 * profile, no forced object, no hold frames, valid spheres, no hidden object, and one perspective
 * view wholly containing it with the eye outside its sphere — its objects' projected diameters
 * (the `sizes`) are then owed (outputs/owedSizes.ts, as budgetIncremental.ts owes them). Every other
 * visible cluster goes through the full path's passes (projected diameters, classifyList,
 * drawCoarsest, finalizeList), so each object gets exactly the per-object path's level, blend and size.
 *
 * Contributor notes:
 * - The minimum cost sums `live × cost(coarsest)` per whole cluster: exact for integer costs, as
 *   every per-cluster sum of the clustered paths.
 * - Literals in loops: flag bits 1 hidden, 2 removed.
 *
 * @module
 */
import type { ClusterIndex } from '../spatial/clusters.js';
import type { ClusterViews } from '../spatial/clusterViews.js';
import { classify, clusterMetric } from './clusterPass.js';
import type { FrameState } from '../core/frameState.js';
import { VB_EYE, VB_PERSPECTIVE } from '../core/layout.js';
import { oweCluster } from '../outputs/owedSizes.js';
import { clusterStateGetter } from '../spatial/clusterState.js';

/** Per-set scratch of the pass: the whole clusters, and [minimum cost, count] of them. */
export class CoarsestScratch {
  whole: Uint32Array = new Uint32Array(0);
  acc: Float64Array = new Float64Array(2);

  ensure(clusters: number): void {
    if (this.whole.length < clusters) this.whole = new Uint32Array(clusters);
  }
}

/** The {@link CoarsestScratch} of a set's cluster index (created on its first such frame). */
export const coarsestStateOf: (ci: ClusterIndex) => CoarsestScratch = clusterStateGetter(() => new CoarsestScratch());

/**
 * Clusters `[from, to)`: culled ones to `ci.culledList`; whole ones (see the module comment) to
 * `whole`, their sizes owed, their minimum cost into `acc[0]` and their count into `acc[1]`; the
 * others' projected diameters into `st.work` by id and their live slots to `ci.visible`.
 */
export function coarsestFeedChunk(st: FrameState, ci: ClusterIndex, cv: ClusterViews, whole: Uint32Array, acc: Float64Array,
  from: number, to: number): void {
  const live = ci.live, bounds = ci.bounds, visible = ci.visible, culledList = ci.culledList, flagsS = ci.flagsS;
  const slotId = ci.slotId, workS = ci.workS, work = st.work, state = ci.state, profile = ci.profile, forcedCount = ci.forcedCount;
  const costs = st.costs, stride = st.stride, hiA = st.hi, owed = ci.owed, block = cv.block, eyeMagnitude = cv.eyeMagnitude;
  const ex = block[VB_EYE], ey = block[VB_EYE + 1], ez = block[VB_EYE + 2];
  const inlineView = cv.count === 1 && block[VB_PERSPECTIVE] !== 0 && st.minFrames === 0;
  let m = ci.visibleCount, q = ci.culledCount, w = acc[1], cost = acc[0];
  for (let c = from; c < to; c++) {
    if (live[c] === 0) continue;
    const R = bounds[c * 6 + 3];
    if (R === R && cv.cull && classify(ci, cv, c) === 1) { culledList[q++] = c; continue; }
    state[c] = 254; // the policy writes its objects' levels and sizes
    const p0 = profile[c];
    if (inlineView && R === R && p0 !== 0xffff && forcedCount[c] === 0) {
      if (!cv.cull) classify(ci, cv, c);
      const o6 = c * 6, cx = bounds[o6] - ex, cy = bounds[o6 + 1] - ey, cz = bounds[o6 + 2] - ez;
      const D = Math.sqrt(cx * cx + cy * cy + cz * cz);
      // (the margin of budgetIncremental.ts: the eye surely outside the cluster's sphere)
      if (cv.klass[0] === 2 && D - R > 1e-6 * D + 1e-9 * (Math.abs(bounds[o6]) + Math.abs(bounds[o6 + 1]) + Math.abs(bounds[o6 + 2]) + R + eyeMagnitude)) {
        let clean = 1;
        for (let s = ci.start[c], e = ci.end[c]; s < e; s++) if ((flagsS[s] & 3) === 1) { clean = 0; break; }
        if (clean === 1) {
          ci.markSizes(c);
          oweCluster(owed, c);
          whole[w++] = c;
          cost += live[c] * costs[p0 * stride + hiA[p0]];
          continue;
        }
      }
    }
    clusterMetric(st, ci, cv, c, 1, false);
    for (let s = ci.start[c], e = ci.end[c]; s < e; s++) {
      if (flagsS[s] & 2) continue;
      work[slotId[s]] = workS[s];
      visible[m++] = s;
    }
  }
  ci.visibleCount = m; ci.culledCount = q; acc[0] = cost; acc[1] = w;
}

/**
 * The whole clusters `whole[0 … count)`: every live object at its profile's coarsest allowed level
 * with blend 0 — levels (slot copy in step), changes appended to the changed list, histogram and
 * total cost added.
 */
export function coarsestFinalizeWhole(st: FrameState, ci: ClusterIndex, whole: Uint32Array, count: number): void {
  const startA = ci.start, endA = ci.end, flagsS = ci.flagsS, slotId = ci.slotId, levelsS = ci.levelsS, blendS = ci.blendS;
  const profile = ci.profile, live = ci.live, levels = st.levels, blend = st.blend, changed = st.changed, lastChange = st.lastChange;
  const costs = st.costs, stride = st.stride, hiA = st.hi, levelCounts = st.levelCounts, frame = st.frame;
  let changedCount = st.changedCount, totalCost = 0;
  for (let k = 0; k < count; k++) {
    const c = whole[k], p0 = profile[c], L = hiA[p0];
    for (let s = startA[c], e = endA[c]; s < e; s++) {
      if (flagsS[s] & 2) continue;
      const i = slotId[s];
      if (blendS[s] !== 0) { blendS[s] = 0; blend[i] = 0; }
      if (levelsS[s] !== L) { changed[changedCount++] = i; lastChange[i] = frame; levels[i] = L; levelsS[s] = L; }
    }
    levelCounts[L] += live[c];
    totalCost += live[c] * costs[p0 * stride + L];
  }
  st.changedCount = changedCount;
  st.totalCost += totalCost;
}
