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
 * - Special values are written as `Number.NaN` / `Number.POSITIVE_INFINITY`, never the globals
 *   `NaN` / `Infinity`: in Node 20 (V8 11.3) a phi between the global constant and a computed double
 *   makes TurboFan box every value into a heap number — ~600 scavenges per 400 calls of a 100k loop
 *   in a micro-benchmark, none with the `Number.*` spelling. The allocation test catches regressions.
 *
 * @module
 */

/** Value a screen-metric kernel writes for a culled sphere when culling is on (real sizes are ≥ 0). */
export const CULLED_SIZE = -1;

/** How a kernel combines its value with what `out` holds: overwrite, keep the max, keep the min. */
export const Combine = { Write: 0, Max: 1, Min: 2 } as const;
/** One of the {@link Combine} values. */
export type CombineMode = 0 | 1 | 2;

/** Arguments shared by every metric kernel, filled once per view (module scratch, no allocation). */
export interface KernelView {
  planes: Float64Array;
  ex: number;
  ey: number;
  ez: number;
  windowHeight: number;
  windowArea: number;
  referencePlaneDepth: number;
  /** Pixels for the 'pixels' metric, 1 otherwise. */
  scale: number;
}

/**
 * Eye-to-surface distance (`max(|c − eye| − r, 0)`), combined by min. Culled spheres give `+∞` when
 * `cull` is true. Objects whose profile metric is not `code` are skipped when `filter` is true.
 */
