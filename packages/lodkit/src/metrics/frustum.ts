/**
 * A viewing frustum modelled on OpenUSD's `GfFrustum`: an eye position, a rotation, a window on the
 * reference plane and near/far distances, perspective or orthographic.
 *
 * Contributor notes:
 * - Everything derived (planes, matrices, camera axes, window area) is computed once per `set()` and
 *   stored in typed arrays, because per-object code (the sphere metrics, the batch engine) reads it
 *   millions of times a frame. A renderer re-uses one `Frustum` and calls `set()` each frame: no
 *   allocation.
 * - Planes are stored as `(nx, ny, nz, w)` with unit normals pointing INTO the frustum; the signed
 *   distance of a point is `n·p + w` (three.js `Plane` convention; GfPlane stores `-w`).
 * - The perspective window lies on the plane at distance 1 from the eye (GfFrustum's reference plane
 *   depth), so `fovY` maps to a window half-height of `tan(fovY / 2)`.
 * - The rotation quaternion is taken through `GfRotation`'s axis and angle before use
 *   ({@link gfRotationQuaternion}), with correctly rounded acos/sin/cos (roundedTrig.ts), so the
 *   view matrix is OpenUSD's to the last bit. `rotation` keeps the quaternion as given.
 * - Planes: analytic unit normals by default; with `input: 'openusd'` they are built from the
 *   window's corners as `GfFrustum` does, which matters only for inputs strict mode rejects.
 *
 * @module
 */
import { acosRoundedAt, sinCosRoundedAt } from './roundedTrig.js';
import { FRUSTUM_PLANE_INPUTS, writeFrustumPlanes } from './frustumPlanes.js';
import type { FrustumView } from './frustumView.js';
import { invertMatrixGf, type QuatLike, type Vec3Like } from './vector.js';

/**
 * Which inputs a {@link Frustum} or a heuristic accepts. `'strict'` (default) rejects what would be
 * a mistake in a renderer (an empty or flipped window, a perspective near ≤ 0, far ≤ near, a
 * quaternion off unit length, unsorted thresholds…) with a `RangeError` naming the field.
 * `'openusd'` accepts what OpenUSD's `GfFrustum` and usdLod query classes accept (any finite
 * numbers) and returns OpenUSD's result for it: for a frustum, planes built from the window's
 * corners as `GfFrustum` builds them (a flipped window flips them, near = 0 makes the side planes
 * degenerate, never culling), any non-zero quaternion through `GfRotation`.
 * @category Frustum
 */
export type InputMode = 'strict' | 'openusd';

/** Projection type of a {@link Frustum}. @category Frustum */
export type Projection = 'perspective' | 'orthographic';

/** A 2D window `{min: [x, y], max: [x, y]}`. @category Frustum */
export interface Window2D {
  min: ArrayLike<number>;
  max: ArrayLike<number>;
}

/** Options for {@link Frustum}; every field is optional. @category Frustum */
export interface FrustumInit {
  /** Eye position in world space. Default `[0, 0, 0]`. */
  position?: Vec3Like;
  /** Unit quaternion `[x, y, z, w]` mapping camera-local axes to world. The camera looks down local −Z, +Y up. Default identity. */
  rotation?: QuatLike;
  /** Perspective: the window on the plane at distance 1 from the eye; orthographic: in world units. Default `[-1,-1]..[1,1]`. */
  window?: Window2D;
  /** Near distance (> 0 for perspective). Default 1. */
  near?: number;
  /** Far distance (> near). Default 10. */
  far?: number;
  /** Default `'perspective'`. */
  projection?: Projection;
  /** `'strict'` (default) or `'openusd'`: see {@link InputMode}. */
  input?: InputMode;
}

/** Options for {@link Frustum.perspective}. @category Frustum */
export interface PerspectiveInit {
  /** Vertical field of view in degrees, in (0, 180). */
  fovY: number;
  /** Width ÷ height of the viewport, > 0. */
  aspect: number;
  near: number;
  far: number;
  position?: Vec3Like;
  rotation?: QuatLike;
}

/** Options for {@link Frustum.orthographic}. @category Frustum */
export interface OrthographicInit {
  /** Height of the view volume in world units, > 0. */
  height: number;
  /** Width ÷ height of the viewport, > 0. */
  aspect: number;
  near: number;
  far: number;
  position?: Vec3Like;
  rotation?: QuatLike;
}

