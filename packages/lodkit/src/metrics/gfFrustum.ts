/**
 * OpenUSD's own camera math that {@link Frustum} reproduces to the last bit: the rotation
 * `GfFrustum` takes through `GfRotation` (axis and angle, correctly rounded trig) and, for
 * `input: 'openusd'`, the planes `GfFrustum::_CalculateFrustumPlanes` builds from the window's
 * corners.
 *
 * @module
 */

/** What {@link gfFrustumPlanes} reads of a frustum (`Frustum` has it; named here so this module does not import it). @internal */
export interface GfFrustumInputs {
  readonly viewMatrix: Float64Array;
  readonly windowMin: Float64Array;
  readonly windowMax: Float64Array;
  readonly near: number;
  readonly far: number;
  readonly isPerspective: boolean;
  readonly planes: Float64Array;
}
import { acosRoundedAt, sinCosRoundedAt } from './roundedTrig.js';
import { invertMatrixGf } from './vector.js';

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
 * @internal
 */
export function gfFrustumPlanes(f: GfFrustumInputs): void {
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
