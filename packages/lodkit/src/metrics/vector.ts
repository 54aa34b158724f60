/**
 * Small shared types and helpers for 3-vectors, quaternions and column-major 4×4 matrices.
 *
 * Convention (one for the whole library, like wgpu-matrix): every function that produces a vector or
 * matrix takes an optional `out` target as its LAST argument and returns it; when `out` is omitted a
 * new `Float64Array` is allocated. Hot paths always pass `out`.
 *
 * Matrices are 16 numbers in column-major order: the memory layout of three.js `Matrix4.elements`,
 * gl-matrix and OpenUSD's row-vector `GfMatrix4d` (translation at indices 12, 13, 14).
 *
 * @module
 */

/** Any array-like of 3 numbers: a tuple, a `Float32Array`, a three.js `Vector3.toArray()`… @category Math */
export type Vec3Like = ArrayLike<number>;
/** Any array-like of 4 numbers, a quaternion `[x, y, z, w]`. @category Math */
export type QuatLike = ArrayLike<number>;
/** Any array-like of 16 numbers, a column-major 4×4 matrix. @category Math */
export type Mat4Like = ArrayLike<number>;

/** The 4×4 identity, column-major (a frozen plain array: typed arrays cannot be frozen). @category Math */
export const IDENTITY_MATRIX: readonly number[] = Object.freeze([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]);

/**
 * Euclidean length of (x, y, z) as `sqrt(x² + y² + z²)`, like OpenUSD's `GfVec3d::GetLength`.
 * Hot paths use this instead of `Math.hypot`, which allocates in V8 (measured on Node 20: about 70
 * bytes and a share of a scavenge per call) and is several times slower.
 * @category Math
 */
export function length3(x: number, y: number, z: number): number {
  return Math.sqrt(x * x + y * y + z * z);
}

/**
 * Rotates the vector (x, y, z) by the unit quaternion `q` and writes it to `out` at `offset`.
 * @category Math
 */
export function rotateVector(q: QuatLike, x: number, y: number, z: number, out: Float64Array, offset = 0): Float64Array {
  const qx = q[0], qy = q[1], qz = q[2], qw = q[3];
  // t = 2 * cross(q.xyz, v); v' = v + w * t + cross(q.xyz, t)
  const tx = 2 * (qy * z - qz * y);
  const ty = 2 * (qz * x - qx * z);
  const tz = 2 * (qx * y - qy * x);
  out[offset] = x + qw * tx + (qy * tz - qz * ty);
  out[offset + 1] = y + qw * ty + (qz * tx - qx * tz);
  out[offset + 2] = z + qw * tz + (qx * ty - qy * tx);
  return out;
}

/**
 * Inverts a column-major 4×4 matrix into `out` and returns `out`, or `null` (leaving `out`
 * unwritten) when the matrix is singular. Returns no determinant on purpose: a double returned from
 * a call V8 does not inline is boxed on the heap; use {@link determinant} when you need it.
 * @category Math
 */
export function invertMatrix(m: Mat4Like, out: Float64Array): Float64Array | null {
  const a00 = m[0], a01 = m[1], a02 = m[2], a03 = m[3];
  const a10 = m[4], a11 = m[5], a12 = m[6], a13 = m[7];
  const a20 = m[8], a21 = m[9], a22 = m[10], a23 = m[11];
  const a30 = m[12], a31 = m[13], a32 = m[14], a33 = m[15];
  const b00 = a00 * a11 - a01 * a10;
  const b01 = a00 * a12 - a02 * a10;
  const b02 = a00 * a13 - a03 * a10;
  const b03 = a01 * a12 - a02 * a11;
  const b04 = a01 * a13 - a03 * a11;
  const b05 = a02 * a13 - a03 * a12;
  const b06 = a20 * a31 - a21 * a30;
  const b07 = a20 * a32 - a22 * a30;
  const b08 = a20 * a33 - a23 * a30;
  const b09 = a21 * a32 - a22 * a31;
  const b10 = a21 * a33 - a23 * a31;
  const b11 = a22 * a33 - a23 * a32;
  const det = b00 * b11 - b01 * b10 + b02 * b09 + b03 * b08 - b04 * b07 + b05 * b06;
  if (det === 0) return null;
  const inv = 1 / det;
  out[0] = (a11 * b11 - a12 * b10 + a13 * b09) * inv;
  out[1] = (a02 * b10 - a01 * b11 - a03 * b09) * inv;
  out[2] = (a31 * b05 - a32 * b04 + a33 * b03) * inv;
  out[3] = (a22 * b04 - a21 * b05 - a23 * b03) * inv;
  out[4] = (a12 * b08 - a10 * b11 - a13 * b07) * inv;
  out[5] = (a00 * b11 - a02 * b08 + a03 * b07) * inv;
  out[6] = (a32 * b02 - a30 * b05 - a33 * b01) * inv;
  out[7] = (a20 * b05 - a22 * b02 + a23 * b01) * inv;
  out[8] = (a10 * b10 - a11 * b08 + a13 * b06) * inv;
  out[9] = (a01 * b08 - a00 * b10 - a03 * b06) * inv;
  out[10] = (a30 * b04 - a31 * b02 + a33 * b00) * inv;
  out[11] = (a21 * b02 - a20 * b04 - a23 * b00) * inv;
  out[12] = (a11 * b07 - a10 * b09 - a12 * b06) * inv;
  out[13] = (a00 * b09 - a01 * b07 + a02 * b06) * inv;
  out[14] = (a31 * b01 - a30 * b03 - a32 * b00) * inv;
  out[15] = (a20 * b03 - a21 * b01 + a22 * b00) * inv;
  return out;
}