export function distanceKernel(
  spheres: Float32Array, start: number, end: number, out: Float64Array, mode: CombineMode,
  v: KernelView, cull: boolean, profileIds: Uint16Array, profileMetric: Uint8Array, code: number, filter: boolean,
): void {
  const pl = v.planes, ex = v.ex, ey = v.ey, ez = v.ez;
  const p0 = pl[0], p1 = pl[1], p2 = pl[2], p3 = pl[3], p4 = pl[4], p5 = pl[5], p6 = pl[6], p7 = pl[7];
  const p8 = pl[8], p9 = pl[9], p10 = pl[10], p11 = pl[11], p12 = pl[12], p13 = pl[13], p14 = pl[14], p15 = pl[15];
  const p16 = pl[16], p17 = pl[17], p18 = pl[18], p19 = pl[19], p20 = pl[20], p21 = pl[21], p22 = pl[22], p23 = pl[23];
  for (let i = start; i < end; i++) {
    if (filter && profileMetric[profileIds[i]] !== code) continue;
    const o = i << 2;
    const x = spheres[o], y = spheres[o + 1], z = spheres[o + 2], r = spheres[o + 3];
    let value: number;
    const check = x + y + z + r;
    if (check - check !== 0 || r < 0) {
      value = Number.NaN;
    } else if (cull && (
      p0 * x + p1 * y + p2 * z + p3 < -r || p4 * x + p5 * y + p6 * z + p7 < -r ||
      p8 * x + p9 * y + p10 * z + p11 < -r || p12 * x + p13 * y + p14 * z + p15 < -r ||
      p16 * x + p17 * y + p18 * z + p19 < -r || p20 * x + p21 * y + p22 * z + p23 < -r)) {
      value = Number.POSITIVE_INFINITY;
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
  v: KernelView, cull: boolean, profileIds: Uint16Array, profileMetric: Uint8Array, code: number, filter: boolean,
): void {
  const pl = v.planes, ex = v.ex, ey = v.ey, ez = v.ez, wh = v.windowHeight, scale = v.scale;
  const culled = cull ? -1 : 0; // literals: an imported constant in the phi below would box every value
  const p0 = pl[0], p1 = pl[1], p2 = pl[2], p3 = pl[3], p4 = pl[4], p5 = pl[5], p6 = pl[6], p7 = pl[7];
  const p8 = pl[8], p9 = pl[9], p10 = pl[10], p11 = pl[11], p12 = pl[12], p13 = pl[13], p14 = pl[14], p15 = pl[15];
  const p16 = pl[16], p17 = pl[17], p18 = pl[18], p19 = pl[19], p20 = pl[20], p21 = pl[21], p22 = pl[22], p23 = pl[23];
  for (let i = start; i < end; i++) {
    if (filter && profileMetric[profileIds[i]] !== code) continue;
    const o = i << 2;
    const x = spheres[o], y = spheres[o + 1], z = spheres[o + 2], r = spheres[o + 3];
    let value: number;
    const check = x + y + z + r;
    if (check - check !== 0 || r < 0) {
      value = Number.NaN;
    } else if (
      p0 * x + p1 * y + p2 * z + p3 < -r || p4 * x + p5 * y + p6 * z + p7 < -r ||
      p8 * x + p9 * y + p10 * z + p11 < -r || p12 * x + p13 * y + p14 * z + p15 < -r ||
      p16 * x + p17 * y + p18 * z + p19 < -r || p20 * x + p21 * y + p22 * z + p23 < -r) {
      value = culled;
    } else {
      const dx = x - ex, dy = y - ey, dz = z - ez;
      const d = Math.sqrt(dx * dx + dy * dy + dz * dz);
      value = d <= r ? Number.POSITIVE_INFINITY : ((2 * r) / (d * wh)) * scale;
    }
    if (mode === 0 || value > out[i]) out[i] = value;
  }
}

/** Orthographic diameter ÷ window height (× `scale`): `(2r)/wh·scale`. Combined by max. */
export function heightOrthographicKernel(
  spheres: Float32Array, start: number, end: number, out: Float64Array, mode: CombineMode,
  v: KernelView, cull: boolean, profileIds: Uint16Array, profileMetric: Uint8Array, code: number, filter: boolean,
): void {
  const pl = v.planes, wh = v.windowHeight, scale = v.scale;
  const culled = cull ? -1 : 0; // literals: an imported constant in the phi below would box every value
  const p0 = pl[0], p1 = pl[1], p2 = pl[2], p3 = pl[3], p4 = pl[4], p5 = pl[5], p6 = pl[6], p7 = pl[7];
  const p8 = pl[8], p9 = pl[9], p10 = pl[10], p11 = pl[11], p12 = pl[12], p13 = pl[13], p14 = pl[14], p15 = pl[15];
  const p16 = pl[16], p17 = pl[17], p18 = pl[18], p19 = pl[19], p20 = pl[20], p21 = pl[21], p22 = pl[22], p23 = pl[23];
  for (let i = start; i < end; i++) {
    if (filter && profileMetric[profileIds[i]] !== code) continue;
    const o = i << 2;
    const x = spheres[o], y = spheres[o + 1], z = spheres[o + 2], r = spheres[o + 3];
    let value: number;
    const check = x + y + z + r;
    if (check - check !== 0 || r < 0) {
      value = Number.NaN;
    } else if (
      p0 * x + p1 * y + p2 * z + p3 < -r || p4 * x + p5 * y + p6 * z + p7 < -r ||
      p8 * x + p9 * y + p10 * z + p11 < -r || p12 * x + p13 * y + p14 * z + p15 < -r ||
      p16 * x + p17 * y + p18 * z + p19 < -r || p20 * x + p21 * y + p22 * z + p23 < -r) {
      value = culled;
    } else {
      value = ((2 * r) / wh) * scale;
    }
    if (mode === 0 || value > out[i]) out[i] = value;
  }
}

/** Perspective projected-disc area ÷ window area (OpenUSD projectedSphere). Combined by max. */
export function areaPerspectiveKernel(
  spheres: Float32Array, start: number, end: number, out: Float64Array, mode: CombineMode,
  v: KernelView, cull: boolean, profileIds: Uint16Array, profileMetric: Uint8Array, code: number, filter: boolean,
): void {
  const pl = v.planes, ex = v.ex, ey = v.ey, ez = v.ez, wa = v.windowArea, ref = v.referencePlaneDepth;
  const culled = cull ? -1 : 0; // literals: an imported constant in the phi below would box every value
  const p0 = pl[0], p1 = pl[1], p2 = pl[2], p3 = pl[3], p4 = pl[4], p5 = pl[5], p6 = pl[6], p7 = pl[7];
  const p8 = pl[8], p9 = pl[9], p10 = pl[10], p11 = pl[11], p12 = pl[12], p13 = pl[13], p14 = pl[14], p15 = pl[15];
  const p16 = pl[16], p17 = pl[17], p18 = pl[18], p19 = pl[19], p20 = pl[20], p21 = pl[21], p22 = pl[22], p23 = pl[23];
  for (let i = start; i < end; i++) {
    if (filter && profileMetric[profileIds[i]] !== code) continue;
    const o = i << 2;
    const x = spheres[o], y = spheres[o + 1], z = spheres[o + 2], r = spheres[o + 3];
    let value: number;
    const check = x + y + z + r;
    if (check - check !== 0 || r < 0) {
      value = Number.NaN;
    } else if (
      p0 * x + p1 * y + p2 * z + p3 < -r || p4 * x + p5 * y + p6 * z + p7 < -r ||
      p8 * x + p9 * y + p10 * z + p11 < -r || p12 * x + p13 * y + p14 * z + p15 < -r ||
      p16 * x + p17 * y + p18 * z + p19 < -r || p20 * x + p21 * y + p22 * z + p23 < -r) {
      value = culled;
    } else {
      const dx = x - ex, dy = y - ey, dz = z - ez;
      const d = Math.sqrt(dx * dx + dy * dy + dz * dz);
      if (d === 0) {
        value = Number.MAX_VALUE;
      } else {
        const rr = (r * ref) / d;
        value = (Math.PI * rr * rr) / wa;
      }
    }
    if (mode === 0 || value > out[i]) out[i] = value;
  }
}

/** Orthographic disc area ÷ window area: `π r² / windowArea`. Combined by max. */
export function areaOrthographicKernel(
  spheres: Float32Array, start: number, end: number, out: Float64Array, mode: CombineMode,
  v: KernelView, cull: boolean, profileIds: Uint16Array, profileMetric: Uint8Array, code: number, filter: boolean,
): void {
  const pl = v.planes, wa = v.windowArea;
  const culled = cull ? -1 : 0; // literals: an imported constant in the phi below would box every value
  const p0 = pl[0], p1 = pl[1], p2 = pl[2], p3 = pl[3], p4 = pl[4], p5 = pl[5], p6 = pl[6], p7 = pl[7];
  const p8 = pl[8], p9 = pl[9], p10 = pl[10], p11 = pl[11], p12 = pl[12], p13 = pl[13], p14 = pl[14], p15 = pl[15];
  const p16 = pl[16], p17 = pl[17], p18 = pl[18], p19 = pl[19], p20 = pl[20], p21 = pl[21], p22 = pl[22], p23 = pl[23];
  for (let i = start; i < end; i++) {
    if (filter && profileMetric[profileIds[i]] !== code) continue;
    const o = i << 2;
    const x = spheres[o], y = spheres[o + 1], z = spheres[o + 2], r = spheres[o + 3];
    let value: number;
    const check = x + y + z + r;
    if (check - check !== 0 || r < 0) {
      value = Number.NaN;
    } else if (
      p0 * x + p1 * y + p2 * z + p3 < -r || p4 * x + p5 * y + p6 * z + p7 < -r ||
      p8 * x + p9 * y + p10 * z + p11 < -r || p12 * x + p13 * y + p14 * z + p15 < -r ||
      p16 * x + p17 * y + p18 * z + p19 < -r || p20 * x + p21 * y + p22 * z + p23 < -r) {
      value = culled;
    } else {
      value = (Math.PI * r * r) / wa;
    }
    if (mode === 0 || value > out[i]) out[i] = value;
  }
}
