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
 *
 * @module
 */
import { rotateVector, type QuatLike, type Vec3Like } from './vector.js';

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

function requireFinite(value: number, field: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    throw new RangeError(`Frustum: ${field} must be a finite number, got ${String(value)}`);
  }
  return value;
}

function requireVector(value: ArrayLike<number> | undefined, length: number, field: string): ArrayLike<number> {
  if (value == null || typeof value.length !== 'number' || value.length < length) {
    throw new RangeError(`Frustum: ${field} must be an array of ${length} numbers`);
  }
  for (let i = 0; i < length; i++) requireFinite(value[i], `${field}[${i}]`);
  return value;
}

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
export class Frustum {
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
  static perspective(init: PerspectiveInit, out?: Frustum): Frustum {
    const fovY = requireFinite(init.fovY, 'fovY');
    if (!(fovY > 0 && fovY < 180)) throw new RangeError(`Frustum: fovY must be in (0, 180) degrees, got ${fovY}`);
    const aspect = requireFinite(init.aspect, 'aspect');
    if (!(aspect > 0)) throw new RangeError(`Frustum: aspect must be > 0, got ${aspect}`);
    const halfHeight = Math.tan((fovY * Math.PI) / 360);
    const halfWidth = halfHeight * aspect;
    const init2: FrustumInit = {
      position: init.position, rotation: init.rotation, near: init.near, far: init.far,
      window: { min: [-halfWidth, -halfHeight], max: [halfWidth, halfHeight] }, projection: 'perspective',
    };
    return out ? out.set(init2) : new Frustum(init2);
  }

  /** An orthographic frustum from the view volume's height in world units and an aspect ratio. */
  static orthographic(init: OrthographicInit, out?: Frustum): Frustum {
    const height = requireFinite(init.height, 'height');
    if (!(height > 0)) throw new RangeError(`Frustum: height must be > 0, got ${height}`);
    const aspect = requireFinite(init.aspect, 'aspect');
    if (!(aspect > 0)) throw new RangeError(`Frustum: aspect must be > 0, got ${aspect}`);
    const hh = height / 2, hw = hh * aspect;
    const init2: FrustumInit = {
      position: init.position, rotation: init.rotation, near: init.near, far: init.far,
      window: { min: [-hw, -hh], max: [hw, hh] }, projection: 'orthographic',
    };
    return out ? out.set(init2) : new Frustum(init2);
  }

  /**
   * Re-initialises this frustum in place (fields left out take their defaults) and recomputes the
   * planes and matrices. Throws `RangeError` naming the field when the frustum would be invalid;
   * the frustum is left unchanged then.
   */
  set(init: FrustumInit): this {
    const position = requireVector(init.position ?? FRUSTUM_DEFAULTS.position, 3, 'position');
    const rotation = requireVector(init.rotation ?? FRUSTUM_DEFAULTS.rotation, 4, 'rotation');
    const qLength = Math.hypot(rotation[0], rotation[1], rotation[2], rotation[3]);
    if (Math.abs(qLength - 1) > UNIT_QUATERNION_TOLERANCE) {
      throw new RangeError(`Frustum: rotation must be a unit quaternion (|q| = ${qLength})`);
    }
    const window = init.window ?? FRUSTUM_DEFAULTS.window;
    if (window == null || typeof window !== 'object') throw new RangeError('Frustum: window must be {min: [x, y], max: [x, y]}');
    const wMin = requireVector(window.min, 2, 'window.min');
    const wMax = requireVector(window.max, 2, 'window.max');
    if (!(wMax[0] > wMin[0]) || !(wMax[1] > wMin[1])) {
      throw new RangeError(`Frustum: window is empty (min [${wMin[0]}, ${wMin[1]}], max [${wMax[0]}, ${wMax[1]}])`);
    }
    const projection = init.projection ?? FRUSTUM_DEFAULTS.projection;
    if (projection !== 'perspective' && projection !== 'orthographic') {
      throw new RangeError(`Frustum: projection must be 'perspective' or 'orthographic', got ${String(projection)}`);
    }
    const near = requireFinite(init.near ?? FRUSTUM_DEFAULTS.near, 'near');
    const far = requireFinite(init.far ?? FRUSTUM_DEFAULTS.far, 'far');
    if (projection === 'perspective' && !(near > 0)) throw new RangeError(`Frustum: near must be > 0 for a perspective frustum, got ${near}`);
    if (!(far > near)) throw new RangeError(`Frustum: far (${far}) must be greater than near (${near})`);

    this.position[0] = position[0]; this.position[1] = position[1]; this.position[2] = position[2];
    this.rotation[0] = rotation[0]; this.rotation[1] = rotation[1]; this.rotation[2] = rotation[2]; this.rotation[3] = rotation[3];
    this.windowMin[0] = wMin[0]; this.windowMin[1] = wMin[1];
    this.windowMax[0] = wMax[0]; this.windowMax[1] = wMax[1];
    this.near = near;
    this.far = far;
    this.projection = projection;
    this.isPerspective = projection === 'perspective';
    this.update();
    return this;
  }

