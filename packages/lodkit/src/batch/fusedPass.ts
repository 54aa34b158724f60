/**
 * The JavaScript side of the fused WebAssembly kernel (wasm/fusedKernel.wat): per evaluated cluster
 * of one profile with at most four thresholds and four blend thresholds, one `run` call computes
 * the metric of every view and decides every steady object in place (its blend in the slot copy
 * and in the public id-ordered `blend`, its size in the public `sizes` — both live in the kernel's
 * memory, clusters.ts `placeOutputs` — and the per-level counts in its frame block); this module
 * adds the counts to the stats, finishes the slots held by hysteresis (`heldBlend`) and hands the
 * few remaining ones (level changes with the changed list and `minFramesBetweenChanges`, forced
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
import type { ClusterIndex } from './clusters.js';
import type { FrameState } from './frameState.js';
import { decideAscendingMapped } from './mappedKernels.js';
import { decideDescendingSingle } from './singleKernels.js';
import { decideAscendingNext, decideDescendingNext } from './nextKernels.js';
import { SP_OFFSET, type FusedKernel } from './wasmKernels.js';

/**
 * Writes profile `p`'s thresholds, level range, bias and direction into the kernel's frame block;
 * `next`: for hybrid's first pass (fusedNextCluster), where a level change is a preferred level.
 */
export function loadFusedProfile(st: FrameState, f: FusedKernel, p: number, code: number, next: boolean): void {
  const d = f.f64, q = f.i32, off = p * st.stride, n = st.thresholdCount[p], nb = st.blendCount[p];
  const desc = code !== 0, t = st.thresholds, b = st.blendThresholds;
  for (let j = 0; j < 4; j++) {
    d[j] = j < n ? (desc ? t[off + j] : -t[off + j]) : -Infinity;
    d[4 + j] = j < nb ? (desc ? b[off + j] : -b[off + j]) : -Infinity;
  }
  d[8] = st.bias;
  d[9] = desc ? -1 : Infinity;
  q[20] = n; q[21] = nb; q[22] = st.lo[p]; q[23] = st.hi[p]; q[24] = desc ? 1 : 0;
  d[128] = st.hysteresis;
  q[258] = st.hysteresis > 0 && st.minFrames === 0 ? 1 : 0;
  q[324] = next && st.minFrames === 0 ? 1 : 0;
  q[325] = next ? 1 : 0;
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
  const q = f.i32, map = ci.slotId, sizes = st.sizes; // (the kernel stored the decided slots' sizes and blends)
  const costs = st.costs, off = p * st.stride, lcp = st.levelCount[p], levelCounts = st.levelCounts;
  let uMin = st.uMin, uMax = st.uMax, total = 0, free = 0, minimum = 0;
  // Held by hysteresis (the kernel evaluated v·(1 ± h)): level and size kept, blend from the rule
  // at the previous size (heldBlend).
  const held = q[31];
  if (held !== 0) {
    const levelsS = ci.levelsS;
    for (let r = 0; r < held; r++) {
      const k = a + q[260 + r], i = map[k], x = sizes[i];
      if (x !== x) { // no previous size: the reference does not hold (rare), decide it in full
        if (code === 0) decideAscendingMapped(st, ci, k, k + 1); else decideDescendingSingle(st, ci, k, k + 1, p);
        continue;
      }
      heldBlend(st, ci, p, code, k, i);
      const old = levelsS[k];
      levelCounts[old]++; total += costs[off + old]; minimum += costs[off + old];
      if (old < uMin) uMin = old; if (old > uMax) uMax = old;
    }
    st.uFrac = 1;
  }
  for (let l = 0; l < lcp && l < 5; l++) {
    const n = q[32 + l];
    if (n !== 0) {
      levelCounts[l] += n; total += n * costs[off + l]; free += n;
      if (l < uMin) uMin = l; if (l > uMax) uMax = l;
    }
  }
  const hidden = q[26];
  if (hidden !== 0) { st.hidden += hidden; if (uMin > 255) uMin = 255; uMax = 255; }
  st.uMin = uMin; st.uMax = uMax;
  if (q[25] !== 0) st.uFrac = 1;
  st.totalCost += total;
  st.minimumCost += minimum + free * costs[off + st.hi[p]];
  for (let r = 0; r < redo; r++) {
    const k = a + q[40 + r];
    if (code === 0) decideAscendingMapped(st, ci, k, k + 1);
    else decideDescendingSingle(st, ci, k, k + 1, p);
  }
}

/**
 * Slot `k` (id `i`, its previous size `st.sizes[i]` not NaN) held at its displayed level by
 * hysteresis: its blend from the rule at that size, as the reference's k = 2 evaluation, into
 * `ci.blendS` and `st.blend` where it changed (doubles neither passed nor returned: they would be boxed).
 */
