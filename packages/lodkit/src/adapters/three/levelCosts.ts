/**
 * Default per-level costs for the three.js adapters: triangles drawn by an object, a geometry or a
 * `BatchedMesh` geometry, made non-increasing from finest to coarsest level.
 *
 * @module
 */
import type { BatchedMesh, BufferGeometry, InstancedMesh, Object3D } from 'three';

/**
 * Triangles drawn by everything under `root` (index count / 3, or vertex count / 3; instances multiply).
 * @example
 * ```ts
 * countTriangles(new Mesh(new BoxGeometry())); // 12
 * ```
 * @category three.js
 */
export function countTriangles(root: Object3D): number {
  let total = 0;
  root.traverse((node) => {
    const g = (node as Object3D & { geometry?: BufferGeometry }).geometry;
    if (g === undefined || g === null || (node as { isMesh?: boolean }).isMesh !== true) return;
    total += geometryTriangles(g) * ((node as { isInstancedMesh?: boolean }).isInstancedMesh ? (node as InstancedMesh).count : 1);
  });
  return total;
}

/**
 * Triangles of one geometry, honouring its draw range.
 * @example
 * ```ts
 * geometryTriangles(new BoxGeometry()); // 12
 * ```
 * @category three.js
 */
export function geometryTriangles(g: BufferGeometry): number {
  const n = g.index !== null ? g.index.count : (g.getAttribute('position')?.count ?? 0);
  const range = Math.min(n - g.drawRange.start, g.drawRange.count);
  return Math.max(0, Math.floor(range / 3));
}

/** Triangles of geometry `g` of a BatchedMesh: `getGeometryRangeAt` (r166+), else the r159–r165 draw range. */
export function batchedTriangles(mesh: BatchedMesh, g: number): number {
  const m = mesh as BatchedMesh & { getGeometryRangeAt?: (id: number) => { count: number }; _drawRanges?: { count: number }[] };
  const count = typeof m.getGeometryRangeAt === 'function' ? m.getGeometryRangeAt(g).count : (m._drawRanges?.[g]?.count ?? 0);
  return Math.floor((count > 0 ? count : 0) / 3);
}

/** Makes per-level costs non-increasing (a coarser level never costs more), in place. @internal */
export function nonIncreasing(values: number[]): number[] {
  for (let i = 1; i < values.length; i++) if (values[i] > values[i - 1]) values[i] = values[i - 1];
  return values;
}
