/**
 * The bounding spheres of `InstancedLOD`'s instances: one local sphere (the level geometries')
 * under each instance's matrix — in the object's space for its bounds, in world space for the
 * batch engine — and whether the object's world matrix moved since the engine's spheres were made.
 *
 * @module
 */
import { Matrix4, Sphere, Vector3 } from 'three';
import { clearlyInside, growBounds } from './instanceBounds.js';

const scratchMatrix = new Matrix4();
const scratchVector = new Vector3();
const scratchSphere = new Sphere();

/** One instance's sphere under its matrix; the last world matrix the world spheres were made with. */
export class InstanceSpheres {
  private readonly snapshot = new Float64Array(16).fill(NaN);

  constructor(readonly local: Sphere) {}

  /** The sphere of the instance whose matrix is `matrix[offset … offset + 16)`, in the object's space, into `out`. */
  inObject(matrix: ArrayLike<number>, offset: number, out: Sphere): Sphere {
    scratchMatrix.fromArray(matrix as number[], offset);
    return out.copy(this.local).applyMatrix4(scratchMatrix);
  }

  /** The same sphere in world space (`world × matrix`), into `out`. */
  inWorld(world: Matrix4, matrix: ArrayLike<number>, offset: number, out: Sphere): Sphere {
    scratchMatrix.fromArray(matrix as number[], offset).premultiply(world);
    scratchVector.copy(this.local.center).applyMatrix4(scratchMatrix);
    out.center.copy(scratchVector);
    out.radius = this.local.radius * scratchMatrix.getMaxScaleOnAxis();
    return out;
  }

  /**
   * `addInstances`' batch in one loop: the world sphere of each of the `n` matrices in `src` into
   * `out` (x, y, z, r; what {@link inWorld} gives) and `bounds` grown by its sphere in the object's
   * space (what {@link inObject} then `growBounds` give), instance by instance, bit for bit: the
   * arithmetic is three's (`Vector3.applyMatrix4`, `getMaxScaleOnAxis`, `multiplyMatrices`) written
   * out. Why (startup, issue 27): a cold 100k batch runs interpreted until V8 has optimised its loop,
   * and the dozen three.js calls per instance boxed every double; with an identity world matrix
   * (the usual case) the world sphere is the object sphere, so one small loop computes it once.
   * Taken only where three's product `world × matrix` cannot change the result: its entries differ
   * from the matrix's at most in the sign of a zero, which shows only in a zero coordinate, and any
   * non-finite entry makes a coordinate non-finite; so finite, non-zero coordinates (else the
   * product, `worldSphere`).
   */
  batch(world: Matrix4, src: Float32Array, n: number, out: Float32Array, bounds: Sphere): void {
    const a = world.elements;
    const identity = a[0] === 1 && a[5] === 1 && a[10] === 1 && a[15] === 1 && a[1] === 0 && a[2] === 0 && a[3] === 0
      && a[4] === 0 && a[6] === 0 && a[7] === 0 && a[8] === 0 && a[9] === 0 && a[11] === 0 && a[12] === 0 && a[13] === 0 && a[14] === 0;
    // The loop stops at each instance that grows the bounds (a few in a large batch): union stays
    // out of the loop's optimised code, whose first version it deoptimised (a recompile of ≈ 25 ms).
    for (let i = 0; i < n; i++) {
      i = spheresUntilGrowth(this.local, a, identity, src, i, n, out, bounds);
      if (i < n) growBounds(bounds, scratchSphere);
    }
  }

  /** Remembers `world` as the matrix the world spheres are made with. */
  remember(world: Matrix4): void {
    this.snapshot.set(world.elements);
  }

  /** True when `world` differs from the remembered matrix. */
  moved(world: Matrix4): boolean {
    const e = world.elements, w = this.snapshot;
    for (let k = 0; k < 16; k++) if (w[k] !== e[k]) return true;
    return false;
  }
}

/**
 * {@link InstanceSpheres.batch} from instance `from` on, up to the first instance whose object sphere
 * is not clearly inside `bounds` (left in `scratchSphere`): returns its index, or `n`.
 */
