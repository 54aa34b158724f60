// (This header, up to the first `//@` line, is the template's own note; it is not emitted.)
// The per-view metric kernels, written once: read a packed sphere (x, y, z, r), reject NaN/±∞ and
// negative radii, test the six planes (OR-ed as numbers, one branch), compute the metric and
// combine it with what `out` holds (write, max for screen metrics, min for distances).
// scripts/generate.mjs expands it into src/batch/kernels/metricKernels.generated.ts, one plain
// monomorphic function per variant; field `kind`: 'distance', 'heightPerspective',
// 'heightOrthographic', 'areaPerspective', 'areaOrthographic'. The formulas are those of
// src/metrics/sphereMetrics.ts, same operations in the same order; metricKernels.ts holds the
// contract (culled values, NaN, why the special values are stored and never kept in a variable).
//@if kind === 'distance'

/**
 * Eye-to-surface distance (`max(|c − eye| − r, 0)`), combined by min. Culled spheres give `+∞` when
 * `cull` is true. Objects whose profile metric is not `code` are skipped when `filter` is true.
 */
//@elif kind === 'heightPerspective'

/**
 * Perspective diameter ÷ window height (× `scale` pixels for the pixels metric): `(2r)/(d·wh)·scale`,
 * `+∞` with the eye inside the sphere. Combined by max.
 */
//@elif kind === 'heightOrthographic'

/** Orthographic diameter ÷ window height (× `scale`): `(2r)/wh·scale`. Combined by max. */
//@elif kind === 'areaPerspective'

/** Perspective projected-disc area ÷ window area (OpenUSD projectedSphere). Combined by max. */
//@elif kind === 'areaOrthographic'

/** Orthographic disc area ÷ window area: `π r² / windowArea`. Combined by max. */
//@endif
export function {{= name}}(
  spheres: Float32Array, start: number, end: number, out: Float64Array, mode: CombineMode,
  pl: Float64Array, v: Float64Array, cull: boolean, profileIds: Uint16Array, profileMetric: Uint8Array, code: number, filter: boolean,
): void {
//@if kind === 'distance'
  const ex = v[0], ey = v[1], ez = v[2];
//@else
//@if kind === 'heightPerspective'
  const ex = v[0], ey = v[1], ez = v[2], wh = v[6] - v[4], scale = v[7];
//@elif kind === 'heightOrthographic'
  const wh = v[6] - v[4], scale = v[7];
//@elif kind === 'areaPerspective'
  const ex = v[0], ey = v[1], ez = v[2], wa = (v[5] - v[3]) * (v[6] - v[4]);
//@else
  const wa = (v[5] - v[3]) * (v[6] - v[4]);
//@endif
  const culled = cull ? -1 : 0; // literals: an imported constant in the phi below would box every value
//@endif
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
//@if kind === 'distance'
    if (cull && (
      (+(p0 * x + p1 * y + p2 * z + p3 < -r) | +(p4 * x + p5 * y + p6 * z + p7 < -r) |
      +(p8 * x + p9 * y + p10 * z + p11 < -r) | +(p12 * x + p13 * y + p14 * z + p15 < -r) |
      +(p16 * x + p17 * y + p18 * z + p19 < -r) | +(p20 * x + p21 * y + p22 * z + p23 < -r)) !== 0)) {
      if (mode === 0) out[i] = Number.POSITIVE_INFINITY;
      continue;
//@else
    if (
      (+(p0 * x + p1 * y + p2 * z + p3 < -r) | +(p4 * x + p5 * y + p6 * z + p7 < -r) |
      +(p8 * x + p9 * y + p10 * z + p11 < -r) | +(p12 * x + p13 * y + p14 * z + p15 < -r) |
      +(p16 * x + p17 * y + p18 * z + p19 < -r) | +(p20 * x + p21 * y + p22 * z + p23 < -r)) !== 0) {
      if (mode === 0 || culled > out[i]) out[i] = culled;
      continue;
//@endif
    } else {
//@if kind === 'distance'
      const dx = x - ex, dy = y - ey, dz = z - ez;
      const d = Math.sqrt(dx * dx + dy * dy + dz * dz) - r;
      value = d > 0 ? d : 0;
//@elif kind === 'heightPerspective'
      const dx = x - ex, dy = y - ey, dz = z - ez;
      const d = Math.sqrt(dx * dx + dy * dy + dz * dz);
      if (d <= r) { out[i] = Number.POSITIVE_INFINITY; continue; } // eye inside the sphere
      value = ((2 * r) / (d * wh)) * scale;
//@elif kind === 'heightOrthographic'
      value = ((2 * r) / wh) * scale;
//@elif kind === 'areaPerspective'
      const dx = x - ex, dy = y - ey, dz = z - ez;
      const d = Math.sqrt(dx * dx + dy * dy + dz * dz);
      if (d === 0) { out[i] = Number.MAX_VALUE; continue; } // eye at the centre (OpenUSD)
      const rr = (r * 1) / d; // referencePlaneDepth is 1 for perspective
      value = (Math.PI * rr * rr) / wa;
//@else
      value = (Math.PI * r * r) / wa;
//@endif
    }
    if (mode === 0 || value {{= kind === 'distance' ? '<' : '>'}} out[i]) out[i] = value;
  }
}
