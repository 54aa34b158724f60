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
 * visible cluster is decided per object over the slot arrays (classifyList, drawCoarsest and
 * finalizeList's rules; reading by id in random spatial order cost ≈ 250 ns an object), so each
 * object gets exactly the per-object path's level, blend and size.
 *
 * Contributor notes:
 * - The minimum cost sums `live × cost(coarsest)` per whole cluster: exact for integer costs, as
 *   every per-cluster sum of the clustered paths.
 * - Literals in loops: flag bits 1 hidden, 2 removed; 255 no forced level / hidden; −1 the
 *   metric kernels' culled value (CULLED_SIZE). No hold frames here (`minFramesBetweenChanges`
 *   takes the full path), so no object keeps its level.
 *
 * @module
 */
import type { ClusterIndex } from '../spatial/clusters.js';
import type { ClusterViews } from '../spatial/clusterViews.js';
import { classify, clusterMetric, eyeOutsideCluster } from './clusterPass.js';
import type { FrameState } from '../core/frameState.js';
import { VB_PERSPECTIVE } from '../core/layout.js';
import { oweCluster } from '../outputs/owedSizes.js';
import { clusterStateGetter } from '../spatial/clusterState.js';
import type { ScreenSpaceScratch } from './screenSpacePasses.js';

/** Per-set scratch of the pass: the whole clusters, the clusters decided per object, and [minimum cost, whole count, per-object count]. */
export class CoarsestScratch {
  whole: Uint32Array = new Uint32Array(0);
  perObject: Uint32Array = new Uint32Array(0);
  acc: Float64Array = new Float64Array(3);

  ensure(clusters: number): void {
    if (this.whole.length < clusters) { this.whole = new Uint32Array(clusters); this.perObject = new Uint32Array(clusters); }
  }
}

/** The {@link CoarsestScratch} of a set's cluster index (created on its first such frame). */
export const coarsestStateOf: (ci: ClusterIndex) => CoarsestScratch = clusterStateGetter(() => new CoarsestScratch());

/**
 * Clusters `[from, to)`: culled ones to `ci.culledList`; whole ones (see the module comment) to
 * `co.whole`, their sizes owed; the others to `co.perObject`, with their objects' projected
 * diameters in `ci.workS`. Adds the minimum cost — classifyPass's, per slot — to `co.acc[0]`.
 * Writes no output: the frame may still go to the full path.
 */
export function coarsestFeedChunk(st: FrameState, ci: ClusterIndex, cv: ClusterViews, co: CoarsestScratch, from: number, to: number): void {
  const live = ci.live, bounds = ci.bounds, culledList = ci.culledList, flagsS = ci.flagsS, forcedS = ci.forcedS, profS = ci.profS;
  const workS = ci.workS, state = ci.state, profile = ci.profile, forcedCount = ci.forcedCount, startA = ci.start, endA = ci.end;
  const costs = st.costs, stride = st.stride, hiA = st.hi, lc = st.levelCount, owed = ci.owed, block = cv.block;
  const inlineView = cv.count === 1 && block[VB_PERSPECTIVE] !== 0;
  const whole = co.whole, perObject = co.perObject, acc = co.acc;
  let q = ci.culledCount, w = acc[1], po = acc[2], cost = acc[0];
  for (let c = from; c < to; c++) {
    if (live[c] === 0) continue;
    const R = bounds[c * 6 + 3];
    if (R === R && cv.cull && classify(ci, cv, c) === 1) { culledList[q++] = c; continue; }
    state[c] = 254; // the policy writes its objects' levels and sizes
    const p0 = profile[c];
    let classified = R === R && cv.cull; // (cv.klass holds this cluster's classes)
    if (inlineView && R === R && p0 !== 0xffff && forcedCount[c] === 0) {
      if (!cv.cull) classify(ci, cv, c);
      classified = true;
      if (cv.klass[0] === 2 && eyeOutsideCluster(ci, cv, c)) {
        let clean = 1;
        for (let s = startA[c], e = endA[c]; s < e; s++) if ((flagsS[s] & 3) === 1) { clean = 0; break; }
        if (clean === 1) {
          ci.markSizes(c);
          oweCluster(owed, c);
          whole[w++] = c;
          cost += live[c] * costs[p0 * stride + hiA[p0]];
          continue;
        }
      }
    }
    clusterMetric(st, ci, cv, c, 1, false, classified);
    perObject[po++] = c;
    for (let s = startA[c], e = endA[c]; s < e; s++) {
      const fl = flagsS[s], x = workS[s];
      if ((fl & 3) !== 0 || x === -1) continue; // removed, hidden or culled: not drawn
      const p = profS[s], fo = forcedS[s];
      const level = x === x && fo !== 255 ? (fo < lc[p] ? fo : lc[p] - 1) : hiA[p]; // (invalid: the coarsest allowed)
      cost += costs[p * stride + level];
    }
  }
  ci.culledCount = q; acc[0] = cost; acc[1] = w; acc[2] = po;
}

