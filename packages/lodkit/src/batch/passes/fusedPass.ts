/**
 * The JavaScript side of the fused WebAssembly kernel (wasm/fusedKernel.wat): per evaluated cluster
 * of one profile with at most four thresholds and four blend thresholds, one `run` call computes
 * the metric of every view and decides every steady object in place (its blend in the slot copy
 * and in the public id-ordered `blend` — or owed, owedBlends.ts —, its size in slot order (`ClusterIndex.sizesS`) or in the
 * public `sizes` — all in the kernel's memory, clusters.ts — and the per-level counts in its frame block); this module
 * adds the counts (the slots held by hysteresis are counted apart: they cost their own level at the
 * minimum) to the stats and hands the few remaining ones (level changes with the changed list and `minFramesBetweenChanges`, forced
 * levels, hidden objects becoming visible, invalid spheres) to the JavaScript decision kernel,
 * reading the metric value the kernel left in `ci.workS`. `fusedNextCluster` is the same for
 * hybrid's first pass (preferred levels instead of level changes).
 *
 * Contributor notes:
 * - Same results as decideDescendingSingle / decideAscendingMapped over the whole cluster (the
 *   reference): the kernel's steady slots are exactly those the reference would not change
 *   (level kept, not held, not forced), for which it writes only `sizes`, `blend` and the stats;
 *   the stats of integer costs are sums of `count × cost` either way.
 * - No allocation: the frame block's views live in the kernel object (re-created when the memory
 *   grows, clusters.ts).
 *
 * @module
 */
import type { ClusterIndex } from '../spatial/clusters.js';
import type { FrameState } from '../core/frameState.js';
import { decideAscendingMapped } from '../kernels/mappedKernels.js';
import { decideDescendingSingle } from '../kernels/singleKernels.js';
import { decideAscendingNext, decideDescendingNext } from '../kernels/nextKernels.js';
import { OWE_BLENDS, SP_OFFSET, type FusedKernel } from '../wasm/wasmKernels.js';
import type { FreeClusters } from './hybridScratch.js';
import {
  F64_BIAS, F64_BLEND_THRESHOLDS, F64_HYSTERESIS, F64_MARKER, F64_THRESHOLDS, I32_COLLECT, I32_DESCENDING, I32_EXACT, I32_HELD,
  I32_HELD_COUNTS, I32_HI, I32_HIDDEN, I32_HOLDS, I32_LEVEL_COUNTS, I32_LO, I32_MOVED, I32_N, I32_NB, I32_NEXT_MODE, I32_NEXT_OUT,
  I32_RECHECKED, I32_REDO_SLOTS, I32_REDONE, I32_SLOT_SIZES, I32_SLOTS_RUN, I32_UFRAC, I32_AT_FLOOR, I32_TOUCHED,
} from '../core/layout.js';

/**
 * Writes profile `p`'s thresholds, level range, bias and direction into the kernel's frame block;
 * `next`: for hybrid's first pass (fusedNextCluster), where a level change is a preferred level;
 * `slotSizes`: the frame keeps `sizes` in slot order (clusters.ts `sizesS`); `oweBlends`: the
 * steady slots' changed blends are owed, not stored at their ids (owedBlends.ts; slot-order frames only).
 */
export function loadFusedProfile(st: FrameState, f: FusedKernel, p: number, code: number, next: boolean, slotSizes: boolean, oweBlends: boolean,
  atFloor = 255): void {
  const d = f.f64, q = f.i32, off = p * st.stride, n = st.thresholdCount[p], nb = st.blendCount[p];
  const desc = code !== 0, t = st.thresholds, b = st.blendThresholds;
  for (let j = 0; j < 4; j++) {
    d[F64_THRESHOLDS + j] = j < n ? (desc ? t[off + j] : -t[off + j]) : -Infinity;
    d[F64_BLEND_THRESHOLDS + j] = j < nb ? (desc ? b[off + j] : -b[off + j]) : -Infinity;
  }
  d[F64_BIAS] = st.bias;
  d[F64_MARKER] = desc ? -1 : Infinity;
  q[I32_N] = n; q[I32_NB] = nb; q[I32_LO] = st.lo[p]; q[I32_HI] = st.hi[p]; q[I32_DESCENDING] = desc ? 1 : 0;
  d[F64_HYSTERESIS] = st.hysteresis;
  q[I32_HOLDS] = st.hysteresis > 0 && st.minFrames === 0 ? 1 : 0;
  q[I32_NEXT_MODE] = next && st.minFrames === 0 ? 1 : 0;
  q[I32_NEXT_OUT] = next ? 1 : 0;
  q[I32_SLOT_SIZES] = slotSizes ? 1 : 0;
  q[OWE_BLENDS] = oweBlends && slotSizes ? 1 : 0;
  q[I32_COLLECT] = 0; // (hybrid's first pass turns it on after this: fusedCollect.ts)
  q[I32_AT_FLOOR] = next ? atFloor : 255; // (hybrid's first pass after a frame below the minimum: the lanes finalize at that floor would touch)
  f.profile();
}

