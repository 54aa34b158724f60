/**
 * Test-side reference formulas, written from the specifications (OpenUSD's documentation and
 * tests, the seeds), independently of the code under test.
 */

/** OpenUSD's screen-size LOD rule as its test writes it: LOD j while size > t[j], blending below. */
export function expectedScreenLod(size: number, thresholds: number[], blends: number[]): number {
  for (let j = 0; j < thresholds.length; j++) {
    const t = thresholds[j];
    if (size > t) return j;
    if (j < blends.length) {
      const lower = j + 1 < thresholds.length ? Math.max(blends[j], thresholds[j + 1]) : blends[j];
      if (size > lower) return j + (t - size) / (t - lower);
    }
  }
  return thresholds.length;
}

/** OpenUSD's distance LOD rule: LOD j while d < t[j], blending in [t[j], blend[j]). */
export function expectedDistanceLod(d: number, thresholds: number[], blends: number[]): number {
  for (let j = 0; j < thresholds.length; j++) {
    const t = thresholds[j];
    if (d < t) return j;
    if (j < blends.length) {
      const upper = j + 1 < thresholds.length ? Math.min(blends[j], thresholds[j + 1]) : blends[j];
      if (d < upper) return j + (d - t) / (upper - t);
    }
  }
  return thresholds.length;
}

/** Column-major translation matrix. */
export function translation(x: number, y: number, z: number): number[] {
  return [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, x, y, z, 1];
}

/** Quaternion → column-major rotation matrix (plain formula). */
export function quatToMatrix(q: ArrayLike<number>, tx = 0, ty = 0, tz = 0): number[] {
  const [x, y, z, w] = [q[0], q[1], q[2], q[3]];
  return [
    1 - 2 * (y * y + z * z), 2 * (x * y + z * w), 2 * (x * z - y * w), 0,
    2 * (x * y - z * w), 1 - 2 * (x * x + z * z), 2 * (y * z + x * w), 0,
    2 * (x * z + y * w), 2 * (y * z - x * w), 1 - 2 * (x * x + y * y), 0,
    tx, ty, tz, 1,
  ];
}

/** Hamilton product a ⊗ b. */
export function quatMultiply(a: ArrayLike<number>, b: ArrayLike<number>): number[] {
  return [
    a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1],
    a[3] * b[1] - a[0] * b[2] + a[1] * b[3] + a[2] * b[0],
    a[3] * b[2] + a[0] * b[1] - a[1] * b[0] + a[2] * b[3],
    a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2],
  ];
}

/** Column-major product a × b of plain arrays. */
export function matMul(a: ArrayLike<number>, b: ArrayLike<number>): number[] {
  const out = new Array<number>(16).fill(0);
  for (let c = 0; c < 4; c++) for (let r = 0; r < 4; r++) {
    let s = 0;
    for (let k = 0; k < 4; k++) s += a[k * 4 + r] * b[c * 4 + k];
    out[c * 4 + r] = s;
  }
  return out;
}

/** Applies a column-major matrix to (x, y, z, 1). */
export function apply(m: ArrayLike<number>, p: ArrayLike<number>): number[] {
  return [0, 1, 2, 3].map((r) => m[r] * p[0] + m[4 + r] * p[1] + m[8 + r] * p[2] + m[12 + r]);
}

/** Unit quaternion from any 4 numbers not all ~0. */
export function normalizeQuat(q: number[]): number[] {
  const n = Math.hypot(q[0], q[1], q[2], q[3]);
  return q.map((v) => v / n);
}

/**
 * The rotation OpenUSD's `GfRotation(GfQuatd(w, x, y, z))` stands for, as a column-major matrix:
 * axis = (x, y, z) / |(x, y, z)|, angle = 2·acos(clamp(w)) from the raw w (Rodrigues' formula);
 * the identity when |(x, y, z)| ≤ 1e-10. Written from GfRotation's documented construction.
 */
export function gfRotationMatrix(q: ArrayLike<number>): number[] {
  const len = Math.hypot(q[0], q[1], q[2]);
  if (!(len > 1e-10)) return [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];
  const [x, y, z] = [q[0] / len, q[1] / len, q[2] / len];
  const angle = 2 * Math.acos(Math.min(1, Math.max(-1, q[3])));
  const c = Math.cos(angle), s = Math.sin(angle), t = 1 - c;
  return [
    t * x * x + c, t * x * y + s * z, t * x * z - s * y, 0,
    t * x * y - s * z, t * y * y + c, t * y * z + s * x, 0,
    t * x * z + s * y, t * y * z - s * x, t * z * z + c, 0,
    0, 0, 0, 1,
  ];
}
