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

/**
 * The camera a reference formula needs, read from a frustum's INPUTS only (the values it was set
 * with), never from what lodkit derived from them (planes, matrices, window sizes).
 */
export interface ReferenceCamera {
  position: ArrayLike<number>;
  rotation: ArrayLike<number>;
  windowMin: ArrayLike<number>;
  windowMax: ArrayLike<number>;
  near: number;
  far: number;
  isPerspective: boolean;
}

/** The sphere centre in camera space (camera looks down −Z): Rᵀ (c − eye), R from the quaternion. */
export function toCameraSpace(cam: ReferenceCamera, x: number, y: number, z: number): [number, number, number] {
  const m = quatToMatrix(cam.rotation);
  const v = [x - cam.position[0], y - cam.position[1], z - cam.position[2]];
  const dot = (c: number) => m[c * 4] * v[0] + m[c * 4 + 1] * v[1] + m[c * 4 + 2] * v[2];
  return [dot(0), dot(1), dot(2)];
}

/**
 * True when the sphere lies wholly outside one of the six frustum planes, written from the frustum's
 * definition: a perspective window `[l, r] × [b, t]` on the plane at depth 1 (side planes through
 * the eye), an orthographic one as a box; near/far as depths along −Z.
 */
export function referenceCulls(cam: ReferenceCamera, x: number, y: number, z: number, r: number): boolean {
  const [px, py, pz] = toCameraSpace(cam, x, y, z);
  const depth = -pz;
  const l = cam.windowMin[0], b = cam.windowMin[1], rt = cam.windowMax[0], t = cam.windowMax[1];
  const distances = cam.isPerspective
    ? [
      (px - l * depth) / Math.sqrt(1 + l * l), (rt * depth - px) / Math.sqrt(1 + rt * rt),
      (py - b * depth) / Math.sqrt(1 + b * b), (t * depth - py) / Math.sqrt(1 + t * t),
      depth - cam.near, cam.far - depth,
    ]
    : [px - l, rt - px, py - b, t - py, depth - cam.near, cam.far - depth];
  return distances.some((d) => d < -r);
}

function eyeDistance(cam: ReferenceCamera, x: number, y: number, z: number): number {
  const dx = x - cam.position[0], dy = y - cam.position[1], dz = z - cam.position[2];
  return Math.sqrt(dx * dx + dy * dy + dz * dz);
}

/**
 * MSFS's screen height of a bounding sphere: diameter / (distance × window height) in perspective
 * (+∞ with the eye inside the sphere), diameter / window height orthographic; 0 when culled.
 */
export function referenceScreenHeight(cam: ReferenceCamera, x: number, y: number, z: number, r: number): number {
  if (referenceCulls(cam, x, y, z, r)) return 0;
  const height = cam.windowMax[1] - cam.windowMin[1];
  if (!cam.isPerspective) return (2 * r) / height;
  const d = eyeDistance(cam, x, y, z);
  return d > r ? (2 * r) / (d * height) : Infinity;
}

/** MotoGP's pixel diameter: screen height × viewport height in pixels. */
export function referencePixelDiameter(cam: ReferenceCamera, x: number, y: number, z: number, r: number, viewportPx: number): number {
  return referenceScreenHeight(cam, x, y, z, r) * viewportPx;
}

/**
 * OpenUSD's projectedSphere: the disc π (r / d)² on the depth-1 window (π r² orthographic) over the
 * window's area; Number.MAX_VALUE with the eye exactly at the centre (d = 0; a d that only makes
 * the formula overflow gives its +∞); 0 when culled.
 */
export function referenceScreenArea(cam: ReferenceCamera, x: number, y: number, z: number, r: number): number {
  if (referenceCulls(cam, x, y, z, r)) return 0;
  const area = (cam.windowMax[0] - cam.windowMin[0]) * (cam.windowMax[1] - cam.windowMin[1]);
  if (!cam.isPerspective) return (Math.PI * r * r) / area;
  const d = eyeDistance(cam, x, y, z);
  if (d === 0) return Number.MAX_VALUE;
  return (Math.PI * (r / d) * (r / d)) / area;
}

/** Distance from the eye to the sphere's closest point, 0 inside; never culled. */
export function referenceDistance(cam: ReferenceCamera, x: number, y: number, z: number, r: number): number {
  return Math.max(eyeDistance(cam, x, y, z) - r, 0);
}

/** lodkit's thresholds are float32 (OpenUSD's VtFloatArray): the values a reference rule compares with. */
export function float32(values: readonly number[]): number[] {
  return values.map((v) => Math.fround(v));
}