/** Index of each plane in {@link Frustum.planes} (4 numbers per plane). GfFrustum's order. @category Frustum */
export const FrustumPlane = { left: 0, right: 1, bottom: 2, top: 3, near: 4, far: 5 } as const;

const FRUSTUM_DEFAULTS = {
  position: [0, 0, 0] as Vec3Like,
  rotation: [0, 0, 0, 1] as QuatLike,
  window: { min: [-1, -1], max: [1, 1] } as Window2D,
  near: 1,
  far: 10,
  projection: 'perspective' as Projection,
};

const UNIT_QUATERNION_TOLERANCE = 1e-6;

// The checks test values where they are read and call out only to throw: `set()` runs every frame,
// and V8 boxes a double passed to a call it does not inline (and one read through a dynamic key),
// so `checkFinite(value)`-style helpers allocated on every call (measured with the sampling heap
// profiler: 32 bytes per `set()`, 65 per `Frustum.perspective(…, out)`, before this change).
function checkVector(value: ArrayLike<number> | undefined, length: number, field: string): void {
  if (value == null || typeof value.length !== 'number' || value.length < length) {
    throw new RangeError(`Frustum: ${field} must be an array of ${length} numbers`);
  }
  for (let i = 0; i < length; i++) {
    if (!Number.isFinite(value[i])) throw new RangeError(`Frustum: ${field}[${i}] must be a finite number, got ${String(value[i])}`);
  }
}

/** Throws the error for a non-finite scalar; called only on the failure path. */
function notFinite(key: string, value: unknown): never {
  throw new RangeError(`Frustum: ${key} must be a finite number, got ${String(value)}`);
}

/** The window of the frustum being assigned: `[left, bottom, right, top]`. */
const scratchWindow = new Float64Array(4);

/**
 * A camera frustum (position, rotation, window, near/far, perspective or orthographic), validated
 * once, with its planes and matrices precomputed for per-object queries.
 *
 * @example
 * ```ts
 * import { Frustum, lookAtRotation } from 'lodkit';
 * const eye = [0, 1.7, 12];
 * const frustum = Frustum.perspective({
 *   fovY: 50, aspect: 16 / 9, near: 0.1, far: 1000,
 *   position: eye, rotation: lookAtRotation(eye, [0, 1, 0]),
 * });
 * frustum.viewMatrix;        // Float64Array(16), column-major, world → camera
 * frustum.projectionMatrix;  // Float64Array(16), column-major, GL clip space
 * ```
 * @category Frustum
 */
export class Frustum implements FrustumView {
  /** Eye position (world). */
  readonly position = new Float64Array(3);
  /** Rotation quaternion `[x, y, z, w]`, camera-local → world. */
  readonly rotation = new Float64Array(4);
  /** Window minimum `[x, y]`. */
  readonly windowMin = new Float64Array(2);
  /** Window maximum `[x, y]`. */
  readonly windowMax = new Float64Array(2);
  /** Near distance. */
  near = 1;
  /** Far distance. */
  far = 10;
  /** Projection type. */
  projection: Projection = 'perspective';
  /** True when `projection === 'perspective'` (a boolean for branch-light hot loops). */
  isPerspective = true;
  /** The unit quaternion the frustum rotates by: `rotation` through `GfRotation` (axis and angle). */
  readonly gfRotation = new Float64Array([0, 0, 0, 1]);
  /** The `rotation` that `gfRotation` was computed from (NaN: not yet). */
  private readonly gfRotationFrom = new Float64Array([NaN, NaN, NaN, NaN]);
  /** Which inputs `set()` accepted; `'openusd'` also builds the planes as `GfFrustum` does. */
  input: InputMode = 'strict';

  /** Six inward planes, `(nx, ny, nz, w)` each, in {@link FrustumPlane} order; distance = n·p + w. */
  readonly planes = new Float64Array(24);
  /** World → camera, column-major. */
  readonly viewMatrix = new Float64Array(16);
  /** Camera → GL clip space (z in [−w, w]), column-major, as `GfFrustum::ComputeProjectionMatrix`. */
  readonly projectionMatrix = new Float64Array(16);
  /** Unit view direction in world space (camera local −Z). */
  readonly forward = new Float64Array(3);
  /** Window width (x extent) on the reference plane. */
  windowWidth = 2;
  /** Window height (y extent) on the reference plane. */
  windowHeight = 2;
  /** Window area, `windowWidth × windowHeight`. */
  windowArea = 4;
  /** GfFrustum's reference plane depth: 1 for perspective, 0 for orthographic. */
  referencePlaneDepth = 1;

