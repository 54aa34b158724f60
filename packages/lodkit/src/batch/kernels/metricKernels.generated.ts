// Generated from scripts/templates/metric.template.ts by scripts/generate.mjs: do not edit.
// Variants: distanceKernel (kind distance); heightPerspectiveKernel (kind heightPerspective); heightOrthographicKernel (kind heightOrthographic); areaPerspectiveKernel (kind areaPerspective); areaOrthographicKernel (kind areaOrthographic).
/** How a kernel combines its value with what `out` holds: 0 overwrite, 1 keep the max, 2 keep the min (metricKernels.ts `Combine`). */
export type CombineMode = 0 | 1 | 2;

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
