/**
 * The budget policy over the spatial clusters without building the chains of stable objects: one
 * pass over the visible clusters' objects computes the projected diameters, classifies each object
 * (exactly as classifyList; frames with `minFramesBetweenChanges` take the full path, whose hold
 * rule reads last frame's sizes), writes `sizes` and clears blend, and for an adjustable object whose
 * diameter lies in a stable range of its (profile, previous level) (budgetStable.ts) adds its
 * base cost `cost(s0)` and its protected items' cost `cost(L) − cost(s0)` instead of building
 * its chain; every other adjustable object gets its chain and items as in
 * collectScreenSpaceItemsList. A whole cluster stable in the single view, which it wholly contains
 * (the eye outside the cluster's sphere), needs no diameter at all: its `sizes` values are owed and
 * computed when observed (owedSizes.ts).
 *
 * Why the result is the per-object one: the full item list is the computed items plus the stable
 * objects' protected steps. Protected items come first in the solver's order ("key descending,
 * then item"), so when all of them fit (`Σ protected ≤ capacity`), the bought prefix is all
 * protected items, then the same regular prefix as with the reduced list and the capacity less
 * the stable objects' protected cost; the stable objects end at their previous level. When the
 * budget cuts the protected tier (it tightens: objects enter close to the camera), the first item
 * left out is a computed protected one; if its key is below every stable step's (the frame's
 * stable floor, raised after such cuts: budgetStable.ts `setStableFloor`), every stable step still comes before it and the bought
 * prefix is again the reduced one plus every stable step. Otherwise (or capacity < 0, or the base
 * cost over the budget) the frame is redone (clusterDrivers.ts): first with the stable floor at
 * its highest, `(1 − band / 4) λ`, then, if that fails too, without stable ranges. Each pass
 * recomputes the same `sizes` and classification. The price (largest raw key left out) is the same: the stable steps
 * are all bought. Both lists put the protected tier at the same offset (a bound from the frame's
 * profiles, not their largest key), so their keys round alike and keep one order; a protected key
 * in the price is read back from its chain.
 *
 * With the WebAssembly kernels, a cluster of one profile without forced objects is classified by
 * the fused kernel's module (budgetKernel.ts): the stable objects and those already hidden counted
 * there, this pass's loop runs over the objects it lists.
 *
 * Contributor notes:
 * - Costs are summed in another order than the reference: integer costs sum exactly; other costs
 *   may differ in the last bits (as for the clustered thresholds path).
 * - The per-object body mirrors classifyList and collectScreenSpaceItemsList (same literals, same
 *   operations per object), and wasm/budgetLanes.part.wat its stable case: change them together
 *   (test/batch/budgetIncremental.test.ts, test/batch/clusterPolicies.test.ts compare with
 *   `clusters: false` frame by frame).
 * - Literals in loops: flag bits 1 hidden, 2 removed; 255 hidden level / no forced level; kinds
 *   of the listed objects 0 chain built, 1 fixed, 2 not drawn (stable objects are counted, not listed).
 *
 * @module
 */
import { buildObjectChain } from '../../policies/screenSpaceError.js';
import { selectAffordablePrefix } from '../../policies/budget.js';
import type { ClusterIndex } from '../spatial/clusters.js';
import type { ClusterViews } from '../spatial/clusterViews.js';
import { classify, clusterInterval, clusterMetric, eyeOutsideCluster } from './clusterPass.js';
import type { FrameState } from '../core/frameState.js';
import { VB_EYE, VB_PERSPECTIVE, VB_PIXEL_SCALE, VB_WINDOW_HEIGHT } from '../core/layout.js';
import { applyScreenSpaceUpgrades, protectedCut, type ScreenSpaceScratch, setTierOffset, updatePrice } from './screenSpacePasses.js';
import { IncrementalState, STABLE_MAX_RANGES } from './budgetStable.js';
import { clusterStateGetter } from '../spatial/clusterState.js';
import { oweCluster } from '../outputs/owedSizes.js';
import { addBudgetStable, BUDGET_KERNEL_LEVELS, keptHidden, LISTED, loadBudgetKernel } from './budgetKernel.js';
import { KERNEL_RANGES } from './fusedCollect.js';
import { protectedFloorKey, pushChainItems, upgradeCeilKey } from './chainItems.js';

