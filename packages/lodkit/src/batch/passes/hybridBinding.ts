/**
 * Hybrid's binding frames on the budget policy's classification (issue 28: a binding hybrid frame
 * cost 1.3–3 × a thresholds frame, pass A's thresholds decision for every object plus the
 * collection). While the budget binds, most objects end a frame where they were: walking back
 * through the 100k tree field ≈ 13 of ≈ 29,000 visible objects change level a frame, and ≈ 85 % of
 * them are neither held by the band nor inside a blend window. Their final level is known from the
 * diameter alone: hybridLevelRows.ts gives, per (profile, displayed level), the diameters at which an
 * object prefers a level `P` freely (blend 0, or inside a window rounding to its level) and ends at
 * its displayed level when every stable step is bought, or is held there by the band. So one pass
 * over the visible clusters
 *
 * 1. computes the metric (as pass A) and runs the budget kernel in its hybrid mode over those rows
 *    (wasm/budgetLanes.part.wat, budgetKernel.ts): a stable object gets its size, blend 0 (inside a
 *    blend window the rule's blend), `next` = P and `fixed` = 0 and is counted by displayed and by
 *    preferred level; one held by the band keeps its level and size (`fixed` 1, the blend from its
 *    previous size); with the fused kernel's profile loaded (mode 2) its scalar path (`$lane`)
 *    decides most of the others; the rest are listed;
 * 2. decides the listed objects with the thresholds rule (the `next` kernels, as pass A does) — a
 *    cluster the kernel does not take (more than five levels, forced objects, several profiles)
 *    entirely;
 *
 * after which every visible object has its preferred level in `next` and its mark in `fixed`, as
 * after pass A, and the frame knows the preferred cost and the minimum exactly. Within budget or
 * below the minimum the frame ends as clusterDrivers.ts `clusteredHybrid` ends it (its finalizers
 * read `next` and `fixed` per object); over budget {@link bindingCollect} gives the listed objects
 * their chains or stable ranges (hybridCollectChunk's per-object rule), the solve runs with the
 * kernel's stable objects' protected cost taken off the capacity, and {@link bindingFinalize} writes
 * the listed objects (the stable ones keep their level: nothing to write).
 *
 * Same results as `clusters: false` frame by frame (test/batch/hybridIncremental.test.ts,
 * clusterPolicies.test.ts): the rows' soundness (test/batch/hybridLevelRows.test.ts) and the
 * reduced solve's proof (budgetIncremental.ts) carry over; a failed solve collects every object
 * again with its chain (the drivers).
 *
 * Contributor notes: the per-object body of {@link bindingCollect} mirrors hybridCollectChunk and
 * collectScreenSpaceItemsList (change them together); literals in loops as there (flag bits 1 hidden,
 * 2 removed; 255 hidden level; marks 0 adjustable, 1 fixed, 2 not drawn; kind 3 stable).
 *
 * @module
 */
import { buildObjectChain } from '../../policies/screenSpaceError.js';
import { STATE_COARSENED, type ClusterIndex } from '../spatial/clusters.js';
import type { ClusterViews } from '../spatial/clusterViews.js';
import { classify, clusterInterval, clusterMetric, uniformLevel, widenByBand } from './clusterPass.js';
import type { FrameState } from '../core/frameState.js';
import { I32_DECIDED, I32_DECIDED_SLOTS, I32_HELD_COUNTS, I32_STABLE, I32_STABLE_PREV, I32_STABLE_START, I32_WINDOWED, VB_PIXEL_SCALE } from '../core/layout.js';
import { loadFusedProfile } from './fusedPass.js';
import { decideDescendingNext } from '../kernels/nextKernels.js';
import type { ScreenSpaceScratch } from './screenSpacePasses.js';
import { STABLE_MAX_RANGES, StableRanges } from './budgetStable.js';
import { LevelPieces } from './hybridLevelRows.js';
import { clusterStateGetter } from '../spatial/clusterState.js';
import { BUDGET_KERNEL_LEVELS, keptHidden, LISTED, loadBudgetKernel } from './budgetKernel.js';
import type { HybridIncremental } from './hybridIncremental.js';
import { finalizeSlots } from './hybridFinalize.js';
import { protectedFloorKey, pushChainItems, upgradeCeilKey } from './chainItems.js';

