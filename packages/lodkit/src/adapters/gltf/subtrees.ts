/**
 * Per-node sums over the node hierarchy for the reader, in one pass over all nodes: what
 * `nodeTriangleCount` gives for one node, for every node at once. Computing it per level with a
 * traversal was quadratic when groups nest in the hierarchy (4,000 nested groups: 12 s).
 *
 * @module
 */
import type { Mesh, Node } from '@gltf-transform/core';
import { meshTriangleCount } from './geometry.js';

/**
 * Triangles drawn by each node and its descendants (`nodeTriangleCount` of `nodes[i]` at `[i]`),
 * in O(nodes + meshes' primitives).
 * @internal
 */
export function subtreeTriangles(nodes: Node[], nodeIndex: Map<Node, number>): Float64Array {
  const n = nodes.length;
  const total = new Float64Array(n);
  const parent = new Int32Array(n).fill(-1);
  const meshTriangles = new Map<Mesh, number>();
  for (let i = 0; i < n; i++) {
    const mesh = nodes[i].getMesh();
    total[i] = mesh ? memo(meshTriangles, mesh, meshTriangleCount) : 0;
    for (const child of nodes[i].listChildren()) {
      const c = nodeIndex.get(child);
      if (c !== undefined) parent[c] = i;
    }
  }
  // Breadth-first from the roots, then add each node into its parent in reverse (leaves first).
  // The reader refuses cycles in `children` (source.ts), so every node is reached from a root.
  const order = new Int32Array(n);
  const childStart = new Int32Array(n + 1);
  for (let i = 0; i < n; i++) if (parent[i] !== -1) childStart[parent[i] + 1]++;
  for (let i = 0; i < n; i++) childStart[i + 1] += childStart[i];
  const children = new Int32Array(n), fill = childStart.slice(0, n);
  for (let i = 0; i < n; i++) if (parent[i] !== -1) children[fill[parent[i]]++] = i;
  let tail = 0;
  for (let i = 0; i < n; i++) if (parent[i] === -1) order[tail++] = i;
  for (let head = 0; head < tail; head++) {
    const v = order[head];
    for (let e = childStart[v]; e < childStart[v + 1]; e++) order[tail++] = children[e];
  }
  for (let k = tail - 1; k >= 0; k--) if (parent[order[k]] !== -1) total[parent[order[k]]] += total[order[k]];
  return total;
}

/** `cache.get(key)`, made by `make` the first time. @internal */
export function memo<K, V>(cache: Map<K, V>, key: K, make: (key: K) => V): V {
  let value = cache.get(key);
  if (value === undefined) { value = make(key); cache.set(key, value); }
  return value;
}

