/**
 * The tests' own rule for what a Babylon camera should make lodkit choose, written from the
 * camera's parameters (fov, fovMode, render size, ortho extents, handedness) without lodkit's
 * frustum or metrics: the camera frame from eye, target and up; the window from fov or the ortho
 * extents; sizes by the metric formulas; levels by the threshold rule (descending sizes: the first
 * threshold the float32 size exceeds; ascending distances: the first the distance is below).
 */
export interface CameraModel {
  eye: number[];
  target: number[];
  up?: number[];
  rightHanded: boolean;
  ortho?: { left: number; right: number; bottom: number; top: number };
  /** Field of view, radians. */
  fov?: number;
  horizontal?: boolean;
  width: number;
  height: number;
  near: number;
  far: number;
}

export type Metric = 'pixels' | 'screenHeight' | 'screenArea' | 'distance';

const sub = (a: number[], b: number[]) => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const dot = (a: number[], b: number[]) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const cross = (a: number[], b: number[]) => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
const unit = (a: number[]) => { const l = Math.sqrt(dot(a, a)); return [a[0] / l, a[1] / l, a[2] / l]; };

/** Half extents of the perspective window at distance 1 (or the ortho window), in the camera's right/up directions. */
export function windowOf(c: CameraModel): { x0: number; x1: number; y0: number; y1: number } {
  if (c.ortho) return { x0: c.ortho.left, x1: c.ortho.right, y0: c.ortho.bottom, y1: c.ortho.top };
  const aspect = c.width / c.height;
  const t = Math.tan(c.fov! / 2);
  const hh = c.horizontal ? t / aspect : t;
  const hw = c.horizontal ? t : t * aspect;
  return { x0: -hw, x1: hw, y0: -hh, y1: hh };
}

/**
 * Camera coordinates of a point: x along the screen's right, y up, z forward. A left-handed frame
 * has right = up × forward (x = y × z), a right-handed one right = forward × up.
 */
export function cameraCoords(c: CameraModel, p: number[]): number[] {
  const f = unit(sub(c.target, c.eye));
  const up0 = c.up ?? [0, 1, 0];
  const r = unit(c.rightHanded ? cross(f, up0) : cross(up0, f));
  const u = c.rightHanded ? cross(r, f) : cross(f, r);
  const d = sub(p, c.eye);
  return [dot(d, r), dot(d, u), dot(d, f)];
}

/** Signed distances of a point to the six planes (positive inside), unit normals. */
function planeDistances(c: CameraModel, q: number[]): number[] {
  const w = windowOf(c);
  const [x, y, z] = q;
  if (c.ortho) return [x - w.x0, w.x1 - x, y - w.y0, w.y1 - y, z - c.near, c.far - z];
  const side = (a: number, b: number, k: number) => (a - k * b) / Math.sqrt(1 + k * k);
  return [side(x, z, w.x0), -side(x, z, w.x1), side(y, z, w.y0), -side(y, z, w.y1), z - c.near, c.far - z];
}

/** The value a metric gives a sphere, or null when the sphere is outside (or too near a plane to call). */
export function sizeOf(c: CameraModel, metric: Metric, center: number[], radius: number): number | null | 'culled' {
  const q = cameraCoords(c, center);
  const d = Math.sqrt(dot(sub(center, c.eye), sub(center, c.eye)));
  if (metric === 'distance') return Math.max(d - radius, 0);
  const planes = planeDistances(c, q);
  const tol = 1e-4 * Math.max(1, d);
  if (planes.some((s) => Math.abs(s + radius) < tol)) return null;
  if (planes.some((s) => s < -radius)) return 'culled';
  const w = windowOf(c);
  const wh = w.y1 - w.y0, ww = w.x1 - w.x0;
  const persp = !c.ortho;
  if (persp && d <= radius) return null;
  const screenHeight = persp ? (2 * radius) / (d * wh) : (2 * radius) / wh;
  if (metric === 'screenHeight') return screenHeight;
  if (metric === 'pixels') return screenHeight * c.height;
  const r = persp ? radius / d : radius;
  return (Math.PI * r * r) / (ww * wh);
}

/** The level for a size (null when too close to a threshold to call in float32). */
export function levelFor(metric: Metric, thresholds: readonly number[], size: number): number | null {
  for (const t of thresholds) if (Math.abs(size - t) <= 1e-5 * Math.max(t, 1e-9)) return null;
  let level = 0;
  if (metric === 'distance') { while (level < thresholds.length && !(size < thresholds[level])) level++; return level; }
  while (level < thresholds.length && !(size > thresholds[level])) level++;
  return level;
}
