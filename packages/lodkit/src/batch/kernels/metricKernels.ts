/**
 * Per-view metric kernels of the batch engine: one loop per metric and projection over the packed
 * sphere array (`x, y, z, r` per object), writing or combining (max for screen sizes, min for
 * distances) into a `Float64Array`.
 *
 * Contributor notes:
 * - Generated (metricKernels.generated.ts) from one template, scripts/templates/metric.template.ts:
 *   the sphere read, the NaN check, the six plane tests and the combination are written once, each
 *   metric's formula beside them. Edit the template, then `npm run generate` (scripts/generate.mjs).
 * - Each kernel is a separate function with no per-object branch on metric or projection; the only
 *   data-dependent branches are the plane tests (culling) and the NaN/∞ check. The `mode` and
 *   `filter` arguments are loop invariant, so the branch predictor makes them free.
 * - The formulas use the same operations in the same order as `src/metrics/sphereMetrics.ts`
 *   (`(2r) / (d · windowHeight)`, `π (r·ref / d)² / windowArea`, …), except that `d` is
 *   `Math.sqrt(dx² + dy² + dz²)` instead of `Math.hypot` (3–4× faster in V8; the two differ by at
 *   most one ulp, which changes a level only if the float32-rounded size lands exactly on a threshold).
 * - Culled (wholly outside a plane): screen metrics give {@link CULLED_SIZE} when culling is on and 0
 *   (the reference value) when it is off; the distance kernel gives `+∞` when culling is on and does
 *   not test planes when it is off (like `sphereDistance`).
 * - A sphere with a NaN/±∞ coordinate or radius, or a negative radius, gives NaN, which survives
 *   the max/min combination (`v > cur` is false for NaN in both directions).
 * - The six plane tests are OR-ed as numbers (`+(a < b) | +(c < d) …`) and branched on once: with
 *   random object order about half the objects are culled at random, and six short-circuit
 *   branches mispredict far more often than one. 1M spheres, 75° view: 33 ms → 25 ms; the same loop
 *   without any plane test takes 10 ms, the 4-accumulator read 5 ms (same process, loaded machine).
 * - Special values (NaN, ±∞, MAX_VALUE) are stored straight into `out` and the loop continues; they
 *   never meet a computed double in a variable. In Node 20 (V8 11.3) a phi between such a constant
 *   (`NaN`, `Infinity`, even `Number.POSITIVE_INFINITY` in some kernels) and a computed double can
 *   make TurboFan box every value into a heap number — ~600 scavenges per 400 calls of a 100k loop in
 *   a micro-benchmark. test/batch/allocation.test.ts catches regressions.
 *
 * @module
 */

/** Value a screen-metric kernel writes for a culled sphere when culling is on (real sizes are ≥ 0). */
export const CULLED_SIZE = -1;

/** How a kernel combines its value with what `out` holds: overwrite, keep the max, keep the min. */
export const Combine = { Write: 0, Max: 1, Min: 2 } as const;

// Per-view scalars shared by every metric kernel (`v` below; slots: core/layout.ts VIEW_*), in a
// `Float64Array` filled with `TypedArray.prototype.set` from the frustum's own arrays: eye `[0..3)`,
// window min `[3..5)`, window max `[5..7)`, pixel scale `[7]`. The kernels derive window height/area
// with the same operations as `Frustum.update` (`t − b`, `(r − l)(t − b)`), so values stay
// bit-identical; copying through builtins keeps the per-frame code from materialising doubles in
// V8's interpreter (each one a heap number).
export { VIEW_EYE, VIEW_PARAMS, VIEW_SCALE, VIEW_WINDOW_MAX, VIEW_WINDOW_MIN } from '../core/layout.js';

export {
  areaOrthographicKernel, areaPerspectiveKernel, type CombineMode, distanceKernel, heightOrthographicKernel, heightPerspectiveKernel,
} from './metricKernels.generated.js';
