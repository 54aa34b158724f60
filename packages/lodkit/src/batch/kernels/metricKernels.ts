/**
 * Per-view metric kernels of the batch engine: one loop per metric and projection over the packed
 * sphere array (`x, y, z, r` per object), writing or combining (max for screen sizes, min for
 * distances) into a `Float64Array`.
 *
 * Contributor notes:
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
/** One of the {@link Combine} values. */
export type CombineMode = 0 | 1 | 2;

// Per-view scalars shared by every metric kernel (`v` below; slots: core/layout.ts VIEW_*), in a
// `Float64Array` filled with `TypedArray.prototype.set` from the frustum's own arrays: eye `[0..3)`,
// window min `[3..5)`, window max `[5..7)`, pixel scale `[7]`. The kernels derive window height/area
// with the same operations as `Frustum.update` (`t − b`, `(r − l)(t − b)`), so values stay
// bit-identical; copying through builtins keeps the per-frame code from materialising doubles in
// V8's interpreter (each one a heap number).
export { VIEW_EYE, VIEW_PARAMS, VIEW_SCALE, VIEW_WINDOW_MAX, VIEW_WINDOW_MIN } from '../core/layout.js';

/**
 * Eye-to-surface distance (`max(|c − eye| − r, 0)`), combined by min. Culled spheres give `+∞` when
 * `cull` is true. Objects whose profile metric is not `code` are skipped when `filter` is true.
 */
export function distanceKernel(
  spheres: Float32Array, start: number, end: number, out: Float64Array, mode: CombineMode,
  pl: Float64Array, v: Float64Array, cull: boolean, profileIds: Uint16Array, profileMetric: Uint8Array, code: number, filter: boolean,
): void {
  const ex = v[0], ey = v[1], ez = v[2];
  const p0 = pl[0], p1 = pl[1], p2 = pl[2], p3 = pl[3], p4 = pl[4], p5 = pl[5], p6 = pl[6], p7 = pl[7];
  const p8 = pl[8], p9 = pl[9], p10 = pl[10], p11 = pl[11], p12 = pl[12], p13 = pl[13], p14 = pl[14], p15 = pl[15];
  const p16 = pl[16], p17 = pl[17], p18 = pl[18], p19 = pl[19], p20 = pl[20], p21 = pl[21], p22 = pl[22], p23 = pl[23];
  for (let i = start; i < end; i++) {
    if (filter && profileMetric[profileIds[i]] !== code) continue;
    const o = i << 2;
    const x = spheres[o], y = spheres[o + 1], z = spheres[o + 2], r = spheres[o + 3];
    const check = x + y + z + r;
    if (check - check !== 0 || r < 0) { // NaN/±∞ anywhere, or a negative radius
      if (mode === 0) out[i] = Number.NaN;
      continue;
    }
    let value: number;
    if (cull && (
      (+(p0 * x + p1 * y + p2 * z + p3 < -r) | +(p4 * x + p5 * y + p6 * z + p7 < -r) |
      +(p8 * x + p9 * y + p10 * z + p11 < -r) | +(p12 * x + p13 * y + p14 * z + p15 < -r) |
      +(p16 * x + p17 * y + p18 * z + p19 < -r) | +(p20 * x + p21 * y + p22 * z + p23 < -r)) !== 0)) {
      if (mode === 0) out[i] = Number.POSITIVE_INFINITY;
      continue;
    } else {
      const dx = x - ex, dy = y - ey, dz = z - ez;
      const d = Math.sqrt(dx * dx + dy * dy + dz * dz) - r;
      value = d > 0 ? d : 0;
    }
    if (mode === 0 || value < out[i]) out[i] = value;
  }
}

/**
 * Perspective diameter ÷ window height (× `scale` pixels for the pixels metric): `(2r)/(d·wh)·scale`,
 * `+∞` with the eye inside the sphere. Combined by max.
 */