/** Per-set state of the incremental budget path and its scratch. */
export class BudgetIncremental extends IncrementalState {
  // `kindS`: per slot kind (see the notes); `acc`: base cost, stable objects' protected cost,
  // [2] unused, [3] the minimum cost before the pass, [4] the frame's budget.
  /** Per slot: the fixed level (see the notes). */
  lvS: Uint8Array = new Uint8Array(0);

  /** Per cluster: the previous level every live object keeps (the whole cluster stable), or 255. */
  uniform: Uint8Array = new Uint8Array(0);
  /**
   * Per cluster: the frame it was last whole-stable, and the last frame this path completed. A
   * cluster whole-stable in the previous frame, completed, and not edited since (`ci.edited`) has
   * every live object at `uniform[c]`, shown, blend 0: its objects need no check.
   */
  stableFrame: Uint32Array = new Uint32Array(0);
  completedFrame = -1;
  /** The profile whose rows the budget kernel holds this frame (−1: none; budgetKernel.ts). */
  kernelProfile = -1;
  /** The stable objects the kernel classified: this pass, and summed over solved frames as `stableTotal` (tests: not vacuous). */
  kernelObjects = 0;
  kernelStable = 0;
  /**
   * What the feed leaves finalize to do: the slots of objects outside a stable range (chain built,
   * fixed, not drawn), in cluster and slot order — `list[0 … listCount)` — and the stable objects,
   * which keep their displayed level, counted per level with their cost.
   */
  list: Uint32Array = new Uint32Array(0);
  listCount = 0;
  stableCounts: Float64Array = new Float64Array(0);
  stableCost = 0.5; // (0.5: a double field for V8; reset every feed)

  ensure(slots: number, clusters: number, levels: number): void {
    if (this.kindS.length < slots) { this.kindS = new Uint8Array(slots); this.lvS = new Uint8Array(slots); this.list = new Uint32Array(slots); }
    if (this.stableCounts.length < levels) this.stableCounts = new Float64Array(levels);
    if (this.uniform.length < clusters) {
      const u = new Uint8Array(clusters), f = new Uint32Array(clusters);
      u.set(this.uniform); f.set(this.stableFrame);
      this.uniform = u; this.stableFrame = f;
    }
  }
}

/** The {@link BudgetIncremental} of a set's cluster index (created on its first budget frame). */
export const budgetStateOf: (ci: ClusterIndex) => BudgetIncremental = clusterStateGetter(() => new BudgetIncremental());

const chainParams = new Float64Array(4);
/** The stable objects' sums of one kernel call (budgetKernel.ts addBudgetStable). */
const kernelAcc = new Float64Array(4);
const noKernel = new Int32Array(0);

/**
 * Clusters `[from, to)`: culled ones (culling on) to `ci.culledList`; for the others the pass of
 * the module comment. Visible clusters go to `ci.visibleClusters`; items to `st.keys`/`st.items`.
 */