  constructor(init: FrustumInit = {}) {
    this.set(init);
  }

  /**
   * A perspective frustum from a vertical field of view in degrees and an aspect ratio (width ÷ height).
   */
  static perspective(init: PerspectiveInit, out: Frustum = new Frustum()): Frustum {
    if (!Number.isFinite(init.fovY)) notFinite('fovY', init.fovY);
    if (!(init.fovY > 0 && init.fovY < 180)) throw new RangeError(`Frustum: fovY must be in (0, 180) degrees, got ${init.fovY}`);
    if (!Number.isFinite(init.aspect)) notFinite('aspect', init.aspect);
    if (!(init.aspect > 0)) throw new RangeError(`Frustum: aspect must be > 0, got ${init.aspect}`);
    const halfHeight = Math.tan((init.fovY * Math.PI) / 360);
    const halfWidth = halfHeight * init.aspect;
    scratchWindow[0] = -halfWidth; scratchWindow[1] = -halfHeight; scratchWindow[2] = halfWidth; scratchWindow[3] = halfHeight;
    return out.assign(init, 'perspective');
  }

  /** An orthographic frustum from the view volume's height in world units and an aspect ratio. */
  static orthographic(init: OrthographicInit, out: Frustum = new Frustum()): Frustum {
    if (!Number.isFinite(init.height)) notFinite('height', init.height);
    if (!(init.height > 0)) throw new RangeError(`Frustum: height must be > 0, got ${init.height}`);
    if (!Number.isFinite(init.aspect)) notFinite('aspect', init.aspect);
    if (!(init.aspect > 0)) throw new RangeError(`Frustum: aspect must be > 0, got ${init.aspect}`);
    const hh = init.height / 2, hw = hh * init.aspect;
    scratchWindow[0] = -hw; scratchWindow[1] = -hh; scratchWindow[2] = hw; scratchWindow[3] = hh;
    return out.assign(init, 'orthographic');
  }

  /**
   * Re-initialises this frustum in place (fields left out take their defaults) and recomputes the
   * planes and matrices. Throws `RangeError` naming the field when the frustum would be invalid;
   * the frustum is left unchanged then.
   */
  set(init: FrustumInit): this {
    const window = init.window ?? FRUSTUM_DEFAULTS.window;
    if (window == null || typeof window !== 'object') throw new RangeError('Frustum: window must be {min: [x, y], max: [x, y]}');
    checkVector(window.min, 2, 'window.min');
    checkVector(window.max, 2, 'window.max');
    scratchWindow[0] = window.min[0]; scratchWindow[1] = window.min[1]; scratchWindow[2] = window.max[0]; scratchWindow[3] = window.max[1];
    return this.assign(init, init.projection);
  }