/**
 * Runs cluster `c` (profile `p`, metric `code`) through the fused kernel over `views` views and
 * completes its slots; accumulates into `st.uMin`/`uMax`/`uFrac` like the decision kernels.
 * `cull`: 0 off, 1 on, 2 the cluster lies wholly inside every view (the kernel runs no plane test).
 */
export function fusedCluster(st: FrameState, ci: ClusterIndex, f: FusedKernel, c: number, p: number, code: number, views: number, cull: number): void {
  const a = ci.start[c], e = ci.end[c];
  const redo = f.run(SP_OFFSET, ci.workOffset, a, e, views, code, cull);
  const q = f.i32; // (the kernel stored the decided and held slots' sizes and blends)
  const costs = st.costs, off = p * st.stride, lcp = st.levelCount[p], levelCounts = st.levelCounts;
  let uMin = st.uMin, uMax = st.uMax, total = 0, free = 0, minimum = 0;
  // Held by hysteresis (level and size kept, blend from the rule at the previous size: the
  // kernel did it): counted per level, each at its own level's cost in the minimum too.
  if (q[I32_HELD] !== 0) {
    for (let l = 0; l < lcp && l < 5; l++) {
      const n = q[I32_HELD_COUNTS + l];
      if (n !== 0) {
        levelCounts[l] += n; total += n * costs[off + l]; minimum += n * costs[off + l];
        if (l < uMin) uMin = l; if (l > uMax) uMax = l;
      }
    }
    st.uFrac = 1;
  }
  for (let l = 0; l < lcp && l < 5; l++) {
    const n = q[I32_LEVEL_COUNTS + l];
    if (n !== 0) {
      levelCounts[l] += n; total += n * costs[off + l]; free += n;
      if (l < uMin) uMin = l; if (l > uMax) uMax = l;
    }
  }
  const hidden = q[I32_HIDDEN];
  if (hidden !== 0) { st.hidden += hidden; if (uMin > 255) uMin = 255; uMax = 255; }
  st.uMin = uMin; st.uMax = uMax;
  if (q[I32_UFRAC] !== 0) st.uFrac = 1;
  st.totalCost += total;
  st.minimumCost += minimum + free * costs[off + st.hi[p]];
  for (let r = 0; r < redo; r++) {
    const k = a + q[I32_REDO_SLOTS + r];
    if (code === 0) decideAscendingMapped(st, ci, k, k + 1);
    else decideDescendingSingle(st, ci, k, k + 1, p);
  }
}

/**
 * hybrid's first pass (hybridIncremental.ts) over cluster `c` through the same kernel: the
 * thresholds decision with `track = false` — preferred levels into `st.next`, marks into
 * `st.fixed` (both by slot, as nextKernels.ts), blend, sizes and the preferred stats, levels untouched. A steady slot of the kernel
 * (its level is its displayed one, not held, not forced) prefers that level with mark 0
 * (adjustable), a hidden one 255 with mark 2, as decideDescendingNext gives them, a held one its
 * displayed level with mark 1; the kernel's left-over slots run that kernel (or decideAscendingNext). Returns 1 when some adjustable
 * object prefers a level finer than `floor` (the hybrid's quality floor: it has a coarsening chain),
 * else 2 when every object prefers its displayed level (nothing changes), else 0; plus (L + 1) · 4
 * when every object prefers one level L, each decided freely outside every blend window; with chains
 * (1), plus 256 when the kernel decided every drawn object (none left over: their histogram and
 * minimum, adjustable ones at their preferred level or `floor`, held ones at theirs, are added to
 * `fc`), plus 512 when, moreover, no object prefers a level other than its displayed one; plus 1024 or 2048
 * for FreeClusters `atFloor` 1 or 2.
 */