/** Determinant of a column-major 4×4 matrix. @category Math */
export function determinant(m: Mat4Like): number {
  const b00 = m[0] * m[5] - m[1] * m[4], b01 = m[0] * m[6] - m[2] * m[4], b02 = m[0] * m[7] - m[3] * m[4];
  const b03 = m[1] * m[6] - m[2] * m[5], b04 = m[1] * m[7] - m[3] * m[5], b05 = m[2] * m[7] - m[3] * m[6];
  const b06 = m[8] * m[13] - m[9] * m[12], b07 = m[8] * m[14] - m[10] * m[12], b08 = m[8] * m[15] - m[11] * m[12];
  const b09 = m[9] * m[14] - m[10] * m[13], b10 = m[9] * m[15] - m[11] * m[13], b11 = m[10] * m[15] - m[11] * m[14];
  return b00 * b11 - b01 * b10 + b02 * b09 + b03 * b08 - b04 * b07 + b05 * b06;
}

/**
 * Multiplies two column-major matrices, `out = a × b` (apply `b` first, then `a`). `out` may alias
 * neither input.
 * @category Math
 */
export function multiplyMatrices(a: Mat4Like, b: Mat4Like, out: Float64Array): Float64Array {
  for (let col = 0; col < 4; col++) {
    const b0 = b[col * 4], b1 = b[col * 4 + 1], b2 = b[col * 4 + 2], b3 = b[col * 4 + 3];
    out[col * 4] = a[0] * b0 + a[4] * b1 + a[8] * b2 + a[12] * b3;
    out[col * 4 + 1] = a[1] * b0 + a[5] * b1 + a[9] * b2 + a[13] * b3;
    out[col * 4 + 2] = a[2] * b0 + a[6] * b1 + a[10] * b2 + a[14] * b3;
    out[col * 4 + 3] = a[3] * b0 + a[7] * b1 + a[11] * b2 + a[15] * b3;
  }
  return out;
}

/**
 * Transforms the point (x, y, z, 1) by a column-major affine matrix (no perspective divide) into
 * `out` at `offset`.
 * @category Math
 */
export function transformPoint(m: Mat4Like, x: number, y: number, z: number, out: Float64Array, offset = 0): Float64Array {
  out[offset] = m[0] * x + m[4] * y + m[8] * z + m[12];
  out[offset + 1] = m[1] * x + m[5] * y + m[9] * z + m[13];
  out[offset + 2] = m[2] * x + m[6] * y + m[10] * z + m[14];
  return out;
}

/** Names the bad argument of {@link lookAtRotation} (its cold path). */
function lookAtInvalid(eye: Vec3Like, target: Vec3Like): never {
  for (let i = 0; i < 3; i++) if (!Number.isFinite(eye[i])) throw new RangeError(`lookAtRotation: eye[${i}] must be a finite number, got ${eye[i]}`);
  for (let i = 0; i < 3; i++) if (!Number.isFinite(target[i])) throw new RangeError(`lookAtRotation: target[${i}] must be a finite number, got ${target[i]}`);
  throw new RangeError('lookAtRotation: eye and target must differ');
}

/**
 * Transforms the point (x, y, z, 1) by a column-major matrix and divides by the resulting w, as
 * OpenUSD's `GfMatrix4d::Transform` does (multiplying by `1 / w`; a w of exactly 0 is left
 * undivided). For an affine matrix (last row 0, 0, 0, 1) this equals {@link transformPoint}; for a
 * projective one it is the point the matrix maps to.
 * @category Math
 */