  /**
   * Validates `init` with the window in `scratchWindow`, then writes the fields and recomputes; the
   * frustum is unchanged on a throw.
   */
  private assign(init: FrustumInit | PerspectiveInit | OrthographicInit, projection: Projection | undefined): this {
    const p = init.position ?? FRUSTUM_DEFAULTS.position;
    const q = init.rotation ?? FRUSTUM_DEFAULTS.rotation;
    checkVector(p, 3, 'position');
    checkVector(q, 4, 'rotation');
    const input = (init as FrustumInit).input ?? 'strict';
    if (input !== 'strict' && input !== 'openusd') throw new RangeError(`Frustum: input must be 'strict' or 'openusd', got ${String(input)}`);
    const strict = input === 'strict';
    const qLength = Math.sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    if (strict && Math.abs(qLength - 1) > UNIT_QUATERNION_TOLERANCE) {
      throw new RangeError(`Frustum: rotation must be a unit quaternion (|q| = ${qLength})`);
    }
    const left = scratchWindow[0], bottom = scratchWindow[1], right = scratchWindow[2], top = scratchWindow[3];
    if (strict && (!(right > left) || !(top > bottom))) {
      throw new RangeError(`Frustum: window is empty (min [${left}, ${bottom}], max [${right}, ${top}])`);
    }
    const type = projection ?? FRUSTUM_DEFAULTS.projection;
    if (type !== 'perspective' && type !== 'orthographic') {
      throw new RangeError(`Frustum: projection must be 'perspective' or 'orthographic', got ${String(type)}`);
    }
    if (init.near !== undefined && !Number.isFinite(init.near)) notFinite('near', init.near);
    if (init.far !== undefined && !Number.isFinite(init.far)) notFinite('far', init.far);
    const n = init.near ?? FRUSTUM_DEFAULTS.near;
    const f = init.far ?? FRUSTUM_DEFAULTS.far;
    if (strict && type === 'perspective' && !(n > 0)) throw new RangeError(`Frustum: near must be > 0 for a perspective frustum, got ${n}`);
    if (strict && !(f > n)) throw new RangeError(`Frustum: far (${f}) must be greater than near (${n})`);
    this.input = input;

    this.position[0] = p[0]; this.position[1] = p[1]; this.position[2] = p[2];
    this.rotation[0] = q[0]; this.rotation[1] = q[1]; this.rotation[2] = q[2]; this.rotation[3] = q[3];
    this.windowMin[0] = left; this.windowMin[1] = bottom;
    this.windowMax[0] = right; this.windowMax[1] = top;
    this.near = n;
    this.far = f;
    this.projection = type;
    this.isPerspective = type === 'perspective';
    this.update();
    return this;
  }

  /** Names the first non-finite field edited into `position` / `rotation` (cold path of {@link update}). */
  private invalidCamera(): never {
    for (let i = 0; i < 3; i++) if (!Number.isFinite(this.position[i])) throw new RangeError(`Frustum.update: position[${i}] must be a finite number, got ${this.position[i]}`);
    for (let i = 0; i < 4; i++) if (!Number.isFinite(this.rotation[i])) throw new RangeError(`Frustum.update: rotation[${i}] must be a finite number, got ${this.rotation[i]}`);
    throw new RangeError('Frustum.update: invalid camera');
  }

  /**
   * Recomputes the derived state after the public arrays were edited directly (throws `RangeError`
   * naming `position[i]` / `rotation[i]` when one is NaN or infinite). Written without
   * helper calls: V8 boxes the double arguments of calls it does not inline, and this runs every
   * frame.
   */
  update(): this {
    const q = this.rotation, from = this.gfRotationFrom, gq = this.gfRotation;
    const p0 = this.position[0], p1 = this.position[1], p2 = this.position[2];
    // Directly edited arrays are checked here, once per update (`v - v` is NaN exactly for NaN and
    // ±∞): a NaN camera would otherwise give NaN planes and every object a NaN size, silently.
    if (!(q[0] - q[0] + (q[1] - q[1]) + (q[2] - q[2]) + (q[3] - q[3]) + (p0 - p0) + (p1 - p1) + (p2 - p2) === 0)) this.invalidCamera();
    // GfRotation's quaternion costs ~1 µs (double-double trig): recompute only when the rotation changed.
    if (q[0] !== from[0] || q[1] !== from[1] || q[2] !== from[2] || q[3] !== from[3]) {
      gfRotationQuaternion(q, gq);
      from[0] = q[0]; from[1] = q[1]; from[2] = q[2]; from[3] = q[3];
    }
    const qx = gq[0], qy = gq[1], qz = gq[2], qw = gq[3];
    // Rotation matrix columns: the camera's x (right), y (up) and z (back) axes in world space.
    const xx = 1 - 2 * (qy * qy + qz * qz), xy = 2 * (qx * qy + qz * qw), xz = 2 * (qx * qz - qy * qw);
    const yx = 2 * (qx * qy - qz * qw), yy = 1 - 2 * (qx * qx + qz * qz), yz = 2 * (qy * qz + qx * qw);
    const zx = 2 * (qx * qz + qy * qw), zy = 2 * (qy * qz - qx * qw), zz = 1 - 2 * (qx * qx + qy * qy);
    const l = this.windowMin[0], r = this.windowMax[0], b = this.windowMin[1], t = this.windowMax[1];
    const n = this.near, f = this.far;
    const px = this.position[0], py = this.position[1], pz = this.position[2];
    this.windowWidth = r - l;
    this.windowHeight = t - b;
    this.windowArea = (r - l) * (t - b);
    this.referencePlaneDepth = this.isPerspective ? 1 : 0;
    this.forward[0] = -zx; this.forward[1] = -zy; this.forward[2] = -zz;

    const input = planeInputs;
    input[0] = xx; input[1] = xy; input[2] = xz; input[3] = yx; input[4] = yy; input[5] = yz;
    input[6] = zx; input[7] = zy; input[8] = zz; input[9] = px; input[10] = py; input[11] = pz;
    input[12] = l; input[13] = r; input[14] = b; input[15] = t; input[16] = n; input[17] = f;
    writeFrustumPlanes(input, this.isPerspective, this.planes);

    // View matrix: inverse of (translate(position) · rotate(q)) = [Rᵀ | −Rᵀ·p], column-major.
    const v = this.viewMatrix;
    v[0] = xx; v[4] = xy; v[8] = xz; v[12] = -(xx * px + xy * py + xz * pz);
    v[1] = yx; v[5] = yy; v[9] = yz; v[13] = -(yx * px + yy * py + yz * pz);
    v[2] = zx; v[6] = zy; v[10] = zz; v[14] = -(zx * px + zy * py + zz * pz);
    v[3] = 0; v[7] = 0; v[11] = 0; v[15] = 1;

    if (!this.isStrictInput()) gfFrustumPlanes(this);

    const p = this.projectionMatrix;
    p.fill(0);
    const rl = r - l, tb = t - b, fn = f - n;
    p[0] = 2 / rl;
    p[5] = 2 / tb;
    if (this.isPerspective) {
      p[8] = (r + l) / rl;
      p[9] = (t + b) / tb;
      p[10] = -(f + n) / fn;
      p[11] = -1;
      p[14] = (-2 * n * f) / fn;
    } else {
      p[10] = -2 / fn;
      p[12] = -(r + l) / rl;
      p[13] = -(t + b) / tb;
      p[14] = -(f + n) / fn;
      p[15] = 1;
    }
    return this;
  }

