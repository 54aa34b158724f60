/**
 * The hybrid policy over the spatial clusters with two cluster-level shortcuts, same results as
 * the per-object hybrid (policyDrivers.ts):
 *
 * 1. Uniform preferred level. A cluster of one screen-metric profile, no forced object, no hold
 *    frames, whose size interval (clusterInterval: conservative, after bias) widened by the
 *    hysteresis band `[lo·(1 − h), hi·(1 + h)]` contains no threshold or blend threshold
 *    (uniformLevel) prefers one level P for every object: each value and both of its hysteresis
 *    probes map to P, so no previous level can be held, the blend is 0 and the mark adjustable.
 *    Its objects only get `sizes` (the metric × bias, computed per object) and blend 0.
 *    When every object is already displayed at P with blend 0, each decided freely (cluster state P,
 *    as the thresholds path keeps it), and the unwidened interval maps to P (the thresholds path's
 *    skip rule: no object changes, so no hysteresis rule applies), the first pass does no
 *    per-object work: the objects prefer P and their `sizes` keep the last evaluated values, which
 *    map to P (LodSet's `sizes`). At or past the quality floor nothing else runs; finer, the
 *    coarsening decides the cluster (whole when its diameters lie in one stable range, shortcut 2).
 *    Finalize leaves such clusters in state P for the next frame of either policy. Coarsened whole
 *    (below the minimum, or by the solve) to one level, they are left in STATE_COARSENED with that
 *    level and P (spatial/clusters.ts): pass A skips them the same way while the widened interval
 *    still maps to P — the level their kept sizes map to (budgetCap.test.ts, orthographic zoom).
 * 2. Stable coarsening. Over budget, an adjustable object whose projected diameter lies in a
 *    stable range of (profile, preferred level, previous level) (budgetStable.ts, chains from the
 *    quality floor to the preferred level, flat steps kept) offers only protected steps up to its
 *    previous level; a whole uniform-P cluster at one previous level whose diameter interval lies
 *    in such a range needs no per-object work at all. The solve takes their protected cost off the
 *    capacity (as budgetIncremental.ts explains); when the stable steps may not all be bought (the
 *    tier cut at or above their floor), the items are collected again with every chain built and
 *    solved as the per-object path does.
 * 3. Finalize by list (hybridFinalize.ts). Over budget, the collection already knows the final level of most objects
 *    of a cluster with chains (not adjustable, at or past the floor, stable): it counts those that
 *    keep their displayed level and have no blend to clear, and lists the others (chains, changes,
 *    blends to clear) for finalize — the few thousand slots whose outcome the solve decides,
 *    instead of every object of those clusters (random scene: ≈ 101,000 → a few thousand per
 *    frame, finalize 1.3 → 0.4 ms). A stable object's blend is cleared in finalize, not in the
 *    collection: a second collection gives it a chain, and the solve may give it its preferred level.
 * 4. Settled in the kernel. With the fused kernel, the first pass also classifies each object as
 *    the collection would (fusedCollect.ts); a cluster with no chain and no finalize entry is
 *    skipped by the first collection, which adds the kernel's counts (re-collected per object
 *    when the frame is collected again).
 *
 * Contributor notes:
 * - The per-object bodies mirror the per-object hybrid (thresholdPass, collectScreenSpaceItems,
 *   clearCoarsenedBlend, hybridMinimumCost, finalizePass): change them together (test/batch/hybridIncremental.test.ts and
 *   clusterPolicies.test.ts compare with `clusters: false` frame by frame).
 * - Costs summed per cluster (`live × cost`): exact for integer costs (see clusterPass.ts).
 * - Literals in loops as elsewhere: 255 hidden level / no forced level / "none" in the per-cluster
 *   arrays; flag bits 1 hidden, 2 removed; marks 0 adjustable, 1 fixed, 2 not drawn; kind 3 stable.
 *
 * @module
 */