/** Per-set state of hybrid's binding frames. */
export class HybridBinding {
  /** This frame's rows by (profile, displayed level) (hybridLevelRows.ts), and their pieces kept across frames. */
  readonly rows = new StableRanges();
  readonly pieces = new LevelPieces();
  /** The last hybrid frame was solved over budget (this one tries the binding pass). */
  binding = false;
  /** Off: never this pass (the test seam `setHybridBindingPass`, engineSeam.ts). */
  enabled = true;
  /** The profile whose rows the kernel holds this frame (−1: none). */
  kernelProfile = -1;
  /** The listed slots of this frame, in cluster and slot order: `list[0 … listCount)`. */
  list: Int32Array = new Int32Array(0);
  listCount = 0;
  /** The kernel's stable objects by displayed level (they keep it), and [0] their preferred cost, [1] base cost, [2] displayed cost. */
  stableCounts: Float64Array = new Float64Array(0);
  readonly sums = new Float64Array(3);
  stable = 0;
  /** Frames this pass ran, the kernel's stable objects summed over them, frames whose solve failed (tests: not vacuous). */
  frames = 0;
  stableTotal = 0;
  fallbacks = 0;
  /** Objects outside the rows the kernel's `$lane` decided, and held (mode 2), summed (tests: not vacuous). */
  laneDecided = 0;
  laneHeld = 0;
  /** Clusters taken whole (their state still their one preferred level, or coarsened whole), the coarsened ones, summed (tests: not vacuous). */
  skippedTotal = 0;
  coarsenedTotal = 0;
  /** The kernel's stable objects inside a blend window (they keep the rule's blend), summed (tests: not vacuous). */
  windowedTotal = 0;

  ensure(slots: number, levels: number): void {
    if (this.list.length < slots) this.list = new Int32Array(slots);
    if (this.stableCounts.length < levels) this.stableCounts = new Float64Array(levels);
  }
}

/** The {@link HybridBinding} of a set's cluster index (created on its first hybrid frame). */
export const hybridBindingOf: (ci: ClusterIndex) => HybridBinding = clusterStateGetter(() => new HybridBinding());

/**
 * Clusters `[from, to)`: culled ones to `ci.culledList`; for the others steps 1 and 2 of the module
 * comment. `code`: the frame's one screen metric (1 pixels, 2 screen height).
 */
