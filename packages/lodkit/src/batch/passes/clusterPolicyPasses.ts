/**
 * The budget policy's full clustered path (the fallback of budgetIncremental.ts): clusters wholly
 * outside every view are hidden as a whole (no metric, no classification, no solver item), and the
 * per-object passes of policyPasses.ts run over the list of the other clusters' slots only
 * (rankQuota and hybrid have their own passes: rankCuts.ts, hybridIncremental.ts; they share
 * {@link hideCulled}). The budget/hybrid items
 * (screen-space error, stability band: issue 14) come from screenSpacePasses.ts's list variant. The solvers
 * (src/policies) are unchanged and get the same candidates and items as on the per-object path, in
 * another order; both break ties by id, so the chosen levels are the same.
 *
 * Contributor notes:
 * - The list holds slots (`ClusterIndex.slotId[slot]` is the id): the slot-ordered copies
 *   `levelsS`/`blendS` are kept in step, so the clustered thresholds path can follow a policy
 *   frame without a resynchronisation, and a cluster hidden as a whole keeps state 255.
 * - Each pass mirrors its per-object counterpart in policyPasses.ts (same literals, same order of
 *   operations per object); test/batch/clusterPolicies.test.ts compares the two paths frame by frame.
 *
 * @module
 */
import type { ClusterIndex } from '../spatial/clusters.js';
import type { ClusterViews } from '../spatial/clusterViews.js';
import { classify, clusterMetric, hideCluster } from './clusterPass.js';
import { classifyRange, finalizeRange } from './policyPasses.js';
import type { FrameState } from '../core/frameState.js';

/**
 * Clusters `[from, to)`: culled ones (culling on) are appended to `ci.culledList`; for the others
 * the metric `code` is computed per object into `st.work[id]` and their live slots are appended to
 * `ci.visible`. Returns nothing; `ci.visibleCount` / `ci.culledCount` grow.
 */
export function feedChunk(st: FrameState, ci: ClusterIndex, cv: ClusterViews, code: number, from: number, to: number): void {
  const live = ci.live, bounds = ci.bounds, visible = ci.visible, culledList = ci.culledList, flagsS = ci.flagsS;
  const slotId = ci.slotId, workS = ci.workS, work = st.work;
  let m = ci.visibleCount, q = ci.culledCount;
  for (let c = from; c < to; c++) {
    if (live[c] === 0) continue;
    const R = bounds[c * 6 + 3];
    if (R === R && cv.cull && classify(ci, cv, c) === 1) { culledList[q++] = c; continue; }
    ci.state[c] = 254; // the policy writes its objects' levels and sizes
    clusterMetric(st, ci, cv, c, code, false, R === R && cv.cull);
    for (let s = ci.start[c], e = ci.end[c]; s < e; s++) {
      if (flagsS[s] & 2) continue;
      work[slotId[s]] = workS[s];
      visible[m++] = s;
    }
  }
  ci.visibleCount = m; ci.culledCount = q;
}

/** Hides the clusters of `ci.culledList` (appending changes) and counts their objects as hidden. */
export function hideCulled(st: FrameState, ci: ClusterIndex): void {
  const list = ci.culledList, state = ci.state, live = ci.live;
  let hidden = 0;
  for (let k = 0; k < ci.culledCount; k++) {
    const c = list[k];
    if (state[c] === 255) hidden += live[c];
    else { hidden += hideCluster(st, ci, c); state[c] = 255; }
  }
  st.hidden += hidden;
}

/**
 * classifyPass over the visible slots `ci.visible[from … to)` (see policyPasses.ts). Called in
 * chunks: as one long call it was on-stack-replaced and then deoptimised at its stats stores on
 * every frame once it ran only in the budget's rare full-path frames (allocation probe).
 */
export function classifyList(st: FrameState, ci: ClusterIndex, from: number, to: number, culledIsInfinity: boolean): void {
  classifyRange(st, ci.visible, ci.slotId, from, to, culledIsInfinity);
}

/** finalizePass over the visible slots (keeps `levelsS` in step); resets then fills the changed list. */
export function finalizeList(st: FrameState, ci: ClusterIndex, m: number): void {
  finalizeRange(st, ci.visible, ci.slotId, ci.levelsS, m);
}
