/**
 * Reading glTF files from other people safely, part 5: the checks that need the decoded data, run
 * after glTF-Transform has built the document and before anything hands it to meshoptimizer. An
 * index ≥ the vertex count made meshoptimizer trap ("memory access out of bounds", exit 1) and
 * would make any renderer read past its vertex buffer.
 *
 * @module
 */
import type { Document, Primitive } from '@gltf-transform/core';
import { GltfReadError } from './readLimits.js';

/**
 * Position of the first index ≥ `vertexCount` in `indices`, or -1 when every index is in range.
 * @example
 * ```ts
 * firstIndexOutOfRange(new Uint32Array([0, 1, 5]), 3); // 2
 * ```
 * @internal
 */
export function firstIndexOutOfRange(indices: ArrayLike<number>, vertexCount: number): number {
  for (let k = 0; k < indices.length; k++) if (!(indices[k] < vertexCount)) return k;
  return -1;
}

/** Vertices of a primitive: POSITION's count, else the first attribute's; -1 without attributes. */
export function primitiveVertexCount(primitive: Primitive): number {
  const position = primitive.getAttribute('POSITION');
  if (position) return position.getCount();
  const first = primitive.listAttributes()[0];
  return first ? first.getCount() : -1;
}

/**
 * Every index of every primitive is below its vertex count; throws {@link GltfReadError} naming
 * `meshes[m].primitives[p].indices[k]` and the value.
 * @internal
 */
export function checkIndexRanges(document: Document): void {
  document.getRoot().listMeshes().forEach((mesh, m) => {
    mesh.listPrimitives().forEach((primitive, p) => {
      const indices = primitive.getIndices()?.getArray();
      if (!indices) return;
      const vertices = primitiveVertexCount(primitive);
      const k = firstIndexOutOfRange(indices, vertices);
      if (k >= 0) {
        throw new GltfReadError(`Could not read glTF: meshes[${m}].primitives[${p}].indices[${k}] = ${indices[k]} is ≥ the vertex count ${vertices}`);
      }
    });
  });
}