export function bindingFeedChunk(st: FrameState, ci: ClusterIndex, cv: ClusterViews, hy: HybridIncremental, hb: HybridBinding, code: number,
  vmax: number, from: number, to: number): void {
  const live = ci.live, bounds = ci.bounds, culledList = ci.culledList, flagsS = ci.flagsS, state = ci.state, startA = ci.start, endA = ci.end;
  const clusters = ci.visibleClusters, profile = ci.profile, forcedCount = ci.forcedCount, hiA = st.hi, costs = st.costs, stride = st.stride, floorA = st.floor;
  const upref = hy.upref, chainsA = hy.chains, ulevel = hy.ulevel, skippedA = hy.skippedA, settledA = hy.kernel.settled, freeA = hy.free.flag, atFloorA = hy.free.atFloor;
  const fused = ci.wasm === null ? null : ci.wasm.fused, list = hb.list, counts = hb.stableCounts, sums = hb.sums, next = st.next;
  const scale = code === 2 ? cv.block[VB_PIXEL_SCALE] : 1;
  let q = ci.culledCount, vc = ci.visibleClusterCount, nl = hb.listCount, evaluated = 0, hidden = 0, stable = hb.stable, skipped = 0;
  st.code = code; st.filter = false;
  for (let c = from; c < to; c++) {
    if (live[c] === 0) continue;
    const R = bounds[c * 6 + 3], classified = R === R && cv.cull;
    if (classified && classify(ci, cv, c) === 1) { culledList[q++] = c; continue; }
    const prevState = state[c];
    state[c] = 254; clusters[vc++] = c;
    upref[c] = 255; chainsA[c] = 0; ulevel[c] = 255; skippedA[c] = 0; settledA[c] = 0; freeA[c] = 0; atFloorA[c] = 0;
    const p0 = profile[c], a0 = startA[c], e0 = endA[c];
    if (prevState < 253 && R === R && p0 !== 0xffff && forcedCount[c] === 0 && !cv.exactSizes && uniformAt(st, ci, cv, hy, c, p0, prevState, code, vmax) === 1) {
      // Every object at P = its state, decided freely with blend 0, and still so (hybridPrefChunk's
      // first shortcut; sizes kept, as there): at or past the floor it keeps P; finer, it keeps P when
      // its diameters lie in one stable range of (P, P) (hybridCollectChunk's whole-cluster case).
      const n = live[c], off = p0 * stride, P = prevState, x = n * costs[off + P];
      state[c] = P; upref[c] = P; skippedA[c] = 1;
      counts[P] += n; sums[0] += x; sums[2] += x;
      if (P >= floorA[p0]) sums[1] += x;
      else { sums[1] += n * costs[off + uniformStart[0]]; stable += n; }
      skipped++;
      continue;
    }
    if (prevState === STATE_COARSENED && R === R && p0 !== 0xffff && forcedCount[c] === 0 && !cv.exactSizes
      && coarsenedAt(st, ci, cv, hy, c, p0, code, vmax) === 1) {
      // Coarsened whole (every object at clevel with blend 0, each preferring cpref when its sizes
      // were written) and every value and both of its band's probes still prefer cpref, its diameters
      // in one stable range of (cpref, clevel): each keeps clevel (hybridPrefChunk's second shortcut
      // with hybridCollectChunk's whole-cluster case).
      const n = live[c], off = p0 * stride, P = hy.cpref[c], L = hy.clevel[c];
      state[c] = STATE_COARSENED; upref[c] = P; skippedA[c] = 1;
      counts[L] += n; sums[0] += n * costs[off + P]; sums[1] += n * costs[off + uniformStart[0]]; sums[2] += n * costs[off + L];
      stable += n; skipped++; hb.coarsenedTotal++;
      continue;
    }
    ci.markSizes(c);
    clusterMetric(st, ci, cv, c, code, false, classified);
    evaluated += live[c];
    if (fused !== null && p0 !== 0xffff && forcedCount[c] === 0 && hiA[p0] < BUDGET_KERNEL_LEVELS) {
      const lane = st.thresholdCount[p0] <= 4 && st.blendCount[p0] <= 4 && st.banded[p0] === 0;
      if (hb.kernelProfile !== p0) {
        if (lane) loadFusedProfile(st, fused, p0, code, true, true, false);
        loadBudgetKernel(st, fused, p0, hb.rows, vmax, scale, lane); hb.kernelProfile = p0; cv.fusedProfile = -1;
      }
      const listed = fused.budgetHybrid(ci.workOffset, a0, e0), qi = fused.i32, off = p0 * stride, floor = floorA[p0];
      if (listed > 0) decideDescendingNext(st, ci, LISTED, LISTED + listed, qi, 0);
      for (let k = 0; k < listed; k++) list[nl++] = qi[LISTED + k];
      hidden += keptHidden(fused);
      let pref = 0, base = 0, kept = 0;
      if (lane) {
        // decided by $lane: listed, their preferred cost here; held: each keeps its level (fixed)
        for (let k = 0, n = qi[I32_DECIDED]; k < n; k++) { const s = qi[I32_DECIDED_SLOTS + k]; list[nl++] = s; pref += costs[off + next[s]]; }
        hb.laneDecided += qi[I32_DECIDED];
        for (let l = 0; l <= hiA[p0]; l++) {
          const h = qi[I32_HELD_COUNTS + l];
          if (h !== 0) { const x = h * costs[off + l]; counts[l] += h; pref += x; base += x; kept += x; hb.laneHeld += h; }
        }
      }
      const n = qi[I32_STABLE];
      hb.windowedTotal += qi[I32_WINDOWED];
      let keptL = -1, prefP = -1;
      if (n > 0) {
        for (let l = 0; l <= hiA[p0]; l++) {
          const atL = qi[I32_STABLE_PREV + l], atP = qi[I32_STABLE_START + l];
          if (atL !== 0) { counts[l] += atL; kept += atL * costs[off + l]; }
          if (atP !== 0) { pref += atP * costs[off + l]; base += atP * costs[off + (l < floor ? floor : l)]; }
          if (atL === live[c]) keptL = l;
          if (atP === live[c]) prefP = l;
        }
        stable += n;
        // Every live object stable at one level L, preferring one level P: if the frame keeps them
        // there (bindingFinalize; the other endings set the state again) the thresholds path's state
        // L (P = L, each decided freely with blend 0), else coarsened whole (spatial/clusters.ts).
        if (keptL >= 0 && prefP >= 0 && qi[I32_WINDOWED] === 0) { // (a blend in a window: no cluster state)
          if (keptL === prefP) state[c] = keptL;
          else { state[c] = STATE_COARSENED; hy.clevel[c] = keptL; hy.cpref[c] = prefP; }
        }
      }
      sums[0] += pref; sums[1] += base; sums[2] += kept;
      continue;
    }
    decideDescendingNext(st, ci, a0, e0);
    for (let s = a0; s < e0; s++) if ((flagsS[s] & 2) === 0) list[nl++] = s;
  }
  ci.culledCount = q; ci.visibleClusterCount = vc; hb.listCount = nl; hb.stable = stable;
  st.objectsEvaluated += evaluated; st.hidden += hidden; st.clustersSkipped += skipped; hb.skippedTotal += skipped;
}