export function budgetFeedChunk(st: FrameState, ci: ClusterIndex, cv: ClusterViews, sc: ScreenSpaceScratch, bi: BudgetIncremental,
  shift: number, from: number, to: number): void {
  const live = ci.live, bounds = ci.bounds, culledList = ci.culledList, flagsS = ci.flagsS, forcedS = ci.forcedS;
  const levelsS = ci.levelsS, blendS = ci.blendS, slotId = ci.slotId, profS = ci.profS, workS = ci.workS;
  const state = ci.state, startA = ci.start, endA = ci.end, clusters = ci.visibleClusters;
  const profile = ci.profile, forcedCount = ci.forcedCount, uniform = bi.uniform, sp = ci.sp;
  const block = cv.block, klass = cv.klass, singleView = cv.count === 1;
  const ex = block[VB_EYE], ey = block[VB_EYE + 1], ez = block[VB_EYE + 2], wh = block[VB_WINDOW_HEIGHT], scale = block[VB_PIXEL_SCALE];
  const bySlot = ci.sizesInSlots, sizes = bySlot ? ci.sizesS : st.sizes; // (clusters.ts `sizesS`)
  const blend = st.blend, next = st.next, chainOf = st.chainOf;
  const keys = st.keys, items = st.items, costs = st.costs, errors = st.errors;
  const lc = st.levelCount, loA = st.lo, hiA = st.hi, stride = st.stride;
  const bias = st.bias;
  const ch = sc.chains, cs = ch.stride, vmax = sc.viewportMax, band = sc.band, lambda = sc.lambda;
  const outLevel = ch.level, outCost = ch.deltaCost, outSlope = ch.slope;
  const kindS = bi.kindS, lvS = bi.lvS, acc = bi.acc, list = bi.list, stableCounts = bi.stableCounts;
  const sr = bi.ranges, rCount = sr.count, rLo = sr.lo, rHi = sr.hi, rStart = sr.start, useRanges = sr.any;
  const params = chainParams;
  params[1] = sc.tolerance; params[2] = band; params[3] = lambda;
  const floorKey = protectedFloorKey(band, lambda), ceilKey = upgradeCeilKey(band, lambda);
  let q = ci.culledCount, vc = ci.visibleClusterCount, m = bi.items, stable = bi.stableObjects;
  let base = acc[0], protCost = acc[1], nl = bi.listCount, stableCost = bi.stableCost;
  // The last stable range hit and its two costs (as hybridCollectChunk: neighbours share them).
  let lastRow = -1, lastHit = 0, lastC0 = 0, lastProt = 0, lastCost = 0;
  // The last profile met and its finest and coarsest levels, and its minimum cost.
  let lastP = -1, lastLo = 0, lastHi = 0, lastMin = 0;
  const owed = ci.owed, fused = ci.wasm === null ? null : ci.wasm.fused, kernelOut = fused === null ? noKernel : fused.i32;
  const stableFrame = bi.stableFrame, edited = ci.edited, frame = st.frame, prevFrame = frame - 1, prevDone = bi.completedFrame === prevFrame;
  let hidden = 0, invalid = 0, minimumCost = 0, evaluated = 0, skipped = 0;
  for (let c = from; c < to; c++) {
    if (live[c] === 0) continue;
    const R = bounds[c * 6 + 3];
    if (R === R && cv.cull && classify(ci, cv, c) === 1) { culledList[q++] = c; continue; }
    state[c] = 254;
    clusters[vc++] = c;
    ci.markSizes(c);
    const kept = prevDone && stableFrame[c] === prevFrame && edited[c] === 0 ? uniform[c] : 255; // (see stableFrame)
    uniform[c] = 255;
    let measured = false, classified = R === R && cv.cull; // (cv.klass holds this cluster's classes)
    const p0 = profile[c], a0 = startA[c], e0 = endA[c];
    if (useRanges && R === R && forcedCount[c] === 0 && p0 !== 0xffff) {
      // Whole cluster stable: one previous level L for every live object and the cluster's size
      // interval (clusterInterval: conservative, after bias) inside one stable range of (p0, L).
      let L = kept;
      if (L === 255) for (let s = a0; s < e0; s++) if (!(flagsS[s] & 2)) { L = levelsS[s]; break; }
      if (!cv.cull) classify(ci, cv, c); // clusterInterval reads the per-view classes
      classified = true;
      if (L !== 255 && L >= loA[p0] && L <= hiA[p0] && clusterInterval(st, ci, cv, c, 1) === 1) {
        const scr = cv.scr, wLo = scr[0] < vmax ? scr[0] : vmax, wHi = scr[1] < vmax ? scr[1] : vmax;
        const row = p0 * stride + L;
        let hit = -1;
        for (let r = row * STABLE_MAX_RANGES, end = r + rCount[row]; r < end; r++) {
          if (wLo >= rLo[r] && wHi <= rHi[r]) { hit = r; break; }
        }
        if (hit >= 0) {
          // One perspective view wholly containing the cluster: the kernel's value without its
          // plane tests (all pass), same operations (metricKernels.ts heightPerspectiveKernel).
          const inline = singleView && klass[0] === 2 && block[VB_PERSPECTIVE] !== 0;
          // Eye outside the cluster's sphere (so outside every object's, d > r) and nothing else
          // to check per object but flags and levels: the sizes are owed (owedSizes.ts).
          if (inline) {
            if (eyeOutsideCluster(ci, cv, c)) {
              let n = 0, clean = 1;
              if (kept !== 255) n = live[c]; // (every live object at L, shown, blend 0: checked when it became so)
              else {
                for (let s = a0; s < e0; s++) {
                  const fl = flagsS[s];
                  if (fl & 2) continue;
                  if ((fl & 1) !== 0 || levelsS[s] !== L) { clean = 0; break; }
                  if (blendS[s] !== 0) { blendS[s] = 0; blend[slotId[s]] = 0; }
                  n++;
                }
              }
              if (clean === 1) {
                oweCluster(owed, c); stableFrame[c] = frame; edited[c] = 0;
                const c0 = costs[p0 * stride + rStart[hit]];
                base += n * c0; protCost += n * (costs[row] - c0); minimumCost += n * costs[p0 * stride + hiA[p0]];
                stable += n; skipped++;
                uniform[c] = L;
                continue;
              }
            }
          }
          if (!inline) { clusterMetric(st, ci, cv, c, 1, false, true); measured = true; }
          let n = 0, clean = 1;
          for (let s = a0; s < e0; s++) {
            const fl = flagsS[s];
            if (fl & 2) continue;
            if ((fl & 1) !== 0 || levelsS[s] !== L) { clean = 0; break; }
            let x: number;
            if (inline) {
              const o = s << 2, r = sp[o + 3];
              const dx = sp[o] - ex, dy = sp[o + 1] - ey, dz = sp[o + 2] - ez;
              const d = Math.sqrt(dx * dx + dy * dy + dz * dz);
              if (d <= r) { clean = 0; break; }
              x = ((2 * r) / (d * wh)) * scale;
            } else {
              x = workS[s];
            }
            const i = slotId[s], raw = x * bias;
            sizes[bySlot ? s : i] = raw > vmax ? vmax : raw;
            if (blendS[s] !== 0) { blendS[s] = 0; blend[i] = 0; }
            n++;
          }
          if (clean === 1) {
            const c0 = costs[p0 * stride + rStart[hit]];
            base += n * c0; protCost += n * (costs[row] - c0); minimumCost += n * costs[p0 * stride + hiA[p0]];
            stable += n; evaluated += n;
            uniform[c] = L; stableFrame[c] = frame; edited[c] = 0;
            continue;
          }
        }
      }
    }
    if (!measured) clusterMetric(st, ci, cv, c, 1, false, classified);
    // The kernel classifies the cluster's objects where it can (budgetKernel.ts): the stable
    // ones counted there, the loop below runs over the others, which it lists.
    let listed = -1;
    if (fused !== null && bySlot && useRanges && p0 !== 0xffff && forcedCount[c] === 0 && hiA[p0] < BUDGET_KERNEL_LEVELS) {
      if (bi.kernelProfile !== p0) { loadBudgetKernel(st, fused, p0, sr, vmax); bi.kernelProfile = p0; cv.fusedProfile = -1; }
      listed = fused.budget(ci.workOffset, a0, e0);
      const ka = kernelAcc;
      ka[0] = 0; ka[1] = 0; ka[2] = 0; ka[3] = 0;
      const n = addBudgetStable(st, fused, p0, ka, stableCounts), kh = keptHidden(fused);
      base += ka[0]; protCost += ka[1]; stableCost += ka[2]; minimumCost += ka[3];
      stable += n; evaluated += n + kh; hidden += kh; bi.kernelObjects += n;
    }
    for (let k = 0, n = listed >= 0 ? listed : e0 - a0; k < n; k++) {
      const s = listed >= 0 ? kernelOut[LISTED + k] : a0 + k;
      const fl = flagsS[s];
      if (fl & 2) continue;
      evaluated++;
      const i = slotId[s];
      const x = workS[s];
      if (blendS[s] !== 0) { blendS[s] = 0; blend[i] = 0; }
      if ((fl & 1) !== 0 || x === -1) { kindS[s] = 2; hidden++; sizes[bySlot ? s : i] = Number.NaN; list[nl++] = s; continue; }
      const p = profS[s];
      const raw = x * bias; // NaN for invalid spheres: reported as such in `sizes`
      const size = raw > vmax ? vmax : raw;
      if (x !== x) {
        const level = hiA[p];
        kindS[s] = 1; lvS[s] = level; invalid++; list[nl++] = s;
        const cost = costs[p * stride + level];
        minimumCost += cost; base += cost; sizes[bySlot ? s : i] = size;
        continue;
      }
      const fo = forcedS[s];
      if (fo !== 255) {
        const level = fo < lc[p] ? fo : lc[p] - 1;
        kindS[s] = 1; lvS[s] = level; list[nl++] = s;
        const cost = costs[p * stride + level];
        minimumCost += cost; base += cost; sizes[bySlot ? s : i] = size;
        continue;
      }
      const prev = levelsS[s];
      // No minFramesBetweenChanges hold here: such frames take the full path (clusterDrivers.ts).
      if (p !== lastP) { lastP = p; lastLo = loA[p]; lastHi = hiA[p]; lastMin = costs[p * stride + lastHi]; }
      minimumCost += lastMin;
      sizes[bySlot ? s : i] = size;
      let w = size;
      if (!(w >= 0)) w = 0; // culled in every view but drawn because culling is off
      // (255, hidden last frame: past every coarsest level; listed by the kernel, which tested the row's ranges when it holds at most KERNEL_RANGES: none holds w)
      if (useRanges && prev >= lastLo && prev <= lastHi && !(listed >= 0 && rCount[p * stride + prev] <= KERNEL_RANGES)) {
        const row = p * stride + prev;
        let hit = -1;
        if (row === lastRow && w >= rLo[lastHit] && w <= rHi[lastHit]) hit = lastHit;
        else {
          for (let r = row * STABLE_MAX_RANGES, end = r + rCount[row]; r < end; r++) {
            if (w >= rLo[r] && w <= rHi[r]) { hit = r; break; }
          }
          if (hit >= 0) {
            lastRow = row; lastHit = hit;
            lastCost = costs[p * stride + prev]; lastC0 = costs[p * stride + rStart[hit]]; lastProt = lastCost - lastC0;
          }
        }
        if (hit >= 0) {
          base += lastC0; protCost += lastProt;
          stable++; stableCounts[prev]++; stableCost += lastCost;
          continue;
        }
      }
      params[0] = w;
      const packed = buildObjectChain(costs, errors, p * stride, hiA[p], loA[p], prev, false, params, outLevel, outCost, outSlope, s * cs); // (stored by slot: sequential; the solver finds it through chainOf)
      const start = packed & 255, steps = packed >>> 8;
      next[i] = start;
      base += costs[p * stride + start];
      chainOf[i] = s * cs;
      kindS[s] = 0; list[nl++] = s;
      m = pushChainItems(keys, items, m, outLevel, outSlope, s * cs, steps, prev, floorKey, ceilKey, i, shift);
    }
  }
  ci.culledCount = q; ci.visibleClusterCount = vc;
  bi.items = m; bi.stableObjects = stable; bi.listCount = nl; bi.stableCost = stableCost;
  acc[0] = base; acc[1] = protCost;
  st.hidden += hidden; st.invalid += invalid; st.minimumCost += minimumCost; st.objectsEvaluated += evaluated;
  st.clustersSkipped += skipped;
}