import { buildObjectChain } from '../../policies/screenSpaceError.js';
import { STATE_COARSENED, type ClusterIndex } from '../spatial/clusters.js';
import type { ClusterViews } from '../spatial/clusterViews.js';
import { classify, clusterInterval, clusterMetric, fusedCull, uniformLevel, widenByBand } from './clusterPass.js';
import type { FrameState } from '../core/frameState.js';
import { VB_EYE, VB_PERSPECTIVE, VB_PIXEL_SCALE, VB_WINDOW_HEIGHT } from '../core/layout.js';
import { decideAscendingNext, decideDescendingNext } from '../kernels/nextKernels.js';
import { fusedNextCluster, loadFusedProfile } from './fusedPass.js';
import { loadFusedCollect, settledAt, takeFusedCollected } from './fusedCollect.js';
import type { ScreenSpaceScratch } from './screenSpacePasses.js';
import { IncrementalState, STABLE_MAX_RANGES } from './budgetStable.js';
import { clusterStateGetter } from '../spatial/clusterState.js';
import { FinalizeList, FreeClusters, KernelSettled } from './hybridScratch.js';
import { protectedFloorKey, pushChainItems, upgradeCeilKey } from './chainItems.js';

/**
 * `cpref` of a cluster hybrid left below the minimum with every object finer than its floor
 * (hybridFinalize.ts `hybridFinalizeAtFloor`): STATE_COARSENED, displayed at `clevel` = the floor
 * F with blend 0, each object preferring some level finer than F. Pass A then takes it whole
 * ("floored") while every value and both of its hysteresis probes lie above the threshold between
 * F − 1 and F (so each prefers a level finer than F again, and no hold can keep F): only `sizes`
 * are computed, into `workS`; `upref` F − 1 stands for "finer than F". clusterDrivers.ts
 * `clusteredHybrid` keeps that only when the frame is below the minimum again (each ends at F,
 * blend 0: writeFlooredSizes) and otherwise runs pass A over these clusters per object
 * (`redoFloored`: they wrote nothing, so the kernel reads last frame's sizes as it would have).
 */
export const PREF_FINER = 254;

/** Per-set state of the incremental hybrid path and its scratch. */
export class HybridIncremental extends IncrementalState {
  // `kindS`: per slot 3 when the object's coarsening is stable (keeps its previous level), else 0;
  // `acc`: minimum cost, stable objects' protected cost, [2] unused, the listed clusters'
  // settled cost, the budget.
  /** Per cluster: the preferred level of every object (shortcut 1), or 255. */
  upref: Uint8Array = new Uint8Array(0);
  /** Per cluster: the previous level every object keeps (shortcut 2, whole cluster), or 255. */
  ustable: Uint8Array = new Uint8Array(0);
  /**
   * Per cluster decided per object: 1 when some adjustable object prefers a level finer than the
   * quality floor (it has a coarsening chain); else every object ends at its preferred level: 2
   * when that is its displayed one (finalize adds the cluster's histogram and cost only), else 0;
   * and the cluster's preferred cost (pass A), all the collection needs of a cluster without chains.
   */
  chains: Uint8Array = new Uint8Array(0);
  prefCost: Float64Array = new Float64Array(0);
  /**
   * Per cluster in state STATE_COARSENED (spatial/clusters.ts): the level every object is displayed at,
   * and the one level all of them preferred when their `sizes` were last written (kept on growth).
   */
  clevel: Uint8Array = new Uint8Array(0);
  cpref: Uint8Array = new Uint8Array(0);
  /** Per cluster: 1 when pass A skipped it whole (no metric values of this frame in `workS`). */
  skippedA: Uint8Array = new Uint8Array(0);
  /** The clusters the kernel settled in pass A, and whether it collects this frame. */
  readonly kernel = new KernelSettled();
  /** Pass A's clusters with chains whose every drawn object the kernel decided freely (their counts for a frame within budget). */
  readonly free = new FreeClusters();
  /** The one preferred level of every object when each was decided freely with blend 0, else 255 (finalize: the cluster state when every object ends there). */
  ulevel: Uint8Array = new Uint8Array(0);
  /** Pass A: the preferred histogram of the clusters with `chains` 2 (finalize adds it); scratch of one cluster's. */
  keptCounts: Float64Array = new Float64Array(0);
  countsBefore: Float64Array = new Float64Array(0);
  /** Over budget: what the collection leaves finalize to do. */
  readonly listing = new FinalizeList();
  uniformTotal = 0;
  /** Clusters the kernel settled in pass A (fusedCollect.ts). */
  settledTotal = 0;
  /** Coarsened clusters pass A skipped whole (STATE_COARSENED). */
  coarsenedTotal = 0;
  /**
   * Pass A's floored clusters (see {@link PREF_FINER}): `floored[0 … flooredCount)`, and the least
   * preferred cost their objects can have (kept out of `st.totalCost`: a lower bound, not a sum).
   */
  floored: Uint32Array = new Uint32Array(0);
  flooredCount = 0;
  /** Hybrid's own pass A (else a budget frame's thresholds try: no floor, no floored cluster). */
  hybridPass = false;
  /** The last hybrid frame was below the minimum (this one's pass A counts what finalize at the floor would touch: FreeClusters `atFloor`). */
  wasBelow = false;
  flooredLeast = 0.5; // (0.5: a double field for V8; reset every pass A)
  /** Objects of floored clusters whose frame stood below the minimum, and floored clusters redone per object (tests: not vacuous). */
  flooredTotal = 0;
  flooredRedone = 0;
  /** Clusters finalize below the minimum left unvisited (FreeClusters `atFloor`; tests: not vacuous). */
  atFloorTotal = 0;