export function transformPointProjective(m: Mat4Like, x: number, y: number, z: number, out: Float64Array, offset = 0): Float64Array {
  const px = m[0] * x + m[4] * y + m[8] * z + m[12];
  const py = m[1] * x + m[5] * y + m[9] * z + m[13];
  const pz = m[2] * x + m[6] * y + m[10] * z + m[14];
  const w = m[3] * x + m[7] * y + m[11] * z + m[15];
  const inv = w !== 0 ? 1 / w : 1;
  out[offset] = inv * px;
  out[offset + 1] = inv * py;
  out[offset + 2] = inv * pz;
  return out;
}

/**
 * The unit quaternion of a camera at `eye` looking at `target` with `up` as the approximate up
 * direction (the camera looks down its local −Z with +Y up, as in OpenUSD, OpenGL and three.js).
 *
 * @example
 * ```ts
 * const rotation = lookAtRotation([0, 2, 10], [0, 0, 0]);
 * const frustum = Frustum.perspective({ fovY: 60, aspect: 16 / 9, near: 0.1, far: 500, position: [0, 2, 10], rotation });
 * ```
 * @category Math
 */
export function lookAtRotation(eye: Vec3Like, target: Vec3Like, up: Vec3Like = [0, 1, 0], out: Float64Array = new Float64Array(4)): Float64Array {
  // Camera basis: z axis points from the target back to the eye.
  let zx = eye[0] - target[0], zy = eye[1] - target[1], zz = eye[2] - target[2];
  let len = Math.hypot(zx, zy, zz);
  if (!(len > 0 && len < Infinity)) lookAtInvalid(eye, target);
  zx /= len; zy /= len; zz /= len;
  if (!(up[0] - up[0] + (up[1] - up[1]) + (up[2] - up[2]) === 0)) throw new RangeError(`lookAtRotation: up must be 3 finite numbers, got [${up[0]}, ${up[1]}, ${up[2]}]`);
  let xx = up[1] * zz - up[2] * zy, xy = up[2] * zx - up[0] * zz, xz = up[0] * zy - up[1] * zx;
  len = Math.hypot(xx, xy, xz);
  if (!(len > 1e-12)) {
    // up is parallel to the view direction: pick any perpendicular axis.
    if (Math.abs(zx) < 0.9) { xx = 0; xy = zz; xz = -zy; } else { xx = -zz; xy = 0; xz = zx; }
    len = Math.hypot(xx, xy, xz);
  }
  xx /= len; xy /= len; xz /= len;
  const yx = zy * xz - zz * xy, yy = zz * xx - zx * xz, yz = zx * xy - zy * xx;
  return rotationFromAxes(xx, xy, xz, yx, yy, yz, zx, zy, zz, out);
}

/**
 * Inverts a column-major 4×4 matrix the way OpenUSD's `GfMatrix4d::GetInverse` does, operation for
 * operation (2×2 minors of the first two columns, 3×3 cofactors, 2×2 minors of the last two, a
 * reciprocal of the determinant), so that results agree with OpenUSD to the last bit where a
 * comparison or a clamp depends on them. Writes the inverse to `out` and the determinant to
 * `det[0]` (a typed array: a returned double would be boxed). When |det| ≤ `eps` it writes
 * OpenUSD's fallback, a scale by `FLT_MAX` (3.4028234663852886e38), and returns false.
 * @category Math
 */
