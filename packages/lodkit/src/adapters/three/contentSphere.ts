/**
 * The bounding sphere of an object's whole content (every mesh, instanced or batched mesh, point
 * cloud and line below it), which `ScreenSizeLOD` measures instead of `THREE.LOD`'s origin.
 *
 * @module
 */
import { Matrix4, type Object3D, Sphere } from 'three';

const scratchSphere = new Sphere();

/**
 * Computes the bounding sphere of everything under `root` (meshes, instanced and batched meshes,
 * points, lines) in `root`'s local space, into `target`. Empty content gives an empty sphere.
 * @example
 * ```ts
 * const sphere = computeContentSphere(lod, new Sphere());
 * ```
 * @category three.js
 */
export function computeContentSphere(root: Object3D, target: Sphere, skipRootMatrix = true): Sphere {
  target.makeEmpty();
  const visit = (node: Object3D, parent: Matrix4 | null): void => {
    if (node.matrixAutoUpdate) node.updateMatrix();
    const m = parent === null ? new Matrix4() : parent.clone().multiply(node.matrix);
    const any = node as Object3D & {
      geometry?: { boundingSphere: Sphere | null; computeBoundingSphere(): void };
      boundingSphere?: Sphere | null; computeBoundingSphere?: () => void; isInstancedMesh?: boolean;
      isBatchedMesh?: boolean; isSkinnedMesh?: boolean;
    };
    let local: Sphere | null = null;
    if ((any.isInstancedMesh || any.isBatchedMesh || any.isSkinnedMesh) && typeof any.computeBoundingSphere === 'function') {
      any.computeBoundingSphere();
      local = any.boundingSphere ?? null;
    } else if (any.geometry !== undefined && any.geometry !== null) {
      if (any.geometry.boundingSphere === null) any.geometry.computeBoundingSphere();
      local = any.geometry.boundingSphere;
    }
    if (local !== null && !local.isEmpty()) {
      scratchSphere.copy(local).applyMatrix4(m);
      target.union(scratchSphere);
    }
    for (const child of node.children) visit(child, m);
  };
  if (skipRootMatrix) {
    for (const child of root.children) visit(child, new Matrix4());
  } else {
    visit(root, null);
  }
  return target;
}
