/**
 * The per-frame working state shared by the batch kernels and policies: object arrays, flattened
 * profile arrays, the options of the frame and the stats accumulators. One instance lives in each
 * {@link LodSet}; `update()` refreshes its fields (no allocation) and hands it to the kernels.
 *
 * @module
 */

/** Level reported for hidden, culled and removed objects. Costs 0. @category Batch */
export const HIDDEN_LEVEL = 255;

/** `forced` value meaning "no forced level". @category Batch */
export const NO_FORCED_LEVEL = 255;

/** Object flag bits. */
export const FLAG_HIDDEN = 1;
export const FLAG_REMOVED = 2;

/** Mutable state of one frame. Arrays are the set's own; scalars are set per update. */
export class FrameState {
  // Objects.
  spheres: Float32Array = new Float32Array(0);
  profileIds: Uint16Array = new Uint16Array(0);
  flags: Uint8Array = new Uint8Array(0);
  forced: Uint8Array = new Uint8Array(0);
  levels: Uint8Array = new Uint8Array(0);
  blend: Float32Array = new Float32Array(0);
  sizes: Float32Array = new Float32Array(0);
  lastChange: Int32Array = new Int32Array(0);
  changed: Uint32Array = new Uint32Array(0);
  changedCount = 0;
  /** Metric value per object before bias (scratch). */
  work: Float64Array = new Float64Array(0);
  /** Second metric value (budget weights, scratch). */
  weights: Float64Array = new Float64Array(0);
  /** Next levels for the non-threshold policies (scratch). */
  next: Uint8Array = new Uint8Array(0);
  /** Per object, written by the decision kernels for the budget passes (scratch): 0 adjustable, 1 fixed, 2 not drawn (the kernels use the literals). */
  fixed: Uint8Array = new Uint8Array(0);

  // Profiles (flattened, see ProfileTable).
  stride = 1;
  thresholds: Float32Array = new Float32Array(0);
  blendThresholds: Float32Array = new Float32Array(0);
  thresholdCount: Uint8Array = new Uint8Array(0);
  blendCount: Uint8Array = new Uint8Array(0);
  levelCount: Uint8Array = new Uint8Array(0);
  metricCode: Uint8Array = new Uint8Array(0);
  costs: Float64Array = new Float64Array(0);
  errors: Float64Array = new Float64Array(0);
  qualityFloor: Uint8Array = new Uint8Array(0);
  /** Profiles' own hysteresis bands (ProfileTable `bands`, `banded`, `bandMax`); `anyBands` when some profile has them. */
  bands: Float64Array = new Float64Array(0);
  banded: Uint8Array = new Uint8Array(0);
  bandMax: Float64Array = new Float64Array(0);
  anyBands = false;
  /** Finest allowed level per profile this frame. */
  lo: Uint8Array = new Uint8Array(0);
  /** Coarsest allowed level per profile this frame. */
  hi: Uint8Array = new Uint8Array(0);
  /** Hybrid quality floor per profile this frame (qualityFloor clamped to [lo, hi]). */
  floor: Uint8Array = new Uint8Array(0);
  /** First 4 thresholds / blend thresholds per profile, padded with −∞ (singleKernels.ts). */
  thresholds4: Float32Array = new Float32Array(0);
  blendThresholds4: Float32Array = new Float32Array(0);
  /** Per-level counts of one kernel call (zero between calls). */
  countScratch: Uint32Array = new Uint32Array(1);

  // Policy scratch (sized lazily by LodSet).
  candidates: Uint32Array = new Uint32Array(0);
  ranks: Uint8Array = new Uint8Array(0);
  keys: Float64Array = new Float64Array(0);
  items: Uint32Array = new Uint32Array(0);
  chainOf: Uint32Array = new Uint32Array(0);
  preferred: Uint8Array = new Uint8Array(0);
  /** Budget policy: cost of every drawn object before upgrades. */
  baseCost = 0.5;

  // Scalars that hold doubles start at a non-integer value so that V8 gives their fields the double
  // representation from the start: with a small-integer start, optimised code storing a double
  // deoptimised on EVERY frame ("insufficient type feedback") while the interpreter kept storing
  // integer-valued totals as small integers. `update()` resets them before use.

  // Options of the frame.
  bias = 0.5;
  hysteresis = 0.5;
  minFrames = 0;
  frame = 0;
  /** Kernel filter: only objects whose profile metric is `code` (when `filter`). */
  code = 0;
  filter = false;

  // Stats accumulators.
  levelCounts: Uint32Array = new Uint32Array(1);
  totalCost = 0.5;
  minimumCost = 0.5;
  invalid = 0;
  hidden = 0;

  // Clustered path: range of levels written for the current cluster (255 = hidden), any blend ≠ 0.
  uMin = 256;
  /** Clustered path, this frame: clusters culled / skipped as a whole, objects run per object. */
  clustersCulled = 0;
  clustersSkipped = 0;
  objectsEvaluated = 0;
  uMax = -1;
  uFrac = 0;
}
