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
const scratchWorld = new Sphere();

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
   * arithmetic is three's (`Vector3.applyMatrix4`, `getMaxScaleOnAxis`) written out. Why (startup,
   * issue 27): a cold 100k batch runs interpreted until V8 has optimised its loop,
   * and the dozen three.js calls per instance boxed every double; with an identity world matrix
   * (the usual case) the world sphere is the object sphere, so one small loop computes it once.
   * Taken only where three's product `world × matrix` cannot change the result: its entries differ
   * from the matrix's at most in the sign of a zero, which shows only in a zero coordinate, and any
   * non-finite entry makes a coordinate non-finite; so finite, non-zero coordinates (else
   * {@link inWorld}). `centres` gets the batch's bounds as `LodSet.addManyWithBounds` takes them
   * (the 7 numbers of mortonOrder.ts `BATCH_BOUNDS`, over the float32 values written to `out`): the
   * Morton order then skips its own pass over the batch (the first 100k-long loop it ran cold).
   */
  batch(world: Matrix4, src: Float32Array, n: number, out: Float32Array, bounds: Sphere, centres: Float64Array): void {
    const a = world.elements;
    const identity = a[0] === 1 && a[5] === 1 && a[10] === 1 && a[15] === 1 && a[1] === 0 && a[2] === 0 && a[3] === 0
      && a[4] === 0 && a[6] === 0 && a[7] === 0 && a[8] === 0 && a[9] === 0 && a[11] === 0 && a[12] === 0 && a[13] === 0 && a[14] === 0;
    // The loop stops at each instance that grows the bounds (a few in a large batch): union stays
    // out of the loop's optimised code, whose first version it deoptimised (a recompile of ≈ 25 ms).
    centres[0] = centres[1] = centres[2] = centres[6] = Infinity; centres[3] = centres[4] = centres[5] = -Infinity;
    for (let i = 0; i < n; i++) {
      i = spheresUntilGrowth(this, world, identity, src, i, n, out, bounds, centres);
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
function spheresUntilGrowth(spheres: InstanceSpheres, world: Matrix4, identity: boolean, src: Float32Array, from: number, n: number, out: Float32Array,
  bounds: Sphere, centres: Float64Array): number {
  const c = spheres.local.center, cx = c.x, cy = c.y, cz = c.z, lr = spheres.local.radius, s = scratchSphere, w = scratchWorld;
  let minX = centres[0], minY = centres[1], minZ = centres[2], maxX = centres[3], maxY = centres[4], maxZ = centres[5], minR = centres[6];
  let i = from;
  for (; i < n; i++) {
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
      spheres.inWorld(world, src, o, w);
      out[p] = w.center.x; out[p + 1] = w.center.y; out[p + 2] = w.center.z; out[p + 3] = w.radius;
    }
    // The batch's bounds over the stored float32 values, as mortonOrder.ts's own pass takes them.
    const fx = out[p], fy = out[p + 1], fz = out[p + 2], fr = out[p + 3];
    if (fx - fx === 0 && fy - fy === 0 && fz - fz === 0) {
      if (fr > 0 && fr < minR) minR = fr;
      if (fx < minX) minX = fx; if (fx > maxX) maxX = fx;
      if (fy < minY) minY = fy; if (fy > maxY) maxY = fy;
      if (fz < minZ) minZ = fz; if (fz > maxZ) maxZ = fz;
    }
    s.center.x = x; s.center.y = y; s.center.z = z; s.radius = r;
    if (!clearlyInside(s, bounds)) break;
  }
  centres[0] = minX; centres[1] = minY; centres[2] = minZ; centres[3] = maxX; centres[4] = maxY; centres[5] = maxZ; centres[6] = minR;
  return i;
}