  ensure(slots: number, clusters: number, levels: number): void {
    this.listing.ensure(slots, clusters, levels);
    this.kernel.ensure(clusters, levels); this.free.ensure(clusters, levels);
    if (this.kindS.length < slots) this.kindS = new Uint8Array(slots);
    if (this.keptCounts.length < levels) {
      this.keptCounts = new Float64Array(levels); this.countsBefore = new Float64Array(levels);
    }
    if (this.upref.length < clusters) {
      this.upref = new Uint8Array(clusters); this.ustable = new Uint8Array(clusters);
      this.chains = new Uint8Array(clusters); this.prefCost = new Float64Array(clusters); this.ulevel = new Uint8Array(clusters);
      this.skippedA = new Uint8Array(clusters); this.floored = new Uint32Array(clusters);
      // (ci.state keeps STATE_COARSENED across growth: its levels too)
      const clevel = new Uint8Array(clusters), cpref = new Uint8Array(clusters);
      clevel.set(this.clevel); cpref.set(this.cpref);
      this.clevel = clevel; this.cpref = cpref;
    }
  }
}

/** The {@link HybridIncremental} of a set's cluster index (created on its first hybrid frame). */
export const hybridStateOf: (ci: ClusterIndex) => HybridIncremental = clusterStateGetter(() => new HybridIncremental());

/**
 * Pass A over clusters `[from, to)`: culled ones to `ci.culledList`; uniform-preferred clusters
 * (shortcut 1) get sizes and blend 0; floored ones ({@link PREF_FINER}) their values in `workS`;
 * the others the thresholds decision into `st.next`/`st.fixed` with the nextKernels.ts kernels.
 * Adds the preferred histogram / cost and the hidden / invalid counts. With `list` (the floored
 * clusters of this frame, already visible): clusters `list[from … to)`, none of them floored again.
 */
