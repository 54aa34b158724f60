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

/** `fixed` marks written by the decision kernels for the budget passes. */
export const ADJUSTABLE = 0;
export const FIXED = 1;
export const NOT_DRAWN = 2;

/** Mutable state of one frame. Arrays are the set's own; scalars are set per update. */
export class FrameState {
  // Objects.
  spheres = new Float32Array(0);
  profileIds = new Uint16Array(0);
  flags = new Uint8Array(0);
  forced = new Uint8Array(0);
  levels = new Uint8Array(0);
  blend = new Float32Array(0);
  sizes = new Float32Array(0);
  lastChange = new Int32Array(0);
  changed = new Uint32Array(0);
  changedCount = 0;
  /** Metric value per object before bias (scratch). */
  work = new Float64Array(0);
  /** Second metric value (budget weights, scratch). */
  weights = new Float64Array(0);
  /** Next levels for the non-threshold policies (scratch). */
  next = new Uint8Array(0);
  /** {@link ADJUSTABLE} / {@link FIXED} / {@link NOT_DRAWN} per object (scratch). */
  fixed = new Uint8Array(0);

  // Profiles (flattened, see ProfileTable).
  stride = 1;
  thresholds = new Float32Array(0);
  blendThresholds = new Float32Array(0);
  thresholdCount = new Uint8Array(0);
  blendCount = new Uint8Array(0);
  levelCount = new Uint8Array(0);
  metricCode = new Uint8Array(0);
  costs = new Float64Array(0);
  errors = new Float64Array(0);
  qualityFloor = new Uint8Array(0);
  /** Finest allowed level per profile this frame. */
  lo = new Uint8Array(0);
  /** Coarsest allowed level per profile this frame. */
  hi = new Uint8Array(0);
  /** Hybrid quality floor per profile this frame (qualityFloor clamped to [lo, hi]). */
  floor = new Uint8Array(0);

  // Policy scratch (sized lazily by LodSet).
  candidates = new Uint32Array(0);
  ranks = new Uint8Array(0);
  keys = new Float64Array(0);
  items = new Uint32Array(0);
  chainOf = new Uint32Array(0);
  preferred = new Uint8Array(0);
  chainLevel = new Uint8Array(0);
  chainCost = new Float64Array(0);
  chainSlope = new Float64Array(0);
  chainInfo = new Uint32Array(0);
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
  levelCounts = new Uint32Array(1);
  totalCost = 0.5;
  minimumCost = 0.5;
  invalid = 0;
  hidden = 0;
}