/**
 * After the chunks: the protected tier (as finishItems in screenSpacePasses.ts), the reduced solve,
 * upgrades and price. Returns 0 when the frame must be redone by the full path (nothing written
 * but `sizes`, blend and the classification scratch), 1 when solved.
 */
export function budgetSolve(st: FrameState, sc: ScreenSpaceScratch, bi: BudgetIncremental, shift: number): number {
  st.baseCost = bi.acc[0];
  return reducedSolve(st, sc, bi.acc, bi.items, bi.stableObjects, shift);
}

/**
 * The solve shared by the incremental budget and hybrid paths: `acc` = [cost before upgrades,
 * stable objects' protected cost, -, -, budget], `m` items (the protected ones with negative keys:
 * chainItems.ts), `stableObjects` objects without a chain. Returns 1 (solved), 2 (solved, the cut inside the
 * protected tier but below every stable step) or 0 when the stable objects' steps may not all be
 * bought (or nothing can be bought while stable objects rely on their protected steps): the
 * caller redoes the frame with every chain built.
 */
export function reducedSolve(st: FrameState, sc: ScreenSpaceScratch, acc: Float64Array, m: number, stableObjects: number, shift: number, idSlot: Uint32Array | null = null): number {
  const keys = st.keys, budget = acc[4];
  sc.cutAt = sc.lambda; sc.cutKey = -1; // (−1 until this solve cuts the protected tier)
  setTierOffset(st, sc);
  const offset = sc.offset;
  // (a protected key is negative only where the tier exists: floorKey > 0 needs band and price, as the offset does)
  const protectedItems = offset !== Number.POSITIVE_INFINITY ? tierKeys(keys, m, offset) : 0;
  const base = acc[0];
  const withStable = stableObjects > 0;
  if (!(base <= budget)) {
    if (withStable) return 0; // nothing is bought: stable objects would stay at their chain start
    sc.noPrice(); sc.regime.boughtAll = false;
    return 1;
  }
  const capacity = withStable ? budget - base - acc[1] : budget - base;
  const bought = selectAffordablePrefix(keys, st.items, m, capacity, st.chainOf, sc.chains.deltaCost, shift);
  let solved = 1;
  if (withStable && bought < protectedItems) solved = capacity >= 0 && cutBelowStable(st, sc, bought, m, shift) ? 2 : 0;
  else if (withStable && !(capacity >= 0)) solved = 0;
  if (solved === 0) return 0;
  applyScreenSpaceUpgrades(st, sc, bought, shift, idSlot);
  updatePrice(st, sc, bought, m, shift);
  return solved;
}