  private isStrictInput(): boolean {
    return this.input === 'strict';
  }

  /** Signed distance of a point to plane `index` ({@link FrustumPlane}); ≥ 0 on the inside. */
  planeDistance(index: number, x: number, y: number, z: number): number {
    const o = index * 4, pl = this.planes;
    return pl[o] * x + pl[o + 1] * y + pl[o + 2] * z + pl[o + 3];
  }

  /** True when the sphere lies wholly outside at least one plane (GfFrustum's trivial rejection). */
  cullsSphere(x: number, y: number, z: number, radius: number): boolean {
    const pl = this.planes;
    for (let o = 0; o < 24; o += 4) {
      if (pl[o] * x + pl[o + 1] * y + pl[o + 2] * z + pl[o + 3] < -radius) return true;
    }
    return false;
  }

  /** A plain-object copy of the parameters, suitable for `new Frustum(init)` or JSON. */
  toJSON(): Required<FrustumInit> {
    return {
      position: Array.from(this.position),
      rotation: Array.from(this.rotation),
      window: { min: Array.from(this.windowMin), max: Array.from(this.windowMax) },
      near: this.near,
      far: this.far,
      projection: this.projection,
      input: this.input,
    };
  }
}

const planeInputs = new Float64Array(FRUSTUM_PLANE_INPUTS.length);
const scratchTrig = new Float64Array(2);

/** OpenUSD's `GF_MIN_VECTOR_LENGTH`. */
const MIN_VECTOR_LENGTH = 1e-10;

/**
 * The unit quaternion OpenUSD's `GfFrustum` rotates by when given the quaternion `q`: `GfRotation`
 * keeps an axis and an angle, so the quaternion goes through `axis = q.xyz / |q.xyz|` and
 * `angle = 2·acos(clamp(q.w))` in degrees, then back through sin/cos of the half angle and a final
 * normalisation. For a unit `q` this is `q` to the last bits; for one off unit length (lodkit
 * accepts |q| within 1e-6 of 1) it is the rotation OpenUSD uses, which is not `q / |q|`: the angle
 * comes from the raw `w`. An imaginary part shorter than 1e-10 gives the identity, as in OpenUSD.
 * @internal
 */