export function invertMatrixGf(m: Mat4Like, out: Float64Array, det: Float64Array, eps = 0): boolean {
  // Names follow the row-vector matrix OpenUSD stores: r{row}{col} is m[row * 4 + col].
  const r00 = m[0], r01 = m[1], r10 = m[4], r11 = m[5], r20 = m[8], r21 = m[9], r30 = m[12], r31 = m[13];
  const r02 = m[2], r03 = m[3], r12 = m[6], r13 = m[7], r22 = m[10], r23 = m[11], r32 = m[14], r33 = m[15];
  // Minors of the left two columns (rows i, j).
  let a01 = r00 * r11 - r10 * r01, a02 = r00 * r21 - r20 * r01, a03 = r00 * r31 - r30 * r01;
  let a12 = r10 * r21 - r20 * r11, a13 = r10 * r31 - r30 * r11, a23 = r20 * r31 - r30 * r21;
  const c33 = r02 * a12 - r12 * a02 + r22 * a01;
  const c23 = r12 * a03 - r32 * a01 - r02 * a13;
  const c13 = r02 * a23 - r22 * a03 + r32 * a02;
  const c03 = r22 * a13 - r32 * a12 - r12 * a23;
  const c32 = r13 * a02 - r23 * a01 - r03 * a12;
  const c22 = r03 * a13 - r13 * a03 + r33 * a01;
  const c12 = r23 * a03 - r33 * a02 - r03 * a23;
  const c02 = r13 * a23 - r23 * a13 + r33 * a12;
  // Minors of the right two columns.
  a01 = r02 * r13 - r12 * r03; a02 = r02 * r23 - r22 * r03; a03 = r02 * r33 - r32 * r03;
  a12 = r12 * r23 - r22 * r13; a13 = r12 * r33 - r32 * r13; a23 = r22 * r33 - r32 * r23;
  const c30 = r11 * a02 - r21 * a01 - r01 * a12;
  const c20 = r01 * a13 - r11 * a03 + r31 * a01;
  const c10 = r21 * a03 - r31 * a02 - r01 * a23;
  const c00 = r11 * a23 - r21 * a13 + r31 * a12;
  const c31 = r00 * a12 - r10 * a02 + r20 * a01;
  const c21 = r10 * a03 - r30 * a01 - r00 * a13;
  const c11 = r00 * a23 - r20 * a03 + r30 * a02;
  const c01 = r20 * a13 - r30 * a12 - r10 * a23;
  const d = r30 * c30 + r20 * c20 + r10 * c10 + r00 * c00;
  det[0] = d;
  if (!(Math.abs(d) > eps)) {
    out.fill(0);
    out[0] = 3.4028234663852886e38; out[5] = 3.4028234663852886e38; out[10] = 3.4028234663852886e38; out[15] = 1;
    return false;
  }
  const k = 1 / d;
  // The inverse is the transposed cofactor matrix times 1/det.
  out[0] = c00 * k; out[1] = c10 * k; out[2] = c20 * k; out[3] = c30 * k;
  out[4] = c01 * k; out[5] = c11 * k; out[6] = c21 * k; out[7] = c31 * k;
  out[8] = c02 * k; out[9] = c12 * k; out[10] = c22 * k; out[11] = c32 * k;
  out[12] = c03 * k; out[13] = c13 * k; out[14] = c23 * k; out[15] = c33 * k;
  return true;
}

/**
 * The unit quaternion `[x, y, z, w]` of the rotation whose matrix has the orthonormal axes
 * x = (xx, xy, xz), y = (yx, yy, yz), z = (zx, zy, zz) as its columns (Shepperd's method: the
 * largest of the trace and the diagonal picks the branch, so no division by a small number).
 * What {@link lookAtRotation} ends with, and how an engine's camera basis becomes a lodkit rotation.
 * @example
 * ```ts
 * rotationFromAxes(1, 0, 0, 0, 1, 0, 0, 0, 1, new Float64Array(4)); // [0, 0, 0, 1]: no rotation
 * ```
 * @category Math
 */
export function rotationFromAxes(
  xx: number, xy: number, xz: number, yx: number, yy: number, yz: number, zx: number, zy: number, zz: number,
  out: Float64Array = new Float64Array(4),
): Float64Array {
  const trace = xx + yy + zz;
  let qx: number, qy: number, qz: number, qw: number;
  if (trace > 0) {
    const s = 0.5 / Math.sqrt(trace + 1);
    qw = 0.25 / s; qx = (yz - zy) * s; qy = (zx - xz) * s; qz = (xy - yx) * s;
  } else if (xx > yy && xx > zz) {
    const s = 2 * Math.sqrt(1 + xx - yy - zz);
    qw = (yz - zy) / s; qx = 0.25 * s; qy = (yx + xy) / s; qz = (zx + xz) / s;
  } else if (yy > zz) {
    const s = 2 * Math.sqrt(1 + yy - xx - zz);
    qw = (zx - xz) / s; qx = (yx + xy) / s; qy = 0.25 * s; qz = (zy + yz) / s;
  } else {
    const s = 2 * Math.sqrt(1 + zz - xx - yy);
    qw = (xy - yx) / s; qx = (zx + xz) / s; qy = (zy + yz) / s; qz = 0.25 * s;
  }
  const n = Math.hypot(qx, qy, qz, qw);
  out[0] = qx / n; out[1] = qy / n; out[2] = qz / n; out[3] = qw / n;
  return out;
}