export function hybridPrefChunk(st: FrameState, ci: ClusterIndex, cv: ClusterViews, hy: HybridIncremental, from: number, to: number,
  list: Uint32Array | null): void {
  const live = ci.live, bounds = ci.bounds, culledList = ci.culledList, flagsS = ci.flagsS, blendS = ci.blendS;
  const profile = ci.profile, forcedCount = ci.forcedCount, slotId = ci.slotId, sp = ci.sp, workS = ci.workS;
  const state = ci.state, startA = ci.start, endA = ci.end, clusters = ci.visibleClusters, upref = hy.upref, kern = hy.kernel;
  const metricCode = st.metricCode, bySlot = ci.sizesInSlots, sizes = bySlot ? ci.sizesS : st.sizes, blend = st.blend, costs = st.costs, stride = st.stride, hiA = st.hi;
  const levelCounts = st.levelCounts, bias = st.bias, useUniform = st.minFrames === 0;
  const block = cv.block, klass = cv.klass, singleView = cv.count === 1, fused = ci.wasm === null ? null : ci.wasm.fused;
  const ex = block[VB_EYE], ey = block[VB_EYE + 1], ez = block[VB_EYE + 2], wh = block[VB_WINDOW_HEIGHT], vh = block[VB_PIXEL_SCALE], persp = block[VB_PERSPECTIVE] !== 0;
  const floorA = st.floor;
  let q = ci.culledCount, vc = ci.visibleClusterCount, uniformObjects = 0, evaluated = 0, skipped = 0, settled = 0;
  let totalCost = 0, minimumCost = 0, least = hy.flooredLeast, fc = hy.flooredCount;
  const thresholds = st.thresholds, loA = st.lo, floored = hy.floored, redo = list !== null, um = hy.free, freeA = um.flag, atFloorA = um.atFloor;
  for (let k = from; k < to; k++) {
    const c = redo ? list[k] : k;
    if (live[c] === 0) continue;
    const R = bounds[c * 6 + 3];
    if (redo) { if (cv.cull) classify(ci, cv, c); } // (visible: the per-view classes only)
    else if (R === R && cv.cull && classify(ci, cv, c) === 1) { culledList[q++] = c; continue; }
    const prevState = redo ? 254 : state[c];
    state[c] = 254;
    if (!redo) clusters[vc++] = c;
    upref[c] = 255; hy.skippedA[c] = 0; kern.settled[c] = 0; freeA[c] = 0; atFloorA[c] = 0;
    const p0 = profile[c], a = startA[c], e = endA[c];
    if (useUniform && R === R && p0 !== 0xffff && forcedCount[c] === 0 && metricCode[p0] !== 0) {
      const code = metricCode[p0];
      if (!cv.cull) classify(ci, cv, c); // clusterInterval reads the per-view classes
      if (clusterInterval(st, ci, cv, c, code) === 1) {
        const scr = cv.scr;
        // Skipped whole: every object already at its free level P (state P) and every value maps to
        // P — so none changes (as the thresholds path skips it; with its own level kept, no
        // hysteresis rule applies). P finer than the quality floor: the coarsening below still
        // decides the cluster (whole when its diameters lie in one stable range).
        if (prevState < 253 && !cv.exactSizes && uniformLevel(st, p0, true, scr) === prevState) {
          const n = live[c], P = prevState;
          upref[c] = P; state[c] = P; hy.skippedA[c] = 1;
          levelCounts[P] += n;
          totalCost += n * costs[p0 * stride + P];
          minimumCost += n * costs[p0 * stride + hiA[p0]];
          uniformObjects += n; skipped++;
          continue;
        }
        widenByBand(st, p0, scr);
        const P = uniformLevel(st, p0, true, scr);
        // Skipped whole, coarsened: every object displayed at clevel with blend 0 (hybrid left it
        // so: STATE_COARSENED), every value and both of its hysteresis probes map to P, and P is
        // the level its kept sizes map to — so each prefers P, as the per-object pass would find.
        if (P >= 0 && prevState === STATE_COARSENED && !cv.exactSizes && hy.cpref[c] === P) {
          const n = live[c];
          upref[c] = P; state[c] = STATE_COARSENED; hy.skippedA[c] = 1;
          levelCounts[P] += n;
          totalCost += n * costs[p0 * stride + P];
          minimumCost += n * costs[p0 * stride + hiA[p0]];
          uniformObjects += n; skipped++; hy.coarsenedTotal++;
          continue;
        }
        // Floored ({@link PREF_FINER}): every probe above t[F − 1], so each prefers a level finer than F.
        const F = floorA[p0];
        const flooring = P < 0 && hy.hybridPass && prevState === STATE_COARSENED && hy.cpref[c] === PREF_FINER && hy.clevel[c] === F && F > loA[p0]
          && !cv.exactSizes && scr[0] > thresholds[p0 * stride + F - 1];
        ci.markSizes(c); // (sizes written below or by the kernel; a cluster skipped whole keeps them: LodSet.sizes copies only marked clusters)
        if (P >= 0 || flooring) {
          // One perspective view wholly containing the cluster: the kernel's value without its plane
          // tests (all pass), same operations (metricKernels.ts heightPerspectiveKernel).
          const inline = singleView && klass[0] === 2 && persp && code !== 3;
          const scale = code === 1 ? vh : 1;
          if (!inline) clusterMetric(st, ci, cv, c, code, false, true);
          // Check every object first (values into workS), write only when the whole cluster qualifies:
          // the per-object kernel below reads last frame's sizes.
          let n = 0, clean = 1;
          for (let s = a; s < e; s++) {
            const fl = flagsS[s];
            if (fl & 2) continue;
            if (fl & 1) { clean = 0; break; }
            if (inline) {
              const o = s << 2, r = sp[o + 3];
              const dx = sp[o] - ex, dy = sp[o + 1] - ey, dz = sp[o + 2] - ez;
              const d = Math.sqrt(dx * dx + dy * dy + dz * dz);
              if (d <= r) { clean = 0; break; }
              workS[s] = ((2 * r) / (d * wh)) * scale;
            } else {
              const x = workS[s];
              if (!(x >= 0 && x < 1e308)) { clean = 0; break; }
            }
            n++;
          }
          if (clean === 1 && flooring) { // (sizes from workS once the frame is below the minimum; blend already 0)
            let m = costs[p0 * stride + loA[p0]];
            for (let l = loA[p0] + 1; l < F; l++) if (costs[p0 * stride + l] < m) m = costs[p0 * stride + l];
            least += n * m;
            upref[c] = F - 1; state[c] = STATE_COARSENED; hy.skippedA[c] = 2;
            floored[fc++] = c;
            levelCounts[F - 1] += n;
            evaluated += n;
            continue;
          }
          if (clean === 1) {
            for (let s = a; s < e; s++) {
              if (flagsS[s] & 2) continue;
              const i = slotId[s];
              sizes[bySlot ? s : i] = workS[s] * bias;
              if (blendS[s] !== 0) { blendS[s] = 0; blend[i] = 0; }
            }
          }
          if (clean === 1) {
            upref[c] = P;
            levelCounts[P] += n;
            totalCost += n * costs[p0 * stride + P];
            minimumCost += n * costs[p0 * stride + hiA[p0]];
            uniformObjects += n; evaluated += n;
            continue;
          }
        }
      }
    }
    // Per object: the thresholds decision (track = false), through the fused kernel where it applies.
    ci.markSizes(c);
    const mixed = p0 === 0xffff;
    if (fused !== null && !mixed && st.thresholdCount[p0] <= 4 && st.blendCount[p0] <= 4 && st.banded[p0] === 0) {
      const code = metricCode[p0];
      if (cv.fusedProfile !== p0) {
        loadFusedProfile(st, fused, p0, code, true, ci.sizesInSlots, cv.oweBlends, hy.hybridPass && hy.wasBelow ? floorA[p0] : 255); cv.fusedProfile = p0;
        // the collection in the kernel where it reads the kernel's value as pixels (as `reuse` below)
        if (kern.on && (code === 1 || (code === 2 && singleView))) loadFusedCollect(st, fused, p0, hy.ranges, kern.vmax, code === 2 ? vh : 1);
      }
      const before = st.totalCost, cb = hy.countsBefore, lc = st.levelCount[p0];
      for (let l = 0; l < lc; l++) cb[l] = levelCounts[l];
      // (classified above when culling; a budget frame's try has no floor: chains 0 or 2, see preferredFinalize)
      const kind = fusedNextCluster(st, ci, fused, c, p0, code, cv.count, fusedCull(cv, R === R && cv.cull), hy.hybridPass ? floorA[p0] : 0, um);
      hy.chains[c] = kind & 3;
      hy.ulevel[c] = (kind & 255) >= 4 ? ((kind & 255) >> 2) - 1 : 255;
      if ((kind & 3) === 1 && takeFusedCollected(st, fused, p0, kern.acc) === 1) {
        // Settled: finalize leaves it in the thresholds path's state L when every object ends at
        // the one level L all of them prefer freely (ulevel), else 254.
        const L = hy.ulevel[c];
        kern.settled[c] = 1; kern.state[c] = L !== 255 && settledAt(st, fused, p0, L) === live[c] ? L : 254; settled++;
      }
      hy.prefCost[c] = st.totalCost - before; // exact for integer costs, as every per-cluster sum here
      if ((kind & 3) === 2) { const kc = hy.keptCounts; for (let l = 0; l < lc; l++) kc[l] += levelCounts[l] - cb[l]; }
      if ((kind & 256) !== 0) { freeA[c] = (kind & 512) !== 0 ? 2 : 1; atFloorA[c] = (kind >>> 10) & 3; } // (FreeClusters: counted by the kernel's pass)
      evaluated += live[c];
      continue;
    }
    hy.chains[c] = 1; hy.ulevel[c] = 255;
    for (let code = 0; code < 4; code++) {
      if (mixed ? !(cv.mask & (1 << code)) : metricCode[p0] !== code) continue;
      clusterMetric(st, ci, cv, c, code, mixed, R === R && cv.cull);
      st.code = code; st.filter = mixed;
      if (code === 0) decideAscendingNext(st, ci, a, e);
      else decideDescendingNext(st, ci, a, e);
    }
    evaluated += live[c];
  }
  ci.culledCount = q; ci.visibleClusterCount = vc; hy.flooredCount = fc; hy.flooredLeast = least;
  hy.uniformTotal += uniformObjects; hy.settledTotal += settled;
  st.totalCost += totalCost; st.minimumCost += minimumCost; st.objectsEvaluated += evaluated; st.clustersSkipped += skipped;
}