export function gfRotationQuaternion(q: ArrayLike<number>, out: Float64Array): Float64Array {
  const ix = q[0], iy = q[1], iz = q[2];
  const imaginaryLength = Math.sqrt(ix * ix + iy * iy + iz * iz);
  if (!(imaginaryLength > MIN_VECTOR_LENGTH)) {
    out[0] = 0; out[1] = 0; out[2] = 0; out[3] = 1;
    return out;
  }
  // GfRotation::SetQuat: the axis is the imaginary part times 1/|imaginary| (GfVec3d divides by
  // multiplying with the reciprocal), renormalised only when its squared length is off by ≥ 1e-10.
  const inv = 1 / imaginaryLength;
  let ax = ix * inv, ay = iy * inv, az = iz * inv;
  const axisSq = ax * ax + ay * ay + az * az;
  if (!(Math.abs(axisSq - 1) < 1e-10)) {
    const len = Math.sqrt(axisSq);
    const k = 1 / (len > MIN_VECTOR_LENGTH ? len : MIN_VECTOR_LENGTH);
    ax *= k; ay *= k; az *= k;
  }
  const w = q[3] < -1 ? -1 : q[3] > 1 ? 1 : q[3];
  // The C library's acos/sin/cos, not V8's (see roundedTrig.ts).
  scratchTrig[0] = w;
  acosRoundedAt(scratchTrig, 0);
  const degrees = 2 * (scratchTrig[0] * (180 / Math.PI));
  // GfRotation::GetQuat: half angle back in radians, then a normalised (cos, axis·sin).
  const radians = (degrees * (Math.PI / 180)) / 2;
  scratchTrig[0] = radians;
  sinCosRoundedAt(scratchTrig, 0);
  const s = scratchTrig[0], c = scratchTrig[1];
  const x = ax * s, y = ay * s, z = az * s;
  const length = Math.sqrt(x * x + y * y + z * z + c * c);
  if (length < MIN_VECTOR_LENGTH) {
    out[0] = 0; out[1] = 0; out[2] = 0; out[3] = 1;
    return out;
  }
  // GfQuatd's `/=` divides the real part and multiplies the imaginary part by the reciprocal.
  const k = 1 / length;
  out[0] = x * k; out[1] = y * k; out[2] = z * k; out[3] = c / length;
  return out;
}

const scratchViewInverse = new Float64Array(16);
const scratchDeterminant = new Float64Array(1);
// Corners in world space, 3 numbers each: vp (or lb + dir…), lb, rb, lt, rt.
const scratchCorners = new Float64Array(18);
const scratchIn = new Float64Array(3);

/**
 * Writes the world point `m · (x, y, z, 1)`, divided by w as GfMatrix4d::Transform does, to corner
 * slot `c`; (x, y, z) come in `scratchIn` (doubles passed to a call V8 does not inline are boxed).
 */
function cornerToWorld(m: Float64Array, c: number): void {
  const x = scratchIn[0], y = scratchIn[1], z = scratchIn[2];
  const px = m[0] * x + m[4] * y + m[8] * z + m[12];
  const py = m[1] * x + m[5] * y + m[9] * z + m[13];
  const pz = m[2] * x + m[6] * y + m[10] * z + m[14];
  const w = m[3] * x + m[7] * y + m[11] * z + m[15];
  const inv = w !== 0 ? 1 / w : 1;
  scratchCorners[c * 3] = inv * px; scratchCorners[c * 3 + 1] = inv * py; scratchCorners[c * 3 + 2] = inv * pz;
}

/**
 * Plane `index` through corners a, b, c (GfPlane(p0, p1, p2)): normal = normalised (b − a) × (c − a),
 * distance = normal · a; stored as (n, −distance). `da` offsets corner a by `scratchCorners[15..17]`
 * (the orthographic planes go through `corner + dir`).
 */