  /** Recomputes the derived state after the public arrays were edited directly. */
  update(): this {
    const q = this.rotation;
    const l = this.windowMin[0], r = this.windowMax[0], b = this.windowMin[1], t = this.windowMax[1];
    const n = this.near, f = this.far;
    this.windowWidth = r - l;
    this.windowHeight = t - b;
    this.windowArea = this.windowWidth * this.windowHeight;
    this.referencePlaneDepth = this.isPerspective ? 1 : 0;
    rotateVector(q, 0, 0, -1, this.forward);

    // Local-space inward planes, then rotated and translated into world space.
    const local = scratchPlanes;
    if (this.isPerspective) {
      setPlane(local, 0, 1, 0, l, 0);
      setPlane(local, 1, -1, 0, -r, 0);
      setPlane(local, 2, 0, 1, b, 0);
      setPlane(local, 3, 0, -1, -t, 0);
    } else {
      setPlane(local, 0, 1, 0, 0, -l);
      setPlane(local, 1, -1, 0, 0, r);
      setPlane(local, 2, 0, 1, 0, -b);
      setPlane(local, 3, 0, -1, 0, t);
    }
    setPlane(local, 4, 0, 0, -1, -n);
    setPlane(local, 5, 0, 0, 1, f);
    const px = this.position[0], py = this.position[1], pz = this.position[2];
    const planes = this.planes;
    for (let i = 0; i < 24; i += 4) {
      rotateVector(q, local[i], local[i + 1], local[i + 2], planes, i);
      planes[i + 3] = local[i + 3] - (planes[i] * px + planes[i + 1] * py + planes[i + 2] * pz);
    }

    // View matrix: inverse of (translate(position) · rotate(q)) = [Rᵀ | −Rᵀ·p].
    const v = this.viewMatrix;
    rotateVector(q, 1, 0, 0, scratchAxis, 0);
    rotateVector(q, 0, 1, 0, scratchAxis, 3);
    rotateVector(q, 0, 0, 1, scratchAxis, 6);
    for (let row = 0; row < 3; row++) {
      const ax = scratchAxis[row * 3], ay = scratchAxis[row * 3 + 1], az = scratchAxis[row * 3 + 2];
      v[row] = ax; v[4 + row] = ay; v[8 + row] = az;
      v[12 + row] = -(ax * px + ay * py + az * pz);
    }
    v[3] = 0; v[7] = 0; v[11] = 0; v[15] = 1;

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
    };
  }
}

const scratchPlanes = new Float64Array(24);
const scratchAxis = new Float64Array(9);

function setPlane(out: Float64Array, index: number, x: number, y: number, z: number, w: number): void {
  const len = Math.hypot(x, y, z);
  const o = index * 4;
  out[o] = x / len; out[o + 1] = y / len; out[o + 2] = z / len; out[o + 3] = w / len;
}
