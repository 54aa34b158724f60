/**
 * The budget policy's per-object classification in the fused kernel's module
 * (wasm/budgetLanes.part.wat `budget`): budgetIncremental.ts budgetFeedChunk's loop over one
 * cluster's objects, for the objects it finds stable.
 *
 * Over a binding budget most visible objects are stable (their projected diameter in a stable
 * range of their previous level, budgetStable.ts): on the 100k tree field walking forward
 * ≈ 22,000 of ≈ 26,000 evaluated a frame, each costing the JavaScript loop ≈ 20 ns. The kernel
 * runs that loop for a cluster of one profile with no forced object, sizes in slot order (as
 * every clustered frame with the kernel's memory keeps them, outputs/slotSizes.ts): it clears every object's
 * blend, and for a stable object stores its size and counts it by previous level and by range
 * start; a hidden or culled object already hidden gets its size (NaN) and is counted
 * ({@link keptHidden}: ≈ 4,500 a frame inside the visible clusters of that walk); the others
 * (hidden or culled ones to hide now, invalid, a previous level outside the profile's, no range
 * among the first `KERNEL_RANGES` of the row, fusedCollect.ts) it lists, and the JavaScript loop runs over
 * those only ({@link LISTED}). {@link addBudgetStable} adds what the JavaScript loop would
 * have added for the stable ones: costs as `count × cost`, exact for integer costs (the
 * clustered paths' rule, clusterPass.ts).
 *
 * Frame block: the budget inputs (core/layout.ts `FB_BUDGET_*`) and row `L` (previous level) of
 * hybrid's collection rows (fusedCollect.ts) — a budget frame collects nothing there; loading them
 * marks the fused kernel's profile as unknown (`cv.fusedProfile`), so a later fused call reloads.
 *
 * @module
 */
import type { FrameState } from '../core/frameState.js';
import type { FusedKernel } from '../wasm/wasmKernels.js';
import { STABLE_MAX_RANGES, type StableRanges } from './budgetStable.js';
import { loadKernelRow } from './fusedCollect.js';
import {
  F64_BUDGET_BIAS, F64_BUDGET_SCALE, F64_ROW_RANGES, I32_ROW_COUNTS, I32_ROW_STARTS, F64_BUDGET_VMAX, I32_BUDGET_HI, I32_BUDGET_LO, I32_BUDGET_MODE, I32_HIDDEN, I32_REDO_SLOTS, I32_STABLE, I32_STABLE_PREV, I32_STABLE_START,
} from '../core/layout.js';

/** Levels of a profile the kernel classifies (its rows and counts: previous levels 0–4). */
export const BUDGET_KERNEL_LEVELS = 5;

/**
 * Loads profile `p`'s inputs: its finest and coarsest level, this frame's stable ranges of each
 * previous level (`sr`, the first `KERNEL_RANGES`), the bias and the largest diameter `vmax`.
 * `hybridScale` > 0: hybrid's binding frames (passes/hybridBinding.ts; `sr` its rows by displayed
 * level, hybridLevelRows.ts), the metric value times it is in pixels; 0: the budget policy. `lane`:
 * objects outside the rows are decided by the fused kernel's scalar path (its profile loaded for
 * hybrid's first pass: fusedPass.ts loadFusedProfile).
 */
export function loadBudgetKernel(st: FrameState, f: FusedKernel, p: number, sr: StableRanges, vmax: number, hybridScale = 0, lane = false): void {
  const q = f.i32, d = f.f64, stride = st.stride;
  d[F64_BUDGET_BIAS] = st.bias; d[F64_BUDGET_VMAX] = vmax; d[F64_BUDGET_SCALE] = hybridScale;
  q[I32_BUDGET_LO] = st.lo[p]; q[I32_BUDGET_HI] = st.hi[p]; q[I32_BUDGET_MODE] = hybridScale > 0 ? (lane ? 2 : 1) : 0;
  if (hybridScale > 0) { loadLevelRows(f, p, sr, stride); return; }
  for (let L = 0; L < BUDGET_KERNEL_LEVELS; L++) loadKernelRow(f, L, sr, L < stride ? p * stride + L : -1);
}

/**
 * Hybrid's rows by displayed level (hybridLevelRows.ts) hold more ranges than the collection's
 * rows (held and blend-window ranges between the stable ones): up to {@link LEVEL_KERNEL_RANGES}
 * per row, in the collection rows' space (hybrid's binding frames collect nothing in the kernel).
 */
export const LEVEL_KERNEL_RANGES = 24;

function loadLevelRows(f: FusedKernel, p: number, sr: StableRanges, stride: number): void {
  const q = f.i32, d = f.f64;
  for (let L = 0; L < BUDGET_KERNEL_LEVELS; L++) {
    const from = L < stride ? p * stride + L : -1, r0 = from * STABLE_MAX_RANGES;
    const n = from < 0 ? 0 : sr.count[from] < LEVEL_KERNEL_RANGES ? sr.count[from] : LEVEL_KERNEL_RANGES;
    for (let r = 0; r < n; r++) {
      d[F64_ROW_RANGES + L * 2 * LEVEL_KERNEL_RANGES + 2 * r] = sr.lo[r0 + r];
      d[F64_ROW_RANGES + L * 2 * LEVEL_KERNEL_RANGES + 2 * r + 1] = sr.hi[r0 + r];
      q[I32_ROW_STARTS + L * LEVEL_KERNEL_RANGES + r] = sr.start[r0 + r];
    }
    q[I32_ROW_COUNTS + L] = n;
  }
}

/** Int32 index (`FusedKernel.i32`) of the last call's listed slots (as many as it returned). */
export const LISTED = I32_REDO_SLOTS;

/**
 * After a call: its hidden or culled objects already hidden, which it did not list (each keeps
 * level 255 with blend 0 and size NaN, as the JavaScript loop leaves one: the frame's hidden count).
 */
export function keptHidden(f: FusedKernel): number {
  return f.i32[I32_HIDDEN];
}

/**
 * After a call on a cluster of profile `p`: adds its stable objects into `acc` — [0] base cost
 * (their range starts), [1] protected cost (previous level's cost − start's), [2] their previous
 * levels' cost, [3] their minimum cost (coarsest level) — and their count per previous level into
 * `counts`; returns how many there were.
 */
export function addBudgetStable(st: FrameState, f: FusedKernel, p: number, acc: Float64Array, counts: Float64Array): number {
  const q = f.i32, n = q[I32_STABLE];
  if (n === 0) return 0;
  const costs = st.costs, off = p * st.stride, hi = st.hi[p];
  let base = 0, kept = 0;
  for (let l = 0; l <= hi; l++) {
    const atPrev = q[I32_STABLE_PREV + l], atStart = q[I32_STABLE_START + l];
    if (atPrev !== 0) { kept += atPrev * costs[off + l]; counts[l] += atPrev; }
    if (atStart !== 0) base += atStart * costs[off + l];
  }
  acc[0] += base; acc[1] += kept - base; acc[2] += kept; acc[3] += n * costs[off + hi];
  return n;
}