const chainParams = new Float64Array(4);

/**
 * Over budget: the coarsening items of visible clusters `[from, to)` of `ci.visibleClusters` (as
 * collectScreenSpaceItemsList with `hybrid`), with shortcut 2 when `allowStable`. `rerun`: the
 * second collection of a frame (the preferred levels are read from `st.preferred`).
 */
export function hybridCollectChunk(st: FrameState, ci: ClusterIndex, cv: ClusterViews, sc: ScreenSpaceScratch, hy: HybridIncremental,
  shift: number, allowStable: boolean, rerun: boolean, from: number, to: number): void {
  const clusters = ci.visibleClusters, startA = ci.start, endA = ci.end, flagsS = ci.flagsS, slotId = ci.slotId;
  const levelsS = ci.levelsS, profS = ci.profS, workS = ci.workS, profile = ci.profile, live = ci.live;
  const upref = hy.upref, ustable = hy.ustable, kindS = hy.kindS, acc = hy.acc, chainsA = hy.chains, prefCost = hy.prefCost;
  const lst = hy.listing, listedA = lst.listed, list = lst.slots, listCounts = lst.counts, ulevel = hy.ulevel, blendS = ci.blendS, ksettledA = hy.kernel.settled;
  const fixed = st.fixed, next = st.next, preferred = st.preferred, chainOf = st.chainOf, keys = st.keys, items = st.items;
  const costs = st.costs, errors = st.errors, floorA = st.floor, stride = st.stride, bias = st.bias;
  const ch = sc.chains, cs = ch.stride, vmax = sc.viewportMax, band = sc.band, lambda = sc.lambda;
  const metricCode = st.metricCode, singleView = cv.count === 1, vh = cv.block[VB_PIXEL_SCALE];
  const outLevel = ch.level, outCost = ch.deltaCost, outSlope = ch.slope;
  const sr = hy.ranges, rCount = sr.count, rLo = sr.lo, rHi = sr.hi, rStart = sr.start, useRanges = allowStable && sr.any;
  const params = chainParams;
  params[1] = sc.tolerance; params[2] = band; params[3] = lambda;
  const floorKey = protectedFloorKey(band, lambda), ceilKey = upgradeCeilKey(band, lambda);
  let m = hy.items, stable = hy.stableObjects, ln = lst.count;
  let base = acc[0], protCost = acc[1], settledCost = acc[3];
  // The last stable range hit and its two costs: neighbours in a cluster mostly share the row and
  // the range (any range holding w gives the same start: ranges meet only at points both proved).
  let lastRow = -1, lastHit = 0, lastC0 = 0, lastProt = 0;
  for (let k = from; k < to; k++) {
    const c = clusters[k], u = upref[c], a = startA[c], e = endA[c];
    ustable[c] = 255; listedA[c] = 0;
    if (u === 255 && chainsA[c] !== 1) { base += prefCost[c]; continue; } // every object at its preferred level
    const ks = ksettledA[c];
    if (ks === 1 && !rerun) { listedA[c] = 1; continue; } // settled by the kernel (its totals: addKernelSettled)
    let classified = false; // (cv.klass holds this cluster's classes)
    if (u !== 255) {
      const p0 = profile[c], floor = floorA[p0];
      if (u >= floor) { base += live[c] * costs[p0 * stride + u]; continue; } // no items: every object keeps u
      if (useRanges) {
        let L = 255;
        for (let s = a; s < e; s++) if (!(flagsS[s] & 2)) { L = levelsS[s]; break; }
        if (L !== 255 && L >= u && L <= floor) {
          classify(ci, cv, c); classified = true; // the per-view classes for clusterInterval (overwritten by later clusters in pass A)
          if (clusterInterval(st, ci, cv, c, 1) === 1) {
            const scr = cv.scr, wLo = scr[0] < vmax ? scr[0] : vmax, wHi = scr[1] < vmax ? scr[1] : vmax;
            const row = (p0 * stride + u) * stride + L;
            let hit = -1;
            for (let r = row * STABLE_MAX_RANGES, end = r + rCount[row]; r < end; r++) {
              if (wLo >= rLo[r] && wHi <= rHi[r]) { hit = r; break; }
            }
            if (hit >= 0) {
              let same = 1;
              for (let s = a; s < e; s++) if (!(flagsS[s] & 2) && levelsS[s] !== L) { same = 0; break; }
              if (same === 1) {
                const n = live[c], c0 = costs[p0 * stride + rStart[hit]];
                base += n * c0; protCost += n * (costs[p0 * stride + L] - c0);
                stable += n; ustable[c] = L;
                continue;
              }
            }
          }
        }
      }
    }
    // Projected diameters in px: pass A left this frame's metric in workS — pixels as they are,
    // screen heights of one view × its viewport height (the pixels kernel's own operations) —
    // else the pixels kernel runs.
    const pc = profile[c], mc = pc === 0xffff ? -1 : metricCode[pc];
    const reuse = hy.skippedA[c] === 0 && (mc === 1 || (mc === 2 && singleView));
    if (!reuse) clusterMetric(st, ci, cv, c, 1, false, classified);
    const scale = reuse && mc === 2 ? vh : 1;
    // Finalize's work for this cluster done here where the final level is known now (see `FinalizeList`).
    const listing = u === 255 && ulevel[c] === 255;
    listedA[c] = listing ? 1 : 0;
    // (per object only the arrays a stable object needs: its id and, in a cluster of one profile,
    // its profile are read where a chain is built — each array a cluster touches costs cold lines)
    for (let s = a; s < e; s++) {
      if (flagsS[s] & 2) continue;
      kindS[s] = 0;
      const f = u !== 255 ? 0 : fixed[s];
      if (f === 2) { if (listing && levelsS[s] !== 255) list[ln++] = s; continue; }
      const p = pc !== 0xffff ? pc : profS[s];
      const raw = (workS[s] * scale) * bias;
      let w = raw > vmax ? vmax : raw;
      if (!(w >= 0)) w = 0; // culled in every view but drawn because culling is off
      const pref = u !== 255 ? u : rerun && ks === 0 ? preferred[s] : next[s]; // (a settled cluster's `next` is untouched)
      preferred[s] = pref;
      if (f === 1 || pref >= floorA[p]) {
        const cost = costs[p * stride + pref];
        base += cost;
        if (listing) {
          if (pref !== levelsS[s]) list[ln++] = s;
          else { listCounts[pref]++; settledCost += cost; }
        }
        continue;
      }
      const floor = floorA[p], prev = levelsS[s];
      if (useRanges && prev >= pref && prev <= floor) {
        const row = (p * stride + pref) * stride + prev;
        let hit = -1;
        if (row === lastRow && w >= rLo[lastHit] && w <= rHi[lastHit]) hit = lastHit;
        else {
          for (let r = row * STABLE_MAX_RANGES, end = r + rCount[row]; r < end; r++) {
            if (w >= rLo[r] && w <= rHi[r]) { hit = r; break; }
          }
          if (hit >= 0) {
            lastRow = row; lastHit = hit;
            lastC0 = costs[p * stride + rStart[hit]]; lastProt = costs[p * stride + prev] - lastC0;
          }
        }
        if (hit >= 0) {
          base += lastC0; protCost += lastProt;
          kindS[s] = 3; stable++;
          if (listing) {
            if (blendS[s] !== 0 && prev !== pref) list[ln++] = s; // (finalize clears it, or the rerun keeps it)
            else { listCounts[prev]++; settledCost += costs[p * stride + prev]; }
          }
          continue;
        }
      }
      params[0] = w;
      if (listing) list[ln++] = s;
      const packed = buildObjectChain(costs, errors, p * stride, floor, pref, prev, true, params, outLevel, outCost, outSlope, s * cs); // (stored by slot: sequential; the solver finds it through chainOf)
      const start = packed & 255, steps = packed >>> 8, i = slotId[s];
      next[s] = start;
      base += costs[p * stride + start];
      chainOf[i] = s * cs;
      m = pushChainItems(keys, items, m, outLevel, outSlope, s * cs, steps, prev, floorKey, ceilKey, i, shift);
    }
  }
  hy.items = m; hy.stableObjects = stable; lst.count = ln;
  acc[0] = base; acc[1] = protCost; acc[3] = settledCost;
}