export function fusedNextCluster(st: FrameState, ci: ClusterIndex, f: FusedKernel, c: number, p: number, code: number, views: number, cull: number, floor: number,
  fc: FreeClusters): number {
  const a = ci.start[c], e = ci.end[c];
  const redo = f.run(SP_OFFSET, ci.workOffset, a, e, views, code, cull);
  const q = f.i32, levelsS = ci.levelsS;
  // (the kernel stored the decided slots' sizes, blends, preferred levels and marks)
  const next = st.next, fixed = st.fixed;
  let moved = q[I32_MOVED] !== 0 ? 1 : 0;
  const costs = st.costs, off = p * st.stride, lcp = st.levelCount[p], levelCounts = st.levelCounts;
  let total = 0, free = 0, chains = 0, used = 0, one = 0;
  for (let l = 0; l < lcp && l < 5; l++) {
    const n = q[I32_LEVEL_COUNTS + l];
    if (n !== 0) { levelCounts[l] += n; total += n * costs[off + l]; free += n; used++; one = l; if (l < floor) chains = 1; }
  }
  const uniform = used === 1 && q[I32_UFRAC] === 0 && q[I32_HIDDEN] === 0 && q[I32_HELD] === 0 && redo === 0; // one level, each decided freely, blend 0
  st.hidden += q[I32_HIDDEN];
  st.totalCost += total;
  st.minimumCost += free * costs[off + st.hi[p]];
  st.code = code; st.filter = false;
  // Held slots (the kernel kept their level, size, wrote their blend and mark 1): at their own level
  // in the minimum too; left-over slots (q[I32_REDO_SLOTS …], relative to a): the JavaScript decision.
  if (q[I32_HELD] !== 0) {
    let heldCost = 0;
    for (let l = 0; l < lcp && l < 5; l++) {
      const n = q[I32_HELD_COUNTS + l];
      if (n !== 0) { levelCounts[l] += n; heldCost += n * costs[off + l]; }
    }
    st.totalCost += heldCost; st.minimumCost += heldCost;
  }
  if (redo !== 0) {
    if (code === 0) decideAscendingNext(st, ci, I32_REDO_SLOTS, I32_REDO_SLOTS + redo, q, a);
    else decideDescendingNext(st, ci, I32_REDO_SLOTS, I32_REDO_SLOTS + redo, q, a);
  }
  for (let r = 0; r < redo; r++) {
    const k = a + q[I32_REDO_SLOTS + r];
    if (fixed[k] === 0 && next[k] < floor) chains = 1;
    if (next[k] !== levelsS[k]) moved = 1;
  }
  if (chains === 1 && redo === 0) { // FreeClusters: the kernel decided every drawn object
    const held = q[I32_HELD] !== 0, counts = fc.counts;
    let m = 0;
    for (let l = 0; l < lcp && l < 5; l++) {
      const n = q[I32_LEVEL_COUNTS + l], h = held ? q[I32_HELD_COUNTS + l] : 0;
      counts[l] += n + h;
      m += n * costs[off + (l < floor ? floor : l)] + h * costs[off + l];
    }
    fc.minimum += m;
    // Below the minimum with the floor at the coarsest level, finalize has nothing to do here when the
    // kernel touched no lane (FreeClusters `atFloor`): adjustable objects end at the floor, held ones at theirs.
    let atFloor = 0;
    if (q[I32_AT_FLOOR] === floor && q[I32_TOUCHED] === 0 && floor === st.hi[p] && ci.forcedCount[c] === 0) { // (counted at this floor)
      const fcounts = fc.floorCounts;
      let adjustable = 0;
      for (let l = 0; l < lcp && l < 5; l++) {
        adjustable += q[I32_LEVEL_COUNTS + l];
        if (held) fcounts[l] += q[I32_HELD_COUNTS + l];
      }
      fcounts[floor] += adjustable;
      fc.floorCost += m; // (the minimum above: adjustable objects at the floor, held ones at theirs)
      atFloor = q[I32_LEVEL_COUNTS + floor] === 0 && !held && q[I32_HIDDEN] === 0 ? 1 : 2;
    }
    return 1 | (uniform ? (one + 1) << 2 : 0) | 256 | (moved === 0 ? 512 : 0) | (atFloor << 10);
  }
  return (chains === 1 ? 1 : moved !== 0 ? 0 : 2) | (uniform ? (one + 1) << 2 : 0);
}

/**
 * Cumulative counters of the fused kernel of `ci` since it was created: slots it ran (`lanes`),
 * lanes whose float32 plane test was near a plane and re-checked in float64 (`rechecked`), lanes
 * on its scalar exact path (`exact`), and slots left to the JavaScript kernel (`redone`). For
 * tests and the bench; all zero without the kernel.
 */
export function fusedCounters(ci: ClusterIndex): { lanes: number; rechecked: number; exact: number; redone: number } {
  const f = ci.wasm === null ? null : ci.wasm.fused;
  return f === null
    ? { lanes: 0, rechecked: 0, exact: 0, redone: 0 }
    : { lanes: f.i32[I32_SLOTS_RUN], rechecked: f.i32[I32_RECHECKED], exact: f.i32[I32_EXACT], redone: f.i32[I32_REDONE] };
}
