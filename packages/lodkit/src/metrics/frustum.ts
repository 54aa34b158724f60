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
 *   (`gfRotationQuaternion` in gfFrustum.ts), with correctly rounded acos/sin/cos (roundedTrig.ts), so the
 *   view matrix is OpenUSD's to the last bit. `rotation` keeps the quaternion as given.
 * - Planes: analytic unit normals by default; with `input: 'openusd'` they are built from the
 *   window's corners as `GfFrustum` does (gfFrustum.ts), which matters only for inputs strict mode rejects.
 *
 * @module
 */
import { FRUSTUM_PLANE_INPUTS, writeFrustumPlanes } from './frustumPlanes.js';
import type { FrustumView } from './frustumView.js';
import { gfFrustumPlanes, gfRotationQuaternion } from './gfFrustum.js';
import type { QuatLike, Vec3Like } from './vector.js';

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
  /**
   * Unit quaternion `[x, y, z, w]` mapping camera-local axes to world. The camera looks down local −Z, +Y up. Default identity.
   * Used as OpenUSD's `GfRotation` uses it (axis and angle `2·acos(w)`), so a rotation within ≈ 1e-8 rad of none is
   * rounded as there: its angle by up to ≈ 2.2e-16 / |q.xyz| rad (|q.xyz| < 1e-10: the identity).
   */
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