function spheresUntilGrowth(local: Sphere, a: number[], identity: boolean, src: Float32Array, from: number, n: number, out: Float32Array, bounds: Sphere): number {
  const c = local.center, cx = c.x, cy = c.y, cz = c.z, lr = local.radius, s = scratchSphere;
  for (let i = from; i < n; i++) {
    const o = i * 16, p = i * 4;
    const b11 = src[o], b21 = src[o + 1], b31 = src[o + 2], b12 = src[o + 4], b22 = src[o + 5], b32 = src[o + 6];
    const b13 = src[o + 8], b23 = src[o + 9], b33 = src[o + 10];
    const v = 1 / (src[o + 3] * cx + src[o + 7] * cy + src[o + 11] * cz + src[o + 15]);
    const x = (b11 * cx + b12 * cy + b13 * cz + src[o + 12]) * v;
    const y = (b21 * cx + b22 * cy + b23 * cz + src[o + 13]) * v;
    const z = (b31 * cx + b32 * cy + b33 * cz + src[o + 14]) * v;
    const r = lr * Math.sqrt(Math.max(b11 * b11 + b21 * b21 + b31 * b31, b12 * b12 + b22 * b22 + b32 * b32, b13 * b13 + b23 * b23 + b33 * b33));
    if (identity && x - x === 0 && y - y === 0 && z - z === 0 && x !== 0 && y !== 0 && z !== 0) {
      out[p] = x; out[p + 1] = y; out[p + 2] = z; out[p + 3] = r;
    } else {
      worldSphere(a, src, o, cx, cy, cz, lr, out, p);
    }
    s.center.x = x; s.center.y = y; s.center.z = z; s.radius = r;
    if (!clearlyInside(s, bounds)) return i;
  }
  return n;
}

/** {@link InstanceSpheres.inWorld} of the matrix at `src[o …]` into `out[p … p + 4)`: three's `world × matrix` and sphere arithmetic, written out. */
function worldSphere(a: number[], src: Float32Array, o: number, cx: number, cy: number, cz: number, lr: number, out: Float32Array, p: number): void {
  const b11 = src[o], b21 = src[o + 1], b31 = src[o + 2], b41 = src[o + 3];
  const b12 = src[o + 4], b22 = src[o + 5], b32 = src[o + 6], b42 = src[o + 7];
  const b13 = src[o + 8], b23 = src[o + 9], b33 = src[o + 10], b43 = src[o + 11];
  const b14 = src[o + 12], b24 = src[o + 13], b34 = src[o + 14], b44 = src[o + 15];
  const a11 = a[0], a12 = a[4], a13 = a[8], a14 = a[12], a21 = a[1], a22 = a[5], a23 = a[9], a24 = a[13];
  const a31 = a[2], a32 = a[6], a33 = a[10], a34 = a[14], a41 = a[3], a42 = a[7], a43 = a[11], a44 = a[15];
  const m0 = a11 * b11 + a12 * b21 + a13 * b31 + a14 * b41, m4 = a11 * b12 + a12 * b22 + a13 * b32 + a14 * b42;
  const m8 = a11 * b13 + a12 * b23 + a13 * b33 + a14 * b43, m12 = a11 * b14 + a12 * b24 + a13 * b34 + a14 * b44;
  const m1 = a21 * b11 + a22 * b21 + a23 * b31 + a24 * b41, m5 = a21 * b12 + a22 * b22 + a23 * b32 + a24 * b42;
  const m9 = a21 * b13 + a22 * b23 + a23 * b33 + a24 * b43, m13 = a21 * b14 + a22 * b24 + a23 * b34 + a24 * b44;
  const m2 = a31 * b11 + a32 * b21 + a33 * b31 + a34 * b41, m6 = a31 * b12 + a32 * b22 + a33 * b32 + a34 * b42;
  const m10 = a31 * b13 + a32 * b23 + a33 * b33 + a34 * b43, m14 = a31 * b14 + a32 * b24 + a33 * b34 + a34 * b44;
  const m3 = a41 * b11 + a42 * b21 + a43 * b31 + a44 * b41, m7 = a41 * b12 + a42 * b22 + a43 * b32 + a44 * b42;
  const m11 = a41 * b13 + a42 * b23 + a43 * b33 + a44 * b43, m15 = a41 * b14 + a42 * b24 + a43 * b34 + a44 * b44;
  const w = 1 / (m3 * cx + m7 * cy + m11 * cz + m15);
  out[p] = (m0 * cx + m4 * cy + m8 * cz + m12) * w;
  out[p + 1] = (m1 * cx + m5 * cy + m9 * cz + m13) * w;
  out[p + 2] = (m2 * cx + m6 * cy + m10 * cz + m14) * w;
  out[p + 3] = lr * Math.sqrt(Math.max(m0 * m0 + m1 * m1 + m2 * m2, m4 * m4 + m5 * m5 + m6 * m6, m8 * m8 + m9 * m9 + m10 * m10));
}