/**
 * Keys `[0, m)`: each protected one (negative) becomes `offset − key`; returns how many. A function
 * of its own, so that reducedSolve has no loop: V8 compiled one for on-stack replacement while an
 * early frame ran it, before any stable object reached the branches after it, and entered that code
 * again on every later frame, each time leaving it at the first of those branches (a deoptimization a
 * frame, the rest of the solve in the interpreter).
 */
function tierKeys(keys: Float64Array, m: number, offset: number): number {
  let n = 0;
  for (let k = 0; k < m; k++) { const v = keys[k]; if (v < 0) { keys[k] = offset - v; n++; } }
  return n;
}

/**
 * Whether the first item left out — a protected one: the solver's order puts the tier first — has
 * a key below the frame's stable floor (`sc.stableFloor`), which every stable object's steps reach
 * (budgetStable.ts), also as tiered keys `offset + key` (rounded: the full list rounds them the same
 * way, screenSpacePasses.ts `setTierOffset`): then every stable step comes before it in the full
 * list, whose bought prefix is the reduced one plus every stable step.
 */
function cutBelowStable(st: FrameState, sc: ScreenSpaceScratch, bought: number, m: number, shift: number): boolean {
  protectedCut(st, sc, bought, m, shift);
  const offset = sc.offset;
  if (sc.cutKey >= 0) sc.cutAt = sc.cutKey; // (noted by the drivers: budgetStable.ts IncrementalState.noteCut)
  return sc.cutKey >= 0 && offset + sc.cutKey < offset + sc.stableFloor;
}