/**
 * 1 when cluster `c` (profile `p`, coarsened whole: every object at `hy.clevel[c]` with blend 0,
 * preferring `hy.cpref[c]` when its sizes were written) prefers cpref for every object and both band
 * probes — its size interval widened by the band maps to it (hybridPrefChunk's second shortcut) — and
 * its diameters lie in one stable range of hybrid's row (cpref, clevel) (its start into `uniformStart`).
 */
function coarsenedAt(st: FrameState, ci: ClusterIndex, cv: ClusterViews, hy: HybridIncremental, c: number, p: number, code: number,
  vmax: number): number {
  if (!cv.cull) classify(ci, cv, c);
  if (clusterInterval(st, ci, cv, c, code) !== 1) return 0;
  widenByBand(st, p, cv.scr);
  const P = hy.cpref[c], L = hy.clevel[c];
  if (uniformLevel(st, p, true, cv.scr) !== P || !(P < L && L <= st.floor[p])) return 0;
  return stableWhole(st, ci, cv, hy, c, p, P, L, vmax);
}

/** 1 when cluster `c`'s diameters lie in one stable range of hybrid's row (P, L) (its start into `uniformStart`). */
function stableWhole(st: FrameState, ci: ClusterIndex, cv: ClusterViews, hy: HybridIncremental, c: number, p: number, P: number, L: number,
  vmax: number): number {
  const sr = hy.ranges;
  if (!sr.any || clusterInterval(st, ci, cv, c, 1) !== 1) return 0;
  const scr = cv.scr, wLo = scr[0] < vmax ? scr[0] : vmax, wHi = scr[1] < vmax ? scr[1] : vmax;
  const row = (p * st.stride + P) * st.stride + L;
  for (let r = row * STABLE_MAX_RANGES, end = r + sr.count[row]; r < end; r++) {
    if (wLo >= sr.lo[r] && wHi <= sr.hi[r]) { uniformStart[0] = sr.start[r]; return 1; }
  }
  return 0;
}

/** The start level of the stable range {@link uniformAt} found (a finer P than the floor). */
const uniformStart = new Int32Array(1);

/**
 * 1 when cluster `c` (profile `p`, in state `P`: every object at P, decided freely with blend 0) still
 * prefers P for every object — its size interval maps to P without a threshold inside it
 * (clusterPass.ts `uniformLevel`) — and, for P finer than the floor, its diameters lie in one stable
 * range of hybrid's row (P, P) (its start into `uniformStart`).
 */
function uniformAt(st: FrameState, ci: ClusterIndex, cv: ClusterViews, hy: HybridIncremental, c: number, p: number, P: number, code: number,
  vmax: number): number {
  if (!cv.cull) classify(ci, cv, c); // (clusterInterval reads the per-view classes)
  if (clusterInterval(st, ci, cv, c, code) !== 1 || uniformLevel(st, p, true, cv.scr) !== P) return 0;
  if (P >= st.floor[p]) return 1;
  return stableWhole(st, ci, cv, hy, c, p, P, P, vmax);
}

/**
 * After the feed: the minimum cost with the quality floors (the kernel's stable objects: their base
 * cost; a listed object: its floor when adjustable and finer, else its preferred level).
 */
export function bindingMinimum(st: FrameState, ci: ClusterIndex, hb: HybridBinding): number {
  const list = hb.list, fixed = st.fixed, next = st.next, profS = ci.profS, costs = st.costs, stride = st.stride, floorA = st.floor;
  let cost = hb.sums[1];
  for (let k = 0, n = hb.listCount; k < n; k++) {
    const s = list[k], f = fixed[s];
    if (f === 2) continue;
    const p = profS[s], pref = next[s], m = floorA[p];
    cost += costs[p * stride + (f === 0 && pref < m ? m : pref)];
  }
  return cost;
}

const chainParams = new Float64Array(4);

/**
 * Over budget: the listed objects' items (hybridCollectChunk's per-object rule, with hybrid's
 * (preferred, displayed) stable ranges), into `hy.acc` [0] base cost, [1] stable objects' protected
 * cost — the kernel's stable objects' included — and `hy.items`, `hy.stableObjects`.
 */