/**
 * The clusters of `co.perObject`, per object as classifyList, drawCoarsest and finalizeList do it
 * (but over the slot arrays, in slot order): not drawn → hidden with NaN size; invalid → coarsest
 * allowed; forced → its level; else the coarsest allowed level; blend 0; sizes the projected
 * diameter × bias, clamped to `viewportMax`. Levels, changes, histogram, cost, hidden and invalid
 * counts added.
 */
export function coarsestFinalizePerObject(st: FrameState, ci: ClusterIndex, co: CoarsestScratch, sc: ScreenSpaceScratch): void {
  const startA = ci.start, endA = ci.end, flagsS = ci.flagsS, forcedS = ci.forcedS, profS = ci.profS, workS = ci.workS;
  const slotId = ci.slotId, levelsS = ci.levelsS, blendS = ci.blendS, perObject = co.perObject;
  const levels = st.levels, blend = st.blend, sizes = st.sizes, changed = st.changed, lastChange = st.lastChange;
  const costs = st.costs, stride = st.stride, hiA = st.hi, lc = st.levelCount, levelCounts = st.levelCounts, frame = st.frame, bias = st.bias;
  // The cap read from its double field: as a parameter (a small integer arrives as a Smi) the
  // clamp below made V8 box every size, ≈ 400 kB of garbage a frame at 100k objects in two views.
  const viewportMax = sc.viewportMax;
  let changedCount = st.changedCount, totalCost = 0, hidden = 0, invalid = 0, evaluated = 0;
  for (let k = 0, n = co.acc[2]; k < n; k++) {
    const c = perObject[k];
    for (let s = startA[c], e = endA[c]; s < e; s++) {
      const fl = flagsS[s];
      if (fl & 2) continue;
      const i = slotId[s], x = workS[s];
      evaluated++;
      if (blendS[s] !== 0) { blendS[s] = 0; blend[i] = 0; }
      let level = 255;
      if ((fl & 1) !== 0 || x === -1) {
        sizes[i] = Number.NaN; hidden++;
      } else {
        const p = profS[s];
        if (x !== x) { level = hiA[p]; invalid++; } else {
          const fo = forcedS[s];
          level = fo !== 255 ? (fo < lc[p] ? fo : lc[p] - 1) : hiA[p];
        }
        const raw = x * bias;
        sizes[i] = raw > viewportMax ? viewportMax : raw;
        levelCounts[level]++;
        totalCost += costs[p * stride + level];
      }
      if (level !== levelsS[s]) { changed[changedCount++] = i; lastChange[i] = frame; levels[i] = level; levelsS[s] = level; }
    }
  }
  st.changedCount = changedCount; st.totalCost += totalCost; st.hidden += hidden; st.invalid += invalid; st.objectsEvaluated += evaluated;
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