/**
 * Levels by kind (`levelsS` kept in step): the whole-stable clusters' histogram and cost per
 * cluster, the stable objects' from the feed's counts (each keeps its displayed level: no change),
 * the listed objects one by one, in cluster and slot order as the changed list wants.
 */
export function budgetFinalize(st: FrameState, ci: ClusterIndex, bi: BudgetIncremental): void {
  const clusters = ci.visibleClusters, slotId = ci.slotId, levelsS = ci.levelsS, profS = ci.profS, kindS = bi.kindS, lvS = bi.lvS;
  const uniform = bi.uniform, live = ci.live, profile = ci.profile, list = bi.list, stableCounts = bi.stableCounts;
  const levels = st.levels, next = st.next, changed = st.changed, lastChange = st.lastChange;
  const costs = st.costs, stride = st.stride, levelCounts = st.levelCounts, frame = st.frame;
  let changedCount = 0, totalCost = bi.stableCost;
  for (let k = 0; k < ci.visibleClusterCount; k++) {
    const c = clusters[k], u = uniform[c];
    if (u !== 255) { // whole cluster stable: every live object keeps level u
      levelCounts[u] += live[c];
      totalCost += live[c] * costs[profile[c] * stride + u];
    }
  }
  for (let l = 0; l < stride; l++) levelCounts[l] += stableCounts[l];
  for (let k = 0, n = bi.listCount; k < n; k++) {
    const s = list[k], kind = kindS[s], old = levelsS[s];
    const level = kind === 2 ? 255 : kind === 1 ? lvS[s] : next[slotId[s]];
    if (level !== old) {
      const id = slotId[s];
      changed[changedCount++] = id; lastChange[id] = frame; levels[id] = level; levelsS[s] = level;
    }
    if (level !== 255) {
      levelCounts[level]++;
      totalCost += costs[profS[s] * stride + level];
    }
  }
  st.changedCount = changedCount;
  st.totalCost = totalCost;
}