export function heightPerspectiveKernel(
  spheres: Float32Array, start: number, end: number, out: Float64Array, mode: CombineMode,
  pl: Float64Array, v: Float64Array, cull: boolean, profileIds: Uint16Array, profileMetric: Uint8Array, code: number, filter: boolean,
): void {
  const ex = v[0], ey = v[1], ez = v[2], wh = v[6] - v[4], scale = v[7];
  const culled = cull ? -1 : 0; // literals: an imported constant in the phi below would box every value
  const p0 = pl[0], p1 = pl[1], p2 = pl[2], p3 = pl[3], p4 = pl[4], p5 = pl[5], p6 = pl[6], p7 = pl[7];
  const p8 = pl[8], p9 = pl[9], p10 = pl[10], p11 = pl[11], p12 = pl[12], p13 = pl[13], p14 = pl[14], p15 = pl[15];
  const p16 = pl[16], p17 = pl[17], p18 = pl[18], p19 = pl[19], p20 = pl[20], p21 = pl[21], p22 = pl[22], p23 = pl[23];
  for (let i = start; i < end; i++) {
    if (filter && profileMetric[profileIds[i]] !== code) continue;
    const o = i << 2;
    const x = spheres[o], y = spheres[o + 1], z = spheres[o + 2], r = spheres[o + 3];
    const check = x + y + z + r;
    if (check - check !== 0 || r < 0) { // NaN/±∞ anywhere, or a negative radius
      if (mode === 0) out[i] = Number.NaN;
      continue;
    }
    let value: number;
    if (
      (+(p0 * x + p1 * y + p2 * z + p3 < -r) | +(p4 * x + p5 * y + p6 * z + p7 < -r) |
      +(p8 * x + p9 * y + p10 * z + p11 < -r) | +(p12 * x + p13 * y + p14 * z + p15 < -r) |
      +(p16 * x + p17 * y + p18 * z + p19 < -r) | +(p20 * x + p21 * y + p22 * z + p23 < -r)) !== 0) {
      if (mode === 0 || culled > out[i]) out[i] = culled;
      continue;
    } else {
      const dx = x - ex, dy = y - ey, dz = z - ez;
      const d = Math.sqrt(dx * dx + dy * dy + dz * dz);
      if (d <= r) { out[i] = Number.POSITIVE_INFINITY; continue; } // eye inside the sphere
      value = ((2 * r) / (d * wh)) * scale;
    }
    if (mode === 0 || value > out[i]) out[i] = value;
  }
}

/** Orthographic diameter ÷ window height (× `scale`): `(2r)/wh·scale`. Combined by max. */
export function heightOrthographicKernel(
  spheres: Float32Array, start: number, end: number, out: Float64Array, mode: CombineMode,
  pl: Float64Array, v: Float64Array, cull: boolean, profileIds: Uint16Array, profileMetric: Uint8Array, code: number, filter: boolean,
): void {
  const wh = v[6] - v[4], scale = v[7];
  const culled = cull ? -1 : 0; // literals: an imported constant in the phi below would box every value
  const p0 = pl[0], p1 = pl[1], p2 = pl[2], p3 = pl[3], p4 = pl[4], p5 = pl[5], p6 = pl[6], p7 = pl[7];
  const p8 = pl[8], p9 = pl[9], p10 = pl[10], p11 = pl[11], p12 = pl[12], p13 = pl[13], p14 = pl[14], p15 = pl[15];
  const p16 = pl[16], p17 = pl[17], p18 = pl[18], p19 = pl[19], p20 = pl[20], p21 = pl[21], p22 = pl[22], p23 = pl[23];
  for (let i = start; i < end; i++) {
    if (filter && profileMetric[profileIds[i]] !== code) continue;
    const o = i << 2;
    const x = spheres[o], y = spheres[o + 1], z = spheres[o + 2], r = spheres[o + 3];
    const check = x + y + z + r;
    if (check - check !== 0 || r < 0) { // NaN/±∞ anywhere, or a negative radius
      if (mode === 0) out[i] = Number.NaN;
      continue;
    }
    let value: number;
    if (
      (+(p0 * x + p1 * y + p2 * z + p3 < -r) | +(p4 * x + p5 * y + p6 * z + p7 < -r) |
      +(p8 * x + p9 * y + p10 * z + p11 < -r) | +(p12 * x + p13 * y + p14 * z + p15 < -r) |
      +(p16 * x + p17 * y + p18 * z + p19 < -r) | +(p20 * x + p21 * y + p22 * z + p23 < -r)) !== 0) {
      if (mode === 0 || culled > out[i]) out[i] = culled;
      continue;
    } else {
      value = ((2 * r) / wh) * scale;
    }
    if (mode === 0 || value > out[i]) out[i] = value;
  }
}

