/**
 * Geometry helpers shared by reading, generation and the simulator loader: triangle counts,
 * positions as float32, index lists as uint32, and the bounding sphere the thresholds are made for.
 *
 * Contributor notes:
 * - The bounding sphere is centred on the box of the positions and its radius is the largest
 *   distance of a vertex from that centre. That is three.js's `computeBoundingSphere`; Babylon.js
 *   uses the box's half diagonal, which is never smaller. Thresholds derived from this radius are
 *   therefore exact for three.js and conservative for Babylon.js (a larger runtime radius means the
 *   object reaches a threshold from farther away, where its error is smaller in pixels).
 * - Positions are read through `Accessor.getElement`, which undoes normalisation, so quantized
 *   files (KHR_mesh_quantization) give errors in the same units as float files.
 *
 * @module
 */
import { Primitive, type Accessor, type Mesh, type Node } from '@gltf-transform/core';

/** A bounding sphere `{center: [x, y, z], radius}`. @category glTF */
export interface BoundingSphere {
  center: [number, number, number];
  radius: number;
}

/**
 * Number of triangles a primitive draws (0 for points and lines).
 * @example
 * ```ts
 * primitiveTriangleCount(mesh.listPrimitives()[0]); // index count / 3 for TRIANGLES
 * ```
 * @category glTF
 */
export function primitiveTriangleCount(primitive: Primitive): number {
  const indices = primitive.getIndices();
  const position = primitive.getAttribute('POSITION');
  const count = indices ? indices.getCount() : position ? position.getCount() : 0;
  switch (primitive.getMode()) {
    case Primitive.Mode.TRIANGLES: return Math.floor(count / 3);
    case Primitive.Mode.TRIANGLE_STRIP:
    case Primitive.Mode.TRIANGLE_FAN: return Math.max(0, count - 2);
    default: return 0;
  }
}

/**
 * Number of triangles a mesh draws.
 * @example
 * ```ts
 * meshTriangleCount(node.getMesh());
 * ```
 * @category glTF
 */
export function meshTriangleCount(mesh: Mesh | null): number {
  if (!mesh) return 0;
  let total = 0;
  for (const primitive of mesh.listPrimitives()) total += primitiveTriangleCount(primitive);
  return total;
}

/**
 * Number of triangles a node and its descendants draw.
 * @example
 * ```ts
 * nodeTriangleCount(levelNode); // the level's whole subtree
 * ```
 * @category glTF
 */
export function nodeTriangleCount(node: Node): number {
  let total = 0;
  node.traverse((n) => { total += meshTriangleCount(n.getMesh()); });
  return total;
}

/**
 * The accessor's values as a tightly packed `Float32Array` of xyz triples.
 * @example
 * ```ts
 * const xyz = readPositions(primitive.getAttribute('POSITION')!);
 * ```
 * @category glTF
 */
export function readPositions(accessor: Accessor): Float32Array {
  const array = accessor.getArray();
  if (array instanceof Float32Array && !accessor.getNormalized() && accessor.getElementSize() === 3) return array;
  const count = accessor.getCount();
  const out = new Float32Array(count * 3);
  const element = [0, 0, 0];
  for (let i = 0; i < count; i++) {
    accessor.getElement(i, element);
    out[i * 3] = element[0];
    out[i * 3 + 1] = element[1];
    out[i * 3 + 2] = element[2];
  }
  return out;
}

/**
 * The primitive's index list as `Uint32Array` (a sequential list when it has no indices).
 * @example
 * ```ts
 * const indices = readIndices(primitive, position.getCount());
 * ```
 * @category glTF
 */
export function readIndices(primitive: Primitive, vertexCount: number): Uint32Array {
  const indices = primitive.getIndices();
  if (!indices) {
    const out = new Uint32Array(vertexCount);
    for (let i = 0; i < vertexCount; i++) out[i] = i;
    return out;
  }
  const array = indices.getArray();
  if (array instanceof Uint32Array) return array;
  return Uint32Array.from(array as ArrayLike<number>);
}

