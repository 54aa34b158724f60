/**
 * Filling `LodSet`'s {@link FrameState}: the flattened profile arrays after `addProfile`
 * ({@link loadProfiles}), and the options of one update — screen-space options, bias, hysteresis,
 * the allowed level range per profile — with the frame's accumulators reset ({@link beginFrame}).
 *
 * Contributor notes:
 * - `beginFrame` runs once per update after validation (updateValidation.ts), so it reads the
 *   options without checks; it stores into the state's double fields exactly as the kernels expect
 *   (see the FrameState notes on field representations) and allocates nothing.
 *
 * @module
 */
import type { FrameState } from '../core/frameState.js';
import type { ProfileTable } from '../core/profiles.js';
import { SCREEN_SPACE_DEFAULTS, type ScreenSpaceScratch } from '../passes/screenSpacePasses.js';
import { LOD_UPDATE_DEFAULTS, type LodUpdateOptions, type EngineView } from '../core/updateOptions.js';

/**
 * Points `st` at the table's flattened profile arrays and brings the per-profile arrays derived
 * from them (quality floors, the first four thresholds) up to date. When the table kept its layout
 * (`layout` unchanged since the last call) only profile `t.count − 1`, the one just added, is
 * written: adding a profile is amortised O(levels), not O(profiles) (see profiles.ts).
 * `st.lo` / `st.hi` are the caller's (shared in worker-thread mode), sized to `t.capacity`.
 */
export function loadProfiles(st: FrameState, t: ProfileTable, layout: number): number {
  st.stride = t.stride;
  st.thresholds = t.thresholds; st.blendThresholds = t.blendThresholds;
  st.thresholdCount = t.thresholdCount; st.blendCount = t.blendCount; st.levelCount = t.levelCount;
  st.metricCode = t.metricCode; st.costs = t.costs; st.errors = t.errors; st.qualityFloor = t.qualityFloor;
  st.bands = t.bands; st.banded = t.banded; st.bandMax = t.bandMax; st.anyBands = t.bandedCount > 0;
  let first = t.count - 1;
  if (layout !== t.layout || st.floor.length < t.capacity) {
    first = 0;
    st.floor = new Uint8Array(t.capacity);
    st.thresholds4 = new Float32Array(t.capacity * 4).fill(-Infinity);
    st.blendThresholds4 = new Float32Array(t.capacity * 4).fill(-Infinity);
    st.countScratch = new Uint32Array(t.stride);
    if (st.levelCounts.length < t.stride) st.levelCounts = new Uint32Array(t.stride);
    // Per-object scratch sized by the stride: ensureScratch re-allocates it for the next budget frame.
    st.keys = new Float64Array(0);
    st.items = new Uint32Array(0);
  }
  for (let p = first; p < t.count; p++) {
    for (let j = 0; j < 4 && j < t.thresholdCount[p]; j++) st.thresholds4[p * 4 + j] = t.thresholds[p * t.stride + j];
    for (let j = 0; j < 4 && j < t.blendCount[p]; j++) st.blendThresholds4[p * 4 + j] = t.blendThresholds[p * t.stride + j];
  }
  return t.layout;
}

/**
 * The validated options of frame `frame` into `st` and `sse` (screen-space tolerance, band, largest
 * viewport; bias, hysteresis, hold frames; per-profile `lo` / `hi` / hybrid floor), and the changed
 * list and stats accumulators zeroed.
 */
export function beginFrame(st: FrameState, table: ProfileTable, sse: ScreenSpaceScratch, views: EngineView | readonly EngineView[],
  single: boolean, viewCount: number, options: LodUpdateOptions, frame: number): void {
  // --- issue 14: screen-space options of the frame (validated before) ---
  sse.tolerance = options.tolerance ?? SCREEN_SPACE_DEFAULTS.tolerance;
  sse.band = options.stabilityBand ?? SCREEN_SPACE_DEFAULTS.band;
  let vmax = 0;
  for (let v = 0; v < viewCount; v++) {
    const vp = (single ? (views as EngineView) : (views as readonly EngineView[])[v]).viewportHeight ?? SCREEN_SPACE_DEFAULTS.viewportHeight;
    if (vp > vmax) vmax = vp;
  }
  sse.viewportMax = vmax;
  // --- end issue 14 ---
  st.bias = options.bias ?? LOD_UPDATE_DEFAULTS.bias;
  st.hysteresis = options.hysteresis ?? LOD_UPDATE_DEFAULTS.hysteresis;
  st.minFrames = options.minFramesBetweenChanges ?? LOD_UPDATE_DEFAULTS.minFramesBetweenChanges;
  const minLevel = options.minLevel ?? LOD_UPDATE_DEFAULTS.minLevel;
  const maxLevel = options.maxLevel ?? LOD_UPDATE_DEFAULTS.maxLevel;
  for (let p = 0; p < table.count; p++) {
    const coarsest = table.levelCount[p] - 1;
    const hi = maxLevel < coarsest ? maxLevel : coarsest;
    st.hi[p] = hi;
    const lo = minLevel < hi ? minLevel : hi;
    st.lo[p] = lo;
    const q = table.qualityFloor[p];
    st.floor[p] = q < hi ? (q > lo ? q : lo) : hi;
  }
  st.frame = frame;
  restartStats(st);
}

/**
 * Zeroes the changed list and the stats accumulators: at the start of a frame, and when a budget
 * frame whose thresholds' selection did not fit starts again with the knapsack (budgetRegime.ts).
 */
export function restartStats(st: FrameState): void {
  st.changedCount = 0;
  st.totalCost = 0; st.minimumCost = 0; st.invalid = 0; st.hidden = 0;
  st.levelCounts.fill(0);
  st.clustersCulled = 0; st.clustersSkipped = 0; st.objectsEvaluated = 0;
}
