/**
 * Hybrid's collection inside the fused kernel's first pass (wasm/collectLanes.part.wat `$collect4`, called by fusedKernel.wat).
 *
 * Over budget, hybridCollectChunk visits every object of a cluster with coarsening chains (an
 * adjustable object preferring a level finer than the quality floor) — on the random scene
 * ≈ 86,000 objects of ≈ 1,350 clusters a frame, 2 ms — although ≈ 72 % of those clusters need no
 * chain and no finalize entry: each object is held, or at or past the floor at its displayed
 * level, or stable (its projected diameter in a stable range of its (preferred, previous) row,
 * budgetStable.ts) without a blend to clear. The kernel already holds each lane's preferred level,
 * previous level, metric value and new blend when it commits a group, so it classifies the lanes
 * there, 4 at a time, as the collection would; a cluster all of whose lanes it settles (none on
 * its scalar path) is "settled": the collection skips it and adds the kernel's counts instead —
 * objects by final level (finalize's `FinalizeList.counts`) and by base level (a stable object's range
 * start), and the stable objects. Costs are summed as `count × cost`, exact for integer costs
 * like every per-cluster sum of the clustered paths (clusterPass.ts).
 *
 * Frame block (core/layout.ts `FB_COLLECT` … `FB_ROW_STARTS`): collect on, quality floor (int32),
 * largest projected diameter, pixel scale of the metric (float64); per call: settled, the stable
 * objects' counts by previous level and by range start, how many (int32); rows
 * `preferred · 5 + previous`: range counts (int32, at most {@link KERNEL_RANGES}), ranges
 * `[lo, hi]` (float64 pairs, {@link KERNEL_RANGES} per row), their start levels (int32).
 *
 * @module
 */
import type { FrameState } from '../core/frameState.js';
import { STABLE_MAX_RANGES, type StableRanges } from './budgetStable.js';
import type { FusedKernel } from '../wasm/wasmKernels.js';
import {
  F64_COLLECT_SCALE as SCALE, F64_COLLECT_VMAX as VMAX, F64_ROW_RANGES as ROW_RANGES, I32_COLLECT, I32_COLLECT_FLOOR as FLOOR,
  I32_HELD_COUNTS, I32_LEVEL_COUNTS, I32_ROW_COUNTS as ROW_COUNTS, I32_ROW_STARTS as ROW_STARTS, I32_SETTLED as SETTLED,
  I32_STABLE as STABLE, I32_STABLE_PREV as STABLE_PREV, I32_STABLE_START as STABLE_START,
} from '../core/layout.js';

/** Stable ranges per row the kernel tests (a lane beyond them: the collection runs the cluster). */
export const KERNEL_RANGES = 8;
/** Int32 index of the collect switch in the frame block (0 in every other frame's profile). */
export const COLLECT_ON = I32_COLLECT;

/**
 * Turns the collection on for profile `p` (after loadFusedProfile): its quality floor, this
 * frame's stable ranges `sr` (budgetStable.ts computeHybridStableRanges), the viewport clamp
 * `vmax` and the factor from the metric value to pixels (`scale`: 1 for pixels, the viewport
 * height for screenHeight with one view).
 */
export function loadFusedCollect(st: FrameState, f: FusedKernel, p: number, sr: StableRanges, vmax: number, scale: number): void {
  const q = f.i32, d = f.f64, stride = st.stride;
  q[COLLECT_ON] = 1; q[FLOOR] = st.floor[p]; d[VMAX] = vmax; d[SCALE] = scale;
  for (let pref = 0; pref < 5; pref++) {
    for (let prev = 0; prev < 5; prev++) {
      const ok = sr.any && pref < stride && prev < stride;
      loadKernelRow(f, pref * 5 + prev, sr, ok ? (p * stride + pref) * stride + prev : -1);
    }
  }
  f.profile();
}

/** Kernel row `row` ← the first {@link KERNEL_RANGES} ranges of row `from` of `sr` (−1: none). */
export function loadKernelRow(f: FusedKernel, row: number, sr: StableRanges, from: number): void {
  const q = f.i32, d = f.f64;
  let n = 0;
  if (from >= 0) {
    const r0 = from * STABLE_MAX_RANGES;
    n = sr.count[from] < KERNEL_RANGES ? sr.count[from] : KERNEL_RANGES;
    for (let r = 0; r < n; r++) {
      d[ROW_RANGES + row * 2 * KERNEL_RANGES + 2 * r] = sr.lo[r0 + r];
      d[ROW_RANGES + row * 2 * KERNEL_RANGES + 2 * r + 1] = sr.hi[r0 + r];
      q[ROW_STARTS + row * KERNEL_RANGES + r] = sr.start[r0 + r];
    }
  }
  q[ROW_COUNTS + row] = n;
}

/** After a settled call on profile `p`: how many of its objects end at level `l`. */
export function settledAt(st: FrameState, f: FusedKernel, p: number, l: number): number {
  const q = f.i32;
  return (l >= st.floor[p] ? q[I32_LEVEL_COUNTS + l] : 0) + q[I32_HELD_COUNTS + l] + q[STABLE_PREV + l];
}

/**
 * After a kernel call on profile `p`: 1 when the kernel settled every lane of the cluster (then
 * its counts are added into `out`: [0] base cost, [1] settled cost, [2] stable objects, [3 + l]
 * objects ending at level l), else 0.
 */
export function takeFusedCollected(st: FrameState, f: FusedKernel, p: number, out: Float64Array): number {
  const q = f.i32;
  if (q[SETTLED] !== 1) return 0;
  // Settled, every lane is one of: visible at or past the floor at its displayed level (the
  // kernel's per-level counts of its visible lanes, I32_LEVEL_COUNTS, at those levels), held at its
  // displayed level (I32_HELD_COUNTS), stable (their counts by previous level and by start).
  const costs = st.costs, off = p * st.stride, lc = st.levelCount[p], floor = st.floor[p];
  let base = 0, settled = 0;
  for (let l = 0; l < lc && l < 5; l++) {
    const kept = (l >= floor ? q[I32_LEVEL_COUNTS + l] : 0) + q[I32_HELD_COUNTS + l];
    const n = kept + q[STABLE_PREV + l], b = kept + q[STABLE_START + l];
    if (n !== 0) { out[3 + l] += n; settled += n * costs[off + l]; }
    if (b !== 0) base += b * costs[off + l];
  }
  out[0] += base; out[1] += settled; out[2] += q[STABLE];
  return 1;
}
