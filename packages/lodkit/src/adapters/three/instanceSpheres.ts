/**
 * The bounding spheres of `InstancedLOD`'s instances: one local sphere (the level geometries')
 * under each instance's matrix — in the object's space for its bounds, in world space for the
 * batch engine — and whether the object's world matrix moved since the engine's spheres were made.
 *
 * @module
 */
import { Matrix4, Vector3, type Sphere } from 'three';

const scratchMatrix = new Matrix4();
const scratchVector = new Vector3();

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