function planeThrough(planes: Float64Array, index: number, a: number, b: number, c: number, addDir: boolean): void {
  const k = scratchCorners;
  let ax = k[a * 3], ay = k[a * 3 + 1], az = k[a * 3 + 2];
  if (addDir) { ax += k[15]; ay += k[16]; az += k[17]; }
  const ux = k[b * 3] - ax, uy = k[b * 3 + 1] - ay, uz = k[b * 3 + 2] - az;
  const vx = k[c * 3] - ax, vy = k[c * 3 + 1] - ay, vz = k[c * 3 + 2] - az;
  let nx = uy * vz - uz * vy, ny = uz * vx - ux * vz, nz = ux * vy - uy * vx;
  const len = Math.sqrt(nx * nx + ny * ny + nz * nz);
  const r = 1 / (len > 1e-10 ? len : 1e-10); // GfVec3d::GetNormalized: a zero normal stays zero
  nx *= r; ny *= r; nz *= r;
  const o = index * 4;
  planes[o] = nx; planes[o + 1] = ny; planes[o + 2] = nz;
  planes[o + 3] = -(nx * ax + ny * ay + nz * az);
}

/**
 * The `'openusd'` input mode's planes: `GfFrustum::_CalculateFrustumPlanes`, from the eye and the
 * near rectangle's corners taken to world space by the inverse view matrix. Unlike the analytic
 * planes of `update()`, these follow the window's orientation (a flipped window flips them) and
 * degenerate as OpenUSD's do (near = 0 in perspective: zero normals, planes that cull nothing).
 */
function gfFrustumPlanes(f: Frustum): void {
  const m = scratchViewInverse;
  invertMatrixGf(f.viewMatrix, m, scratchDeterminant);
  const l = f.windowMin[0], r = f.windowMax[0], b = f.windowMin[1], t = f.windowMax[1];
  const n = f.near, far = f.far, planes = f.planes;
  // Slots: 0 apex (perspective), 1 lb, 2 rb, 3 lt, 4 rt, 5 dir (orthographic).
  if (f.isPerspective) {
    scratchIn[0] = 0; scratchIn[1] = 0; scratchIn[2] = 0; cornerToWorld(m, 0);
    scratchIn[0] = n * l; scratchIn[1] = n * b; scratchIn[2] = -n; cornerToWorld(m, 1);
    scratchIn[0] = n * r; scratchIn[1] = n * b; scratchIn[2] = -n; cornerToWorld(m, 2);
    scratchIn[0] = n * l; scratchIn[1] = n * t; scratchIn[2] = -n; cornerToWorld(m, 3);
    scratchIn[0] = n * r; scratchIn[1] = n * t; scratchIn[2] = -n; cornerToWorld(m, 4);
    planeThrough(planes, 0, 0, 1, 3, false); // left: vp, lb, lt
    planeThrough(planes, 1, 0, 4, 2, false); // right: vp, rt, rb
    planeThrough(planes, 2, 0, 2, 1, false); // bottom: vp, rb, lb
    planeThrough(planes, 3, 0, 3, 4, false); // top: vp, lt, rt
  } else {
    scratchIn[0] = l; scratchIn[1] = b; scratchIn[2] = -n; cornerToWorld(m, 1);
    scratchIn[0] = r; scratchIn[1] = b; scratchIn[2] = -n; cornerToWorld(m, 2);
    scratchIn[0] = l; scratchIn[1] = t; scratchIn[2] = -n; cornerToWorld(m, 3);
    scratchIn[0] = r; scratchIn[1] = t; scratchIn[2] = -n; cornerToWorld(m, 4);
    // The view direction: the inverse view matrix applied to the direction (0, 0, −1).
    scratchCorners[15] = -m[8]; scratchCorners[16] = -m[9]; scratchCorners[17] = -m[10];
    planeThrough(planes, 0, 3, 3, 1, true); // left: lt + dir, lt, lb
    planeThrough(planes, 1, 2, 2, 4, true); // right: rb + dir, rb, rt
    planeThrough(planes, 2, 1, 1, 2, true); // bottom: lb + dir, lb, rb
    planeThrough(planes, 3, 4, 4, 3, true); // top: rt + dir, rt, lt
  }
  planeThrough(planes, 4, 2, 1, 3, false); // near: rb, lb, lt
  // Far: the near plane turned around, moved by far − near; GfPlane(normal, distance) normalises
  // the normal again, which can move its last bit.
  const fx = -planes[16], fy = -planes[17], fz = -planes[18];
  const len = Math.sqrt(fx * fx + fy * fy + fz * fz);
  const k = 1 / (len > 1e-10 ? len : 1e-10);
  planes[20] = fx * k; planes[21] = fy * k; planes[22] = fz * k;
  planes[23] = -(planes[19] - (far - n));
}