/** Perspective projected-disc area ÷ window area (OpenUSD projectedSphere). Combined by max. */
export function areaPerspectiveKernel(
  spheres: Float32Array, start: number, end: number, out: Float64Array, mode: CombineMode,
  pl: Float64Array, v: Float64Array, cull: boolean, profileIds: Uint16Array, profileMetric: Uint8Array, code: number, filter: boolean,
): void {
  const ex = v[0], ey = v[1], ez = v[2], wa = (v[5] - v[3]) * (v[6] - v[4]);
  const culled = cull ? -1 : 0; // literals: an imported constant in the phi below would box every value
  const p0 = pl[0], p1 = pl[1], p2 = pl[2], p3 = pl[3], p4 = pl[4], p5 = pl[5], p6 = pl[6], p7 = pl[7];
  const p8 = pl[8], p9 = pl[9], p10 = pl[10], p11 = pl[11], p12 = pl[12], p13 = pl[13], p14 = pl[14], p15 = pl[15];
  const p16 = pl[16], p17 = pl[17], p18 = pl[18], p19 = pl[19], p20 = pl[20], p21 = pl[21], p22 = pl[22], p23 = pl[23];
  for (let i = start; i < end; i++) {
    if (filter && profileMetric[profileIds[i]] !== code) continue;
    const o = i << 2;
    const x = spheres[o], y = spheres[o + 1], z = spheres[o + 2], r = spheres[o + 3];
    const check = x + y + z + r;
    if (check - check !== 0 || r < 0) { // NaN/±∞ anywhere, or a negative radius
      if (mode === 0) out[i] = Number.NaN;
      continue;
    }
    let value: number;
    if (
      (+(p0 * x + p1 * y + p2 * z + p3 < -r) | +(p4 * x + p5 * y + p6 * z + p7 < -r) |
      +(p8 * x + p9 * y + p10 * z + p11 < -r) | +(p12 * x + p13 * y + p14 * z + p15 < -r) |
      +(p16 * x + p17 * y + p18 * z + p19 < -r) | +(p20 * x + p21 * y + p22 * z + p23 < -r)) !== 0) {
      if (mode === 0 || culled > out[i]) out[i] = culled;
      continue;
    } else {
      const dx = x - ex, dy = y - ey, dz = z - ez;
      const d = Math.sqrt(dx * dx + dy * dy + dz * dz);
      if (d === 0) { out[i] = Number.MAX_VALUE; continue; } // eye at the centre (OpenUSD)
      const rr = (r * 1) / d; // referencePlaneDepth is 1 for perspective
      value = (Math.PI * rr * rr) / wa;
    }
    if (mode === 0 || value > out[i]) out[i] = value;
  }
}

/** Orthographic disc area ÷ window area: `π r² / windowArea`. Combined by max. */
export function areaOrthographicKernel(
  spheres: Float32Array, start: number, end: number, out: Float64Array, mode: CombineMode,
  pl: Float64Array, v: Float64Array, cull: boolean, profileIds: Uint16Array, profileMetric: Uint8Array, code: number, filter: boolean,
): void {
  const wa = (v[5] - v[3]) * (v[6] - v[4]);
  const culled = cull ? -1 : 0; // literals: an imported constant in the phi below would box every value
  const p0 = pl[0], p1 = pl[1], p2 = pl[2], p3 = pl[3], p4 = pl[4], p5 = pl[5], p6 = pl[6], p7 = pl[7];
  const p8 = pl[8], p9 = pl[9], p10 = pl[10], p11 = pl[11], p12 = pl[12], p13 = pl[13], p14 = pl[14], p15 = pl[15];
  const p16 = pl[16], p17 = pl[17], p18 = pl[18], p19 = pl[19], p20 = pl[20], p21 = pl[21], p22 = pl[22], p23 = pl[23];
  for (let i = start; i < end; i++) {
    if (filter && profileMetric[profileIds[i]] !== code) continue;
    const o = i << 2;
    const x = spheres[o], y = spheres[o + 1], z = spheres[o + 2], r = spheres[o + 3];
    const check = x + y + z + r;
    if (check - check !== 0 || r < 0) { // NaN/±∞ anywhere, or a negative radius
      if (mode === 0) out[i] = Number.NaN;
      continue;
    }
    let value: number;
    if (
      (+(p0 * x + p1 * y + p2 * z + p3 < -r) | +(p4 * x + p5 * y + p6 * z + p7 < -r) |
      +(p8 * x + p9 * y + p10 * z + p11 < -r) | +(p12 * x + p13 * y + p14 * z + p15 < -r) |
      +(p16 * x + p17 * y + p18 * z + p19 < -r) | +(p20 * x + p21 * y + p22 * z + p23 < -r)) !== 0) {
      if (mode === 0 || culled > out[i]) out[i] = culled;
      continue;
    } else {
      value = (Math.PI * r * r) / wa;
    }
    if (mode === 0 || value > out[i]) out[i] = value;
  }
}