function heldBlend(st: FrameState, ci: ClusterIndex, p: number, code: number, k: number, i: number): void {
  const x = st.sizes[i], t = st.thresholds, b = st.blendThresholds, n = st.thresholdCount[p], nb = st.blendCount[p], lo = st.lo[p], hi = st.hi[p];
  const off = p * st.stride, blendS = ci.blendS;
  let g = 0;
  if (code !== 0) {
    const xF = Math.fround(x);
    let qq = 0;
    while (qq < n && !(xF > t[off + qq])) qq++;
    g = qq;
    if (nb !== 0) {
      let bj = 0;
      while (bj < nb && !(xF > b[off + bj])) bj++;
      if (bj > qq) bj = qq;
      if (bj < qq - 1) bj = qq - 1;
      if (bj !== qq && bj < nb) {
        const a2 = t[off + bj];
        let e2 = b[off + bj];
        if (qq < n && t[off + qq] > e2) e2 = t[off + qq];
        if (a2 >= x && x > e2) g = Math.fround(bj + Math.fround((x - a2) / Math.fround(e2 - a2)));
      }
    }
  } else {
    let qq = 0;
    while (qq < n && !(x < t[off + qq])) qq++;
    g = qq;
    if (nb !== 0) {
      let bj = 0;
      while (bj < nb && !(x < b[off + bj])) bj++;
      if (bj > qq) bj = qq;
      if (bj < qq - 1) bj = qq - 1;
      if (bj !== qq && bj < nb) {
        const a2 = t[off + bj];
        let e2 = b[off + bj];
        if (qq < n && t[off + qq] < e2) e2 = t[off + qq];
        if (a2 <= x && x < e2) g = Math.fround(bj + Math.fround((x - a2) / Math.fround(e2 - a2)));
      }
    }
  }
  if (g < lo) g = lo; else if (g > hi) g = hi;
  const old = ci.levelsS[k];
  const fb = Math.fround(Math.floor(g + 0.5) === old ? g - Math.floor(g) : 0);
  if (blendS[k] !== fb) { blendS[k] = fb; st.blend[i] = fb; }
}

/**
 * hybrid's first pass (hybridIncremental.ts) over cluster `c` through the same kernel: the
 * thresholds decision with `track = false` — preferred levels into `st.next`, marks into
 * `st.fixed` (both by slot, as nextKernels.ts), blend, sizes and the preferred stats, levels untouched. A steady slot of the kernel
 * (its level is its displayed one, not held, not forced) prefers that level with mark 0
 * (adjustable), a hidden one 255 with mark 2, as decideDescendingNext gives them; the kernel's held
 * and left-over slots run that kernel (or decideAscendingNext). Returns 1 when some adjustable
 * object prefers a level finer than `floor` (the hybrid's quality floor: it has a coarsening chain),
 * else 2 when every object prefers its displayed level (nothing changes), else 0; plus (L + 1) · 4
 * when every object prefers one level L, each decided freely outside every blend window.
 */
export function fusedNextCluster(st: FrameState, ci: ClusterIndex, f: FusedKernel, c: number, p: number, code: number, views: number, cull: number, floor: number): number {
  const a = ci.start[c], e = ci.end[c];
  const redo = f.run(SP_OFFSET, ci.workOffset, a, e, views, code, cull);
  const q = f.i32, levelsS = ci.levelsS;
  // (the kernel stored the decided slots' sizes, blends, preferred levels and marks)
  const next = st.next, fixed = st.fixed;
  let moved = q[326] !== 0 ? 1 : 0;
  const costs = st.costs, off = p * st.stride, lcp = st.levelCount[p], levelCounts = st.levelCounts;
  let total = 0, free = 0, chains = 0, used = 0, one = 0;
  for (let l = 0; l < lcp && l < 5; l++) {
    const n = q[32 + l];
    if (n !== 0) { levelCounts[l] += n; total += n * costs[off + l]; free += n; used++; one = l; if (l < floor) chains = 1; }
  }
  const uniform = used === 1 && q[25] === 0 && q[26] === 0 && q[31] === 0 && redo === 0; // one level, each decided freely, blend 0
  st.hidden += q[26];
  st.totalCost += total;
  st.minimumCost += free * costs[off + st.hi[p]];
  st.code = code; st.filter = false;
  // Held slots (q[260 …], relative to a): displayed level kept with mark 1 (fixed), size kept,
  // blend from the previous size; left-over slots (q[40 …]): the JavaScript decision.
  const held = q[31], map = ci.slotId, sizes = st.sizes;
  let heldCost = 0;
  for (let r = 0; r < held; r++) {
    const k = a + q[260 + r], i = map[k];
    if (sizes[i] !== sizes[i]) { // no previous size: the reference does not hold (rare), decide it in full
      if (code === 0) decideAscendingNext(st, ci, k, k + 1); else decideDescendingNext(st, ci, k, k + 1);
      continue;
    }
    heldBlend(st, ci, p, code, k, i);
    const old = levelsS[k];
    next[k] = old; fixed[k] = 1;
    levelCounts[old]++; heldCost += costs[off + old];
  }
  st.totalCost += heldCost; st.minimumCost += heldCost; // mark 1: its own level is its minimum
  if (redo !== 0) {
    if (code === 0) decideAscendingNext(st, ci, 40, 40 + redo, q, a);
    else decideDescendingNext(st, ci, 40, 40 + redo, q, a);
  }
  for (let r = 0; r < held && chains === 0; r++) { const k = a + q[260 + r]; if (fixed[k] === 0 && next[k] < floor) chains = 1; }
  for (let r = 0; r < redo; r++) {
    const k = a + q[40 + r];
    if (fixed[k] === 0 && next[k] < floor) chains = 1;
    if (next[k] !== levelsS[k]) moved = 1;
  }
  // (held slots keep their displayed level)
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
    : { lanes: f.i32[259], rechecked: f.i32[28], exact: f.i32[29], redone: f.i32[30] };
}