export function bindingCollect(st: FrameState, ci: ClusterIndex, cv: ClusterViews, sc: ScreenSpaceScratch, hy: HybridIncremental, hb: HybridBinding,
  code: number, shift: number): void {
  const list = hb.list, slotId = ci.slotId, levelsS = ci.levelsS, profS = ci.profS, workS = ci.workS, kindS = hy.kindS;
  const fixed = st.fixed, next = st.next, preferred = st.preferred, chainOf = st.chainOf, keys = st.keys, items = st.items;
  const costs = st.costs, errors = st.errors, floorA = st.floor, stride = st.stride, bias = st.bias;
  const ch = sc.chains, cs = ch.stride, vmax = sc.viewportMax, band = sc.band, lambda = sc.lambda;
  const outLevel = ch.level, outCost = ch.deltaCost, outSlope = ch.slope;
  const sr = hy.ranges, rCount = sr.count, rLo = sr.lo, rHi = sr.hi, rStart = sr.start, useRanges = sr.any;
  const scale = code === 2 ? cv.block[VB_PIXEL_SCALE] : 1, params = chainParams;
  params[1] = sc.tolerance; params[2] = band; params[3] = lambda;
  const floorKey = protectedFloorKey(band, lambda), ceilKey = upgradeCeilKey(band, lambda);
  let m = 0, stable = hb.stable, base = hb.sums[1], protCost = hb.sums[2] - hb.sums[1];
  for (let k = 0, n = hb.listCount; k < n; k++) {
    const s = list[k], f = fixed[s];
    kindS[s] = 0;
    if (f === 2) continue;
    const p = profS[s], pref = next[s], floor = floorA[p];
    preferred[s] = pref;
    if (f === 1 || pref >= floor) { base += costs[p * stride + pref]; continue; }
    const raw = (workS[s] * scale) * bias;
    let w = raw > vmax ? vmax : raw;
    if (!(w >= 0)) w = 0;
    const prev = levelsS[s];
    if (useRanges && prev >= pref && prev <= floor) {
      const row = (p * stride + pref) * stride + prev;
      let hit = -1;
      for (let r = row * STABLE_MAX_RANGES, end = r + rCount[row]; r < end; r++) {
        if (w >= rLo[r] && w <= rHi[r]) { hit = r; break; }
      }
      if (hit >= 0) {
        const c0 = costs[p * stride + rStart[hit]];
        base += c0; protCost += costs[p * stride + prev] - c0;
        kindS[s] = 3; stable++;
        continue;
      }
    }
    params[0] = w;
    const packed = buildObjectChain(costs, errors, p * stride, floor, pref, prev, true, params, outLevel, outCost, outSlope, s * cs); // (stored by slot)
    const start = packed & 255, steps = packed >>> 8, i = slotId[s];
    next[s] = start;
    base += costs[p * stride + start];
    chainOf[i] = s * cs;
    m = pushChainItems(keys, items, m, outLevel, outSlope, s * cs, steps, prev, floorKey, ceilKey, i, shift);
  }
  hy.items = m; hy.stableObjects = stable;
  hy.acc[0] = base; hy.acc[1] = protCost;
}

/**
 * A failed solve: gives the listed objects with a chain their preferred level back in `next`, so
 * that the collection over every visible cluster (hybridCollectChunk) reads each object's preferred
 * level there; every visible cluster is marked as having chains.
 */
export function bindingUndo(st: FrameState, ci: ClusterIndex, hy: HybridIncremental, hb: HybridBinding): void {
  const list = hb.list, fixed = st.fixed, next = st.next, preferred = st.preferred, profS = ci.profS, floorA = st.floor;
  for (let k = 0, n = hb.listCount; k < n; k++) {
    const s = list[k];
    if (fixed[s] === 0 && preferred[s] < floorA[profS[s]]) next[s] = preferred[s];
  }
  const clusters = ci.visibleClusters, chainsA = hy.chains;
  for (let k = 0; k < ci.visibleClusterCount; k++) chainsA[clusters[k]] = 1;
}

/**
 * Solved: the kernel's stable objects keep their displayed level (their histogram and cost as
 * counted); the listed objects as hybridFinalize's list (stable ones keep their level, the others
 * end at `next`; a coarsened adjustable object loses its blend).
 */
export function bindingFinalize(st: FrameState, ci: ClusterIndex, hy: HybridIncremental, hb: HybridBinding): void {
  const counts = hb.stableCounts, levelCounts = st.levelCounts;
  for (let l = 0; l < st.stride; l++) levelCounts[l] += counts[l];
  st.changedCount = 0; st.totalCost = hb.sums[2];
  finalizeSlots(st, ci, hy, hb.list, hb.listCount);
}