/**
 * Bounding sphere of a set of points given by a callback that feeds each point's xyz to `visit`:
 * centre of the box, radius = largest distance from it (see the module notes). Two passes.
 * @internal
 */
export function sphereOfPoints(forEachPoint: (visit: (x: number, y: number, z: number) => void) => void): BoundingSphere | null {
  let minX = Infinity, minY = Infinity, minZ = Infinity;
  let maxX = -Infinity, maxY = -Infinity, maxZ = -Infinity;
  forEachPoint((x, y, z) => {
    if (x < minX) minX = x; if (x > maxX) maxX = x;
    if (y < minY) minY = y; if (y > maxY) maxY = y;
    if (z < minZ) minZ = z; if (z > maxZ) maxZ = z;
  });
  if (!(minX <= maxX) || !(minY <= maxY) || !(minZ <= maxZ)) return null;
  const cx = (minX + maxX) / 2, cy = (minY + maxY) / 2, cz = (minZ + maxZ) / 2;
  let r2 = 0;
  forEachPoint((x, y, z) => {
    const d2 = (x - cx) ** 2 + (y - cy) ** 2 + (z - cz) ** 2;
    if (d2 > r2) r2 = d2;
  });
  return { center: [cx, cy, cz], radius: Math.sqrt(r2) };
}

/**
 * Bounding sphere of a mesh's positions in the mesh's own space; `null` for a mesh without positions.
 * @example
 * ```ts
 * const { center, radius } = meshBoundingSphere(mesh)!;
 * ```
 * @category glTF
 */
export function meshBoundingSphere(mesh: Mesh): BoundingSphere | null {
  const arrays: Float32Array[] = [];
  for (const primitive of mesh.listPrimitives()) {
    const position = primitive.getAttribute('POSITION');
    if (position) arrays.push(readPositions(position));
  }
  return sphereOfPoints((visit) => {
    for (const p of arrays) for (let i = 0; i + 2 < p.length; i += 3) visit(p[i], p[i + 1], p[i + 2]);
  });
}

/**
 * World-space bounding sphere of a node and its descendants' meshes (each vertex transformed by its
 * node's world matrix); `null` when the subtree has no positions.
 * @example
 * ```ts
 * const sphere = nodeWorldBoundingSphere(groupNode); // world space, children included
 * ```
 * @category glTF
 */
export function nodeWorldBoundingSphere(node: Node): BoundingSphere | null {
  const parts: { m: number[]; p: Float32Array }[] = [];
  node.traverse((n) => {
    const mesh = n.getMesh();
    if (!mesh) return;
    const m = n.getWorldMatrix() as unknown as number[];
    for (const primitive of mesh.listPrimitives()) {
      const position = primitive.getAttribute('POSITION');
      if (position) parts.push({ m, p: readPositions(position) });
    }
  });
  return sphereOfPoints((visit) => {
    for (const { m, p } of parts) {
      for (let i = 0; i + 2 < p.length; i += 3) {
        const x = p[i], y = p[i + 1], z = p[i + 2];
        visit(
          m[0] * x + m[4] * y + m[8] * z + m[12],
          m[1] * x + m[5] * y + m[9] * z + m[13],
          m[2] * x + m[6] * y + m[10] * z + m[14],
        );
      }
    }
  });
}

/**
 * Largest axis scale of a column-major 4×4 matrix (length of its longest basis column).
 * @example
 * ```ts
 * maxAxisScale(node.getWorldMatrix()); // 2 for a node scaled by [2, 1, 1]
 * ```
 * @category glTF
 */
export function maxAxisScale(m: ArrayLike<number>): number {
  const sx = Math.hypot(m[0], m[1], m[2]);
  const sy = Math.hypot(m[4], m[5], m[6]);
  const sz = Math.hypot(m[8], m[9], m[10]);
  return Math.max(sx, sy, sz);
}
